import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MemoryService } from '../../src/core/memoryService';
import { holderGone, type LockOwner, OWNER_FILE, readOwner, selfIdentity } from '../../src/store/lockOwner';
import { SqlJsStore } from '../../src/store/sqljs/sqljsStore';
import { WriteLock } from '../../src/store/writeLock';
import { memory } from '../helpers/builders';
import { holdLockInChild, killHard, runLocker, runWriter } from '../helpers/processes';
import { tmpDir } from '../helpers/tmp';

/*
 * Every waiter here gives up long before the lock could go stale (timeoutMs 2 s against
 * staleMs 10 s): a lock it gets was taken over because its holder was known dead, not because
 * it aged. These are behaviours, not timings; the time a takeover takes is in the benchmark.
 */
const STALE_MS = 10_000;
const quickLock = (dir: string, timeoutMs = 2000) => new WriteLock(path.join(dir, 'write.lock'), { staleMs: STALE_MS, timeoutMs });
const lockPath = (dir: string) => path.join(dir, 'write.lock');

/** A lock directory as another process would have left it. */
function fakeLock(dir: string, owner: Partial<LockOwner> | undefined, ageMs = 0): void {
  fs.mkdirSync(lockPath(dir));
  if (owner) fs.writeFileSync(path.join(lockPath(dir), OWNER_FILE), JSON.stringify({ ...selfIdentity(), token: randomUUID(), ...owner }));
  const at = new Date(Date.now() - ageMs);
  fs.utimesSync(lockPath(dir), at, at);
}

/** A pid that no process has: a child that has run and been reaped. */
async function deadPid(): Promise<number> {
  const r = await runWriter([tmpDir(), 'create', '0', 'none']);
  assert.equal(r.code, 0, r.stderr);
  return r.pid;
}

/** What is left in the store folder besides the store's own files: no lock, no tombstone, no guard. */
const lockLeftovers = (dir: string) => fs.readdirSync(dir).filter((f) => f.startsWith('write.lock'));

describe('the write lock across processes', function () {
  this.timeout(60_000);

  it('takes over at once the lock of a writer killed inside its write, and the store writes again', async () => {
    const dir = tmpDir();
    const holder = await holdLockInChild(dir);
    const owner = readOwner(lockPath(dir));
    assert.equal(owner?.pid, holder.pid, 'the holder named itself in the lock');
    await killHard(holder);

    let ran = false;
    await quickLock(dir).run(() => (ran = true));
    assert.ok(ran);
    // The dead lock was removed while taking it over; our own, moved aside at release, is removed
    // after this turn of the event loop (lockDir.ts, removeLater).
    assert.ok(
      lockLeftovers(dir).every((f) => f.startsWith('write.lock.released-')),
      `only our released lock waits: ${lockLeftovers(dir).join(', ')}`,
    );
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(lockLeftovers(dir), []);

    const store = await SqlJsStore.open({ dir, lockStaleMs: STALE_MS });
    const { id } = await new MemoryService(store, { author: 'after' }).create(memory());
    assert.equal((await store.current(id))?.version, 1);
    await store.close();
  });

  it('a writer that exits right after its writes leaves no lock and no tombstone behind', async () => {
    // A released lock's directory is removed after the writer's turn of the event loop, or by
    // the exit hook when the process ends first (a one-shot CLI call).
    const dir = tmpDir();
    const r = await runWriter([dir, 'create', '3', 'none']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.acks.length, 3);
    assert.deepEqual(lockLeftovers(dir), []);
  });

  it('a live holder still blocks, and its lock is taken once it is killed', async () => {
    const dir = tmpDir();
    const holder = await holdLockInChild(dir);
    try {
      await assert.rejects(
        quickLock(dir, 300).run(() => assert.fail('ran while another process held the lock')),
        /the store is busy/,
      );
    } finally {
      await killHard(holder);
    }
    await quickLock(dir).run(() => undefined);
  });

  it('a lock held from another machine waits until it is stale', async () => {
    const dir = tmpDir();
    fakeLock(dir, { host: `not-${os.hostname()}`, pid: await deadPid() });
    await assert.rejects(
      quickLock(dir, 300).run(() => undefined),
      /the store is busy/,
    );
    // Aged past the stale time, it is taken over like any lock of a holder that stopped refreshing.
    const old = new Date(Date.now() - STALE_MS - 1000);
    fs.utimesSync(lockPath(dir), old, old);
    await quickLock(dir, 300).run(() => undefined);
  });

  it('a lock without its owner file yet is not taken for dead, only for stale', async () => {
    const dir = tmpDir();
    fakeLock(dir, undefined);
    await assert.rejects(
      quickLock(dir, 300).run(() => undefined),
      /the store is busy/,
    );
    fs.rmdirSync(lockPath(dir));
    fakeLock(dir, undefined, STALE_MS + 1000);
    await quickLock(dir, 300).run(() => undefined);
  });

  it('a dead holder recorded with an unreadable owner file is treated as unknown', async () => {
    const dir = tmpDir();
    fakeLock(dir, undefined);
    fs.writeFileSync(path.join(lockPath(dir), OWNER_FILE), '{"host":');
    await assert.rejects(
      quickLock(dir, 300).run(() => undefined),
      /the store is busy/,
    );
  });

  it('three processes taking over the lock of a killed writer never hold it at once', async () => {
    const dir = tmpDir();
    const log = path.join(dir, 'critical.log');
    const holder = await holdLockInChild(dir);
    await killHard(holder);
    // Each starts at the same moment (once all have loaded), so all find the dead holder's lock.
    const startAt = String(Date.now() + 2500);
    // Each leaves the lock as a dead holder's too: every turn is a race to take it over.
    const dead = String(await deadPid());
    const runs = await Promise.all([1, 2, 3].map(() => runLocker(dir, ['append', log, '25', startAt, dead])));
    for (const r of runs) assert.equal(r.code, 0, r.stderr);
    const lines = fs.readFileSync(log, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 3 * 25 * 2);
    for (let i = 0; i < lines.length; i += 2) {
      const pid = lines[i]!.split(' ')[0];
      assert.deepEqual([lines[i], lines[i + 1]], [`${pid} in`, `${pid} out`], `two holders at once near line ${i + 1}`);
    }
    assert.deepEqual(lockLeftovers(dir), ['write.lock'], 'the last one left its lock behind, and nothing else');
  });
});

describe('whether a lock holder is gone', () => {
  const me = selfIdentity();
  const owner = (o: Partial<LockOwner>): LockOwner => ({ ...me, token: randomUUID(), ...o });

  it('a live process of this machine is not', () => {
    assert.equal(holderGone(owner({})), false);
  });

  it('a pid no process has is', async () => {
    assert.equal(holderGone(owner({ pid: await deadPid() })), true);
  });

  it('another machine or another pid namespace cannot be probed: not gone', async () => {
    const pid = await deadPid();
    assert.equal(holderGone(owner({ pid, host: `not-${me.host}` })), false);
    assert.equal(holderGone(owner({ pid, pidNs: 'pid:[1]' })), false);
  });

  it('a lock from an earlier boot has no living holder', function () {
    if (!me.boot) this.skip(); // not Linux
    assert.equal(holderGone(owner({ boot: randomUUID() })), true);
  });

  it('a live pid that started at another time is a reused pid: gone', function () {
    if (!me.start) this.skip(); // not Linux
    assert.equal(holderGone(owner({ start: String(Number(me.start) + 1) })), true);
  });

  it('the lock of a reused pid is taken over at once', async function () {
    if (!me.start) this.skip();
    const dir = tmpDir();
    fakeLock(dir, { start: String(Number(me.start) + 1) });
    await quickLock(dir).run(() => undefined);
  });
});
