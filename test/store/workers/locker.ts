/**
 * A separate process that takes a store's write lock, for the lock takeover tests.
 * Usage: locker.ts DIR hold                       (a store write that never ends; prints "held")
 *        locker.ts DIR append FILE COUNT START_AT [DEAD_PID]
 *            From START_AT (ms since the epoch), COUNT times under the lock: append "PID in", then
 *            "PID out". With DEAD_PID, each time leave the lock behind as if that process had held
 *            it and died: every next holder has to take over a dead holder's lock.
 */
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { selfIdentity, writeOwner } from '../../../src/store/lockOwner';
import { SqlJsStore } from '../../../src/store/sqljs/sqljsStore';
import { WriteLock } from '../../../src/store/writeLock';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const [dir, mode, file, countArg, startAt, deadPid] = process.argv.slice(2);
  if (mode === 'hold') {
    // A real store write, stopped inside its critical section until the test kills us.
    const store = await SqlJsStore.open({ dir: dir!, lockStaleMs: 10_000 });
    // The lock's refresh timer is unref'd (a held lock never keeps a process alive): this keeps
    // the worker alive until it is killed, instead of exiting (and releasing) once idle.
    setInterval(() => undefined, 60_000);
    await store.records.write('hold', async () => {
      process.stdout.write('held\n');
      await new Promise(() => undefined);
      return [];
    });
    return;
  }
  // A stale time the test never reaches: a takeover here can only be of a dead holder.
  const lockDir = path.join(dir!, 'write.lock');
  const lock = new WriteLock(lockDir, { staleMs: 10_000, timeoutMs: 20_000 });
  await sleep(Math.max(0, Number(startAt) - Date.now()));
  for (let i = 0; i < Number(countArg); i++) {
    await lock.run(async () => {
      fs.appendFileSync(file!, `${process.pid} in\n`);
      await sleep(1); // let the others try meanwhile
      fs.appendFileSync(file!, `${process.pid} out\n`);
      // Another token than ours: release() leaves the lock in place, as a crash would.
      if (deadPid) writeOwner(lockDir, { ...selfIdentity(), pid: Number(deadPid), token: randomUUID() });
    });
  }
}

main().catch((err: Error) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exit(1);
});
