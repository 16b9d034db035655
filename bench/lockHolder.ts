/**
 * For the lock benchmark: opens the store, starts a write and stays inside it (holding the
 * store's write lock) until killed. Usage: lockHolder.ts DIR; prints "held" once it holds it.
 */
import { SqlJsStore } from '../src/store/sqljs/sqljsStore';

async function main(): Promise<void> {
  const store = await SqlJsStore.open({ dir: process.argv[2]! });
  await store.records.write('bench-hold', async () => {
    process.stdout.write('held\n');
    await new Promise(() => undefined);
    return [];
  });
}

main().catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exit(1);
});
