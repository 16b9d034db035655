import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client } from 'pg';
import { MemoryService } from '../../src/core/memoryService';
import { MemoryUpkeep } from '../../src/core/memoryUpkeep';
import type { LocalIndexMode } from '../../src/store/postgres/localIndex';
import { PgStore } from '../../src/store/postgres/pgStore';
import { SqlJsStore, type SqlJsStoreOptions } from '../../src/store/sqljs/sqljsStore';
import type { Store, StoredVersion } from '../../src/core/ports/store';
import type { RecordKind } from '../../src/core/ports/records';
import { freshProject, requirePostgres, scratchDatabase } from './postgres';
import { tmpDir } from './tmp';
// The benchmarks' seeded PRNG (mulberry32): synthetic corpora are the same on every run.
import { prng } from '../../bench/generate';

/** A memory input with sensible defaults. */
export function memory(over: Partial<{ description: string; tags: string[]; content: string }> = {}) {
  return { description: 'Fixed the flaky build cache', tags: ['build', 'cache'], content: 'Cleared the cache key.', ...over };
}

/** The Store implementations the contract suite runs against. */
export type Backend = 'sqljs' | 'postgres';
/**
 * The backends the contract suites run on: both, unless AGENT_MEMORY_TEST_BACKENDS names some
 * (`npm run test:unit` runs on sqljs only, so it needs no PostgreSQL server).
 */
export const BACKENDS: readonly Backend[] = (process.env.AGENT_MEMORY_TEST_BACKENDS ?? 'sqljs,postgres')
  .split(',')
  .map((b) => b.trim())
  .filter((b): b is Backend => b === 'sqljs' || b === 'postgres');

/**
 * For a contract suite's `before` hook: PostgreSQL suites need the scratch database (they are
 * skipped, saying so, when it cannot be reached; under CI=true that fails).
 */
export async function prepareBackend(backend: Backend, ctx: Mocha.Context): Promise<void> {
  if (backend === 'postgres') await requirePostgres(ctx);
}

interface Common {
  author?: string;
  now?: () => Date;
}

/** A store and a service over it, with what backend-neutral tests need to look underneath. */
export interface Opened<S extends Store = Store> {
  backend: Backend;
  store: S;
  service: MemoryService;
  /** People's upkeep over the same store, author and clock (duplicates, merge, purge, export and import). */
  upkeep: MemoryUpkeep;
  /** How much the store has written (journal lines, or version rows): "nothing was written" checks. */
  footprint(): Promise<number>;
  /** Writes the backend's caches where it keeps any (the sql.js snapshot), so leftovers can be looked for there too. */
  persist(): Promise<void>;
  /** Where the backend still holds `text` (file names or table names); empty when nowhere. */
  leftovers(text: string): Promise<string[]>;
  /** Who the tombstone of a purged memory (or record of `kind`) names; undefined when there is none, null when it names nobody. */
  purgedBy(id: string, kind?: RecordKind): Promise<string | null | undefined>;
}

async function openSqlJs(options: Partial<SqlJsStoreOptions> & Common): Promise<Opened<SqlJsStore> & { dir: string }> {
  const dir = options.dir ?? tmpDir();
  const store = await SqlJsStore.open({ ...options, dir });
  const writer = { author: options.author ?? 'tester@example.com', now: options.now };
  const service = new MemoryService(store, writer);
  const upkeep = new MemoryUpkeep(store, writer, service);
  const file = (name: string) => path.join(dir, name);
  return {
    backend: 'sqljs',
    dir,
    store,
    service,
    upkeep,
    footprint: async () =>
      fs.existsSync(file('journal.jsonl')) ? fs.readFileSync(file('journal.jsonl'), 'utf8').split('\n').filter(Boolean).length : 0,
    persist: async () => store.checkpoint(),
    purgedBy: async (id, kind) => {
      const lines = fs.existsSync(file('journal.jsonl')) ? fs.readFileSync(file('journal.jsonl'), 'utf8').split('\n').filter(Boolean) : [];
      const entries = lines.map((l) => JSON.parse(l) as { type: string; id?: string; kind?: string; ids?: string[]; author?: string });
      const hit = entries.find((e) =>
        kind === undefined
          ? e.type === 'memory.purge' && e.id === id
          : e.type === 'records.purge' && e.kind === kind && e.ids?.includes(id),
      );
      return hit && (hit.author ?? null);
    },
    leftovers: async (text) =>
      ['journal.jsonl', 'snapshot.sqlite', 'search-index.bin'].filter(
        (f) => fs.existsSync(file(f)) && fs.readFileSync(file(f)).includes(text),
      ),
  };
}

/** What a PostgreSQL test may choose: the project (to share one), the server, where searches are ranked. */
export interface PgOptions {
  project?: string;
  url?: string;
  localIndex?: LocalIndexMode;
  maxLocalIndex?: number;
}

/** A PostgreSQL store on the run's scratch database, under a project key of its own. */
export async function openPg(options: Common & PgOptions = {}): Promise<Opened<PgStore> & { url: string; project: string }> {
  const s = await scratchDatabase();
  if (!('url' in s)) throw new Error(`PostgreSQL is not available: ${s.reason}`);
  const url = options.url ?? s.url;
  const project = options.project ?? freshProject();
  const store = await PgStore.open({
    connectionString: url,
    project,
    pool: { max: 4 },
    localIndex: options.localIndex,
    maxLocalIndex: options.maxLocalIndex,
  });
  const writer = { author: options.author ?? 'tester@example.com', now: options.now };
  const service = new MemoryService(store, writer);
  const upkeep = new MemoryUpkeep(store, writer, service);
  const sql = async <R extends object>(text: string, values: unknown[]) => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    backend: 'postgres',
    url,
    project,
    store,
    service,
    upkeep,
    footprint: () => store.countVersions(),
    persist: async () => undefined,
    purgedBy: async (id, kind) => {
      const rows =
        kind === undefined
          ? await sql<{ by: string | null }>('SELECT purged_by AS by FROM memory_purged WHERE project = $1 AND id = $2', [project, id])
          : await sql<{ by: string | null }>('SELECT purged_by AS by FROM record_purged WHERE project = $1 AND kind = $2 AND id = $3', [
              project,
              kind,
              id,
            ]);
      return rows[0] && rows[0].by;
    },
    leftovers: async (text) => {
      const rows = await sql<{ t: string }>(
        `SELECT 'memory_versions' AS t FROM memory_versions WHERE project = $1 AND (strpos(content, $2) > 0 OR strpos(description, $2) > 0)
         UNION SELECT 'memory_heads' FROM memory_heads WHERE project = $1 AND strpos(description, $2) > 0`,
        [project, text],
      );
      return rows.map((r) => r.t);
    },
  };
}

/** A real store of the given backend (default: sql.js in a fresh folder) and a service over it. */
export async function openService(options?: Partial<SqlJsStoreOptions> & Common): Promise<Opened<SqlJsStore> & { dir: string }>;
export async function openService(options: Common & PgOptions & { backend: Backend }): Promise<Opened>;
export async function openService(options: Partial<SqlJsStoreOptions> & Common & PgOptions & { backend?: Backend } = {}): Promise<Opened> {
  return options.backend === 'postgres' ? openPg(options) : openSqlJs(options);
}

/** Shared words, inflections, compounds and tags that prefix or inflect each other, so broad queries meet many match kinds. */
const WORDS = [
  'cache',
  'caching',
  'cached',
  'build',
  'builds',
  'error',
  'errors',
  'timeout',
  'retry',
  'keep-alive',
  'keepalive',
  'keep',
  'alive',
  'getByRole',
  'role',
  'docker',
  'compose',
  'typescript',
  'type',
  'config',
  'index',
  'indexes',
  'fail',
  'failing',
  'flaky',
  'test',
  'testing',
  'network',
  'socket',
  'the',
  'with',
  'after',
  'node_modules',
  'webpack',
  'slow',
  'deploy',
  'rollback',
  'migration',
  'schema',
  'lock',
];
const TAGS = [
  'cache',
  'caching',
  'build',
  'build-system',
  'typescript',
  'typescript-config',
  'type',
  'docker',
  'docker-compose',
  'test',
  'testing',
  'tests',
  'network',
  'keep-alive',
  'error',
  'index',
  'ci',
  'c#',
  'deploy',
  'schema-migration',
  'lock',
];

/** A UUID-shaped id from `rnd`. */
function syntheticId(rnd: () => number): string {
  const h = Array.from({ length: 32 }, () => Math.floor(rnd() * 16).toString(16)).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20)}`;
}

/**
 * `count` current memories over a small shared vocabulary, as version rows of one project;
 * every `deleteEvery`-th is deleted by a second version. Their times take only `count / 8`
 * distinct values, so equal signatures tie on changedAt and the id must break the tie.
 */
export function syntheticRows(count: number, seed = 7, deleteEvery = 9): StoredVersion[] {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const base = Date.UTC(2025, 0, 1);
  const rows: StoredVersion[] = [];
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 2 + Math.floor(rnd() * 6) }, () => pick(WORDS));
    const tags = [...new Set(Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(TAGS)))];
    const more = Array.from({ length: Math.floor(rnd() * 8) }, () => pick(WORDS));
    const changedAt = new Date(base + Math.floor(rnd() * Math.max(1, count / 8)) * 60_000).toISOString();
    const create: StoredVersion = {
      rowId: syntheticId(rnd),
      id: syntheticId(rnd),
      version: 1,
      op: 'create',
      description: `Note ${words.join(' ')}`,
      tags,
      content: `Synthetic ${more.join(' ')}`,
      changedAt,
      deletedAt: null,
      author: 'synthetic',
      restoredFrom: null,
    };
    rows.push(create);
    if (i % deleteEvery === deleteEvery - 1) {
      const at = new Date(Date.parse(changedAt) + 1000).toISOString();
      rows.push({ ...create, rowId: syntheticId(rnd), version: 2, op: 'delete', changedAt: at, deletedAt: at });
    }
  }
  return rows;
}

/** The live memories of `syntheticRows`' output: each id's newest row, unless it deletes. */
export function liveMemories(
  rows: StoredVersion[],
): Array<{ id: string; description: string; tags: string[]; changedAt: string; content: string }> {
  const newest = new Map<string, StoredVersion>();
  for (const r of rows) if ((newest.get(r.id)?.version ?? 0) < r.version) newest.set(r.id, r);
  return [...newest.values()]
    .filter((r) => !r.deletedAt)
    .map((r) => ({ id: r.id, description: r.description, tags: r.tags, changedAt: r.changedAt, content: r.content }));
}

/** Version 1 of a memory as importVersions takes it (content "x"), changed at `changedAt` (now by default). */
export function createdRow(id: string, description: string, tags: string[], changedAt = new Date().toISOString()): StoredVersion {
  return {
    rowId: randomUUID(),
    id,
    version: 1,
    op: 'create',
    description,
    tags,
    content: 'x',
    changedAt,
    deletedAt: null,
    author: 'test',
    restoredFrom: null,
  };
}

/** Queries over `syntheticRows`' vocabulary: broad words, several keywords, compounds, inflections, tag prefixes, stop words, pasted text. */
export const SYNTHETIC_QUERIES: string[][] = [
  ['cache'],
  ['caching'],
  ['error'],
  ['build'],
  ['type'],
  ['test'],
  ['keep-alive'],
  ['keepAlive'],
  ['getByRole'],
  ['docker compose'],
  ['cache', 'build'],
  ['error', 'timeout', 'retry'],
  ['the'],
  ['the', 'cache'],
  ['c#'],
  ['typescript config'],
  ['schema migration lock'],
  ['flaky test failing after deploy with timeout errors'],
  ['node_modules', 'webpack', 'slow'],
  ['indexes'],
  ['unknownword'],
  ['cache', 'unknownword'],
];

/** The keywords of every query of an evaluation corpus (test/data/<set>/queries.jsonl), in file order. */
export function corpusQueries(set: string): Array<{ id: string; keywords: string[] }> {
  return fs
    .readFileSync(path.join(__dirname, '..', 'data', set, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; keywords: string[] });
}

/** An evaluation corpus (test/data/<set>) as version rows with fixed ids and times, so both stores hold the same data. */
export function corpusRows(set: string): StoredVersion[] {
  const file = path.join(__dirname, '..', 'data', set, 'memories.jsonl');
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line, i) => {
      const m = JSON.parse(line) as { description: string; tags: string[]; content: string };
      const n = String(i).padStart(12, '0');
      return {
        rowId: randomUUID(),
        id: `00000000-0000-4000-8000-${n}`,
        version: 1,
        op: 'create',
        description: m.description,
        tags: m.tags,
        content: m.content,
        changedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
        deletedAt: null,
        author: 'eval',
        restoredFrom: null,
      };
    });
}
