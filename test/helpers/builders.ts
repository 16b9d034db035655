import { MemoryService } from '../../src/core/memoryService';
import { SqlJsStore, type SqlJsStoreOptions } from '../../src/store/sqljs/sqljsStore';
import { tmpDir } from './tmp';

/** A memory input with sensible defaults. */
export function memory(over: Partial<{ description: string; tags: string[]; content: string }> = {}) {
  return { description: 'Fixed the flaky build cache', tags: ['build', 'cache'], content: 'Cleared the cache key.', ...over };
}

/** A real sql.js store in a fresh folder, and a service over it. */
export async function openService(options: Partial<SqlJsStoreOptions> & { author?: string; now?: () => Date } = {}) {
  const dir = options.dir ?? tmpDir();
  const store = await SqlJsStore.open({ ...options, dir });
  const service = new MemoryService(store, { author: options.author ?? 'tester@example.com', now: options.now });
  return { dir, store, service };
}
