/**
 * A separate process that writes to a store, for the multi-process and kill tests.
 * Usage: writer.ts DIR create COUNT TAG | writer.ts DIR edit COUNT ID | writer.ts DIR loop
 *        writer.ts DIR count COUNT ID (read-then-increment a `report` record's data.n)
 * Prints one line per acknowledged (durable) write: "ack <id> <version>".
 */
import { randomUUID } from 'node:crypto';
import { MemoryService } from '../../../src/core/memoryService';
import { SqlJsStore } from '../../../src/store/sqljs/sqljsStore';

async function main(): Promise<void> {
  const [dir, mode, countArg, arg] = process.argv.slice(2);
  const store = await SqlJsStore.open({ dir: dir!, checkpointEvery: mode === 'loop' ? 7 : 1000, lockStaleMs: 2000 });
  const service = new MemoryService(store, { author: `worker-${process.pid}` });
  const count = Number(countArg ?? Infinity);
  for (let i = 0; mode === 'loop' || i < count; i++) {
    if (mode === 'count') {
      const [row] = await store.records.write('counter', async (r) => {
        const cur = (await r.get('report', arg!))!;
        const version = (await r.maxVersion('report', arg!)) + 1;
        return [
          {
            ...cur,
            rowId: randomUUID(),
            version,
            op: 'edit' as const,
            changedAt: new Date(Math.max(Date.now(), Date.parse(cur.changedAt) + 1)).toISOString(),
            data: { n: (cur.data.n as number) + 1 },
          },
        ];
      });
      process.stdout.write(`ack ${row!.id} ${row!.version}\n`);
    } else if (mode === 'edit') {
      const r = await service.edit({ id: arg!, content: `edit ${i} by ${process.pid}` });
      process.stdout.write(`ack ${r.id} ${r.version}\n`);
    } else {
      const r = await service.create({
        description: `memory ${i} from ${process.pid}`,
        tags: [arg ?? 'worker'],
        content: `content ${i} `.repeat(20),
      });
      process.stdout.write(`ack ${r.id} 1\n`);
    }
  }
  await store.close();
}

main().catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exit(1);
});
