import { SqlJsStore } from '../src/store/sqljs/sqljsStore';
import { MemoryService } from '../src/core/memoryService';
(async () => {
  const dir = '/tmp/smoke-' + Date.now();
  const store = await SqlJsStore.open({ dir, onWarning: (w) => console.log('WARN', w) });
  const svc = new MemoryService(store, { author: 'me' });
  const { id } = await svc.create({ description: 'Caching layer for builds', tags: ['Build System', 'cache'], content: 'x' });
  console.log(await svc.search({ keywords: ['caching'] }));
  console.log(await svc.edit({ id, content: 'y', expectedVersion: 1 }));
  console.log(await svc.edit({ id, content: 'y' }));
  await svc.delete({ id });
  console.log(await svc.restore({ id }));
  console.log((await svc.history({ id })).map((h) => [h.version, h.op, h.changedAt, h.deletedAt]));
  console.log(await svc.tags({ proposed: ['builds', 'Caching'] }));
  console.log(await svc.list({}));
  try { await svc.create({ description: 'x'.repeat(600), tags: ['a b', 'B!'], content: '' }); } catch (e) { console.log(String(e)); }
  try { await svc.create({ description: 'key', tags: ['a'], content: 'token ghp_' + 'a'.repeat(36) }); } catch (e) { console.log(String(e)); }
  await store.close();
  const s2 = await SqlJsStore.open({ dir });
  console.log((await new MemoryService(s2, { author: 'x' }).read({ id })));
  console.log(require('fs').readdirSync(dir));
})();
