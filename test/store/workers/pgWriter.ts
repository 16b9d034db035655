/**
 * A separate process writing to a PostgreSQL store, for the multi-process tests.
 * Usage: pgWriter.ts URL PROJECT create COUNT TAG | pgWriter.ts URL PROJECT edit COUNT ID
 * Prints one line per acknowledged (committed) write: "ack <id> <version>".
 */
import { MemoryService } from '../../../src/core/memoryService';
import { PgStore } from '../../../src/store/postgres/pgStore';

async function main(): Promise<void> {
  const [url, project, mode, countArg, arg] = process.argv.slice(2);
  const store = await PgStore.open({ connectionString: url!, project: project!, pool: { max: 2 } });
  const service = new MemoryService(store, { author: `worker-${process.pid}` });
  const count = Number(countArg);
  for (let i = 0; i < count; i++) {
    if (mode === 'edit') {
      const r = await service.edit({ id: arg!, content: `edit ${i} by ${process.pid}` });
      process.stdout.write(`ack ${r.id} ${r.version}\n`);
    } else {
      const r = await service.create({ description: `memory ${i} from ${process.pid}`, tags: [arg ?? 'worker'], content: `content ${i}` });
      process.stdout.write(`ack ${r.id} 1\n`);
    }
  }
  await store.close();
}

main().catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exit(1);
});
