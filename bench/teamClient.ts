/**
 * One client of `npm run bench:team`, in its own process with its own pool: OPS mixed
 * operations (search 50%, create 20%, edit 20%, read 10%) against the team database.
 * Usage: teamClient.ts URL PROJECT OPS SEED IDS_FILE QUERIES_FILE
 * BENCH_TEAM_LOCAL sets the store's localIndex mode (default: the store's default, background);
 * BENCH_TEAM_POOL its most connections (default: the store's default, 10).
 * Prints one line: BENCH_CLIENT {"search":[ms…],"local":[ms…],"write":[ms…],"create":[ms…],"edit":[ms…],"read":[ms…],"acked":[[id,version]…]};
 * `local` holds the searches (also in `search`) answered by the local index; `writeLoaded` and
 * `readLoaded` the writes and reads made once it was loaded (loading shares the client's CPU).
 */
import * as fs from 'node:fs';
import { MemoryService } from '../src/core/memoryService';
import type { LocalIndexMode } from '../src/store/postgres/localIndex';
import { PgStore } from '../src/store/postgres/pgStore';
import { prng } from './generate';

async function main(): Promise<void> {
  const [url, project, opsArg, seedArg, idsFile, queriesFile] = process.argv.slice(2);
  const ids = JSON.parse(fs.readFileSync(idsFile!, 'utf8')) as string[];
  const queries = JSON.parse(fs.readFileSync(queriesFile!, 'utf8')) as string[][];
  const rnd = prng(Number(seedArg));
  const store = await PgStore.open({
    connectionString: url!,
    project: project!,
    // The store's own pool, as a client has it (ten connections; a client uses two at most: a
    // create's likely-duplicate check and its write run side by side); BENCH_TEAM_POOL=N for another.
    ...(process.env.BENCH_TEAM_POOL ? { pool: { max: Number(process.env.BENCH_TEAM_POOL) } } : {}),
    localIndex: (process.env.BENCH_TEAM_LOCAL || undefined) as LocalIndexMode | undefined,
  });
  const service = new MemoryService(store, { author: `bench-${process.pid}` });
  const out = {
    search: [] as number[],
    local: [] as number[],
    write: [] as number[],
    create: [] as number[],
    edit: [] as number[],
    read: [] as number[],
    writeLoaded: [] as number[],
    readLoaded: [] as number[],
    acked: [] as Array<[string, number]>,
  };
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  for (let i = 0; i < Number(opsArg); i++) {
    const r = rnd();
    const loaded = store.localIndexSize !== undefined;
    const t = performance.now();
    if (r < 0.5) {
      await service.search({ keywords: pick(queries) });
      out.search.push(performance.now() - t);
      if (loaded) out.local.push(performance.now() - t);
    } else if (r < 0.7) {
      const { id } = await service.create({
        description: `bench client ${process.pid} note ${i}`,
        tags: ['bench', `client-${seedArg}`],
        content: `written by ${process.pid}`,
      });
      out.write.push(performance.now() - t);
      out.create.push(performance.now() - t);
      if (loaded) out.writeLoaded.push(performance.now() - t);
      out.acked.push([id, 1]);
    } else if (r < 0.9) {
      // Edits go to a small set of ids, so clients collide on the same memory on purpose.
      const id = ids[Math.floor(rnd() * 50)]!;
      const e = await service.edit({ id, content: `edit ${i} by ${process.pid}` });
      out.write.push(performance.now() - t);
      out.edit.push(performance.now() - t);
      if (loaded) out.writeLoaded.push(performance.now() - t);
      out.acked.push([id, e.version]);
    } else {
      await service.read({ id: pick(ids) });
      out.read.push(performance.now() - t);
      if (loaded) out.readLoaded.push(performance.now() - t);
    }
  }
  await store.close();
  process.stdout.write(`BENCH_CLIENT ${JSON.stringify(out)}\n`);
}

main().catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exit(1);
});
