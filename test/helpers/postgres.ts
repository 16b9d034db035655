/**
 * The PostgreSQL side of the test run: a scratch database (agent_memory_test_<random>) made
 * on first use and dropped when mocha finishes (a root hook; .mocharc.json requires this
 * file). Suites that need it call `requirePostgres` in a `before` hook: when the server
 * cannot be reached they are skipped with a plain "PostgreSQL tests NOT RUN: <reason>",
 * and under CI=true that is a failure instead.
 */
import { randomBytes } from 'node:crypto';
import { Client, escapeIdentifier } from 'pg';

/** The maintenance connection used to create and drop the scratch database. */
export const PG_ADMIN_URL = process.env.AGENT_MEMORY_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type Scratch = { url: string; name: string } | { reason: string };
let scratch: Promise<Scratch> | undefined;
let notRunSaid = false;

function urlFor(database: string): string {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function createScratch(): Promise<Scratch> {
  const name = `agent_memory_test_${randomBytes(6).toString('hex')}`;
  const client = new Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query(`CREATE DATABASE ${escapeIdentifier(name)}`);
    return { url: urlFor(name), name };
  } catch (err) {
    return { reason: `${new URL(PG_ADMIN_URL).host}: ${(err as Error).message || String(err)}` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * A database of its own on the test server (a load needs one with no memory in any project); the
 * function given to `cleanup` drops it. Only once PostgreSQL is known to answer (requirePostgres).
 */
export async function freshDatabase(cleanup: Array<() => Promise<unknown>>): Promise<string> {
  const db = `agent_memory_test_${randomBytes(6).toString('hex')}`;
  await withClient(PG_ADMIN_URL, (c) => c.query(`CREATE DATABASE ${escapeIdentifier(db)}`));
  cleanup.push(() => withClient(PG_ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(db)} WITH (FORCE)`)));
  return urlFor(db);
}

/** The scratch database's URL, or why there is none. */
export function scratchDatabase(): Promise<Scratch> {
  return (scratch ??= createScratch());
}

/** For a suite's `before` hook: the scratch database URL, or the suite is skipped (a failure under CI=true). */
export async function requirePostgres(ctx: Mocha.Context): Promise<string> {
  const s = await scratchDatabase();
  if ('url' in s) return s.url;
  if (process.env.CI === 'true') throw new Error(`PostgreSQL tests cannot run under CI=true: ${s.reason}`);
  if (!notRunSaid) console.log(`\n    PostgreSQL tests NOT RUN: ${s.reason}\n`);
  notRunSaid = true;
  ctx.skip();
}

/** Runs `fn` on a connection of its own to `url`, closed afterwards. */
export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * Resolves once a statement whose text holds `call` waits on a lock (`event`: only that kind, e.g.
 * 'advisory'); no timing assumption. Asked on a connection of its own: inside a transaction
 * pg_stat_activity is a snapshot taken once.
 */
export async function blockedCall(url: string, call: string, event?: string): Promise<void> {
  await withClient(url, async (watcher) => {
    for (;;) {
      const { rows } = await watcher.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
           AND ($1::text IS NULL OR wait_event = $1) AND strpos(query, $2) > 0 AND pid <> pg_backend_pid()`,
        [event ?? null, call],
      );
      if (rows.length) return;
      await new Promise((r) => setImmediate(r));
    }
  });
}

/** Resolves once `n` lock requests in the database are waiting (the interleaving a test needs). */
export async function waitersAtLeast(admin: Client, n: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted');
    if (rows[0]!.n >= n) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`fewer than ${n} lock waiters after 30 s`);
}

/** A project key of its own for each store a test opens: tests never see each other's memories. */
export function freshProject(): string {
  return `test-${randomBytes(6).toString('hex')}`;
}

export const mochaHooks = {
  async afterAll(this: Mocha.Context) {
    if (!scratch) return;
    const s = await scratch;
    if (!('url' in s)) {
      console.log(`PostgreSQL tests NOT RUN: ${s.reason}`);
      return;
    }
    const client = new Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    try {
      // FORCE: a pool a failed test left open must not keep the scratch database alive.
      await client.query(`DROP DATABASE IF EXISTS ${escapeIdentifier(s.name)} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  },
};

/**
 * Called in a `describe`: the suite needs PostgreSQL (requirePostgres: skipped without it, failed
 * under CI=true), and what a test pushes on the returned list (freshDatabase's drops, stores'
 * closes) runs after that test.
 */
export function postgresSuite(): Array<() => Promise<unknown>> {
  const cleanup: Array<() => Promise<unknown>> = [];
  before(async function () {
    await requirePostgres(this);
  });
  afterEach(async () => {
    for (const c of cleanup.splice(0)) await c();
  });
  return cleanup;
}
