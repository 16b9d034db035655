// A git repository whose code memories cite, and the changes that make each citation fresh or
// stale: the one script the citation tests of the core, the CLI, MCP and VS Code all run, so
// the four clients are held to the same expectations (precision and recall over this script).
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const CLIENT = [
  "import { request } from './transport';",
  '',
  'export function retry(call: () => Promise<Response>) {',
  '  const limit = 3;',
  '  return withRetries(call, limit);',
  '}',
  '',
  'export function timeout(ms: number) {',
  '  return new AbortController().signal;',
  '}',
  '',
  'export function parse(body: string) {',
  '  return JSON.parse(body);',
  '}',
  '',
  'export const USER_AGENT = "client/1.0";',
];

const CONFIG = [
  'export const config = {',
  '  port: 8080,',
  '  host: "localhost",',
  '};',
  '',
  'export const legacyFlag = true;',
  'export const legacyMode = "v1";',
  '',
];

const FILES: Record<string, string> = {
  'src/http/client.ts': CLIENT.join('\n') + '\n',
  'src/config.ts': CONFIG.join('\n'),
  'src/old.ts': 'export const oldName = 1;\nexport const alsoOld = 2;\n',
  'src/gone.ts': 'export function goneSoon() {\n  return 42;\n}\n',
  'docs/notes.md': '# Notes\n\nThe release process is documented here.\n',
  'src/crlf.ts': 'export const a = 1;\r\nexport const b = 2;\r\n',
};

const lineOf = (lines: string[], text: string) => lines.findIndex((l) => l.includes(text)) + 1;

export type Expected = 'fresh' | 'moved' | 'changed' | 'removed' | 'deleted' | 'renamed';

export interface CitedMemory {
  key: string;
  description: string;
  tags: string[];
  content: string;
  citations: Array<{ path: string; startLine?: number; endLine?: number }>;
  /** The status of the (first) citation after `changeScenario`. */
  expected: Expected;
}

/** The memories of the script, each citing code; `expected` is what the change leaves of its citation. */
export const CITED: CitedMemory[] = [
  {
    key: 'uncited-part-changed',
    description: 'Retries: the limit is set in retry()',
    tags: ['http', 'retry'],
    content: 'The retry limit is 3, set in retry().',
    citations: [{ path: 'src/http/client.ts', startLine: lineOf(CLIENT, 'function retry'), endLine: lineOf(CLIENT, 'function retry') + 3 }],
    expected: 'moved', // lines were inserted above it
  },
  {
    key: 'whitespace-only',
    description: 'Timeouts use an AbortController signal',
    tags: ['http', 'timeout'],
    content: 'timeout() returns an AbortSignal.',
    citations: [
      { path: 'src/http/client.ts', startLine: lineOf(CLIENT, 'function timeout'), endLine: lineOf(CLIENT, 'function timeout') + 2 },
    ],
    expected: 'moved', // re-wrapped over more lines, and lines were inserted above it
  },
  {
    key: 'moved-within-file',
    description: 'Response bodies are parsed as JSON in parse()',
    tags: ['http', 'json'],
    content: 'parse() calls JSON.parse.',
    citations: [{ path: 'src/http/client.ts', startLine: lineOf(CLIENT, 'function parse'), endLine: lineOf(CLIENT, 'function parse') + 2 }],
    expected: 'moved',
  },
  {
    key: 'changed',
    description: 'The server listens on port 8080',
    tags: ['config', 'port'],
    content: 'Port 8080, host localhost.',
    citations: [{ path: 'src/config.ts', startLine: 2, endLine: 3 }],
    expected: 'changed',
  },
  {
    key: 'removed',
    description: 'Legacy mode is switched on by legacyFlag',
    tags: ['config', 'legacy'],
    content: 'legacyFlag and legacyMode select the v1 behaviour.',
    citations: [{ path: 'src/config.ts', startLine: 6, endLine: 7 }],
    expected: 'removed',
  },
  {
    key: 'unchanged-line-of-changed-file',
    description: 'The config object is exported from src/config.ts',
    tags: ['config'],
    content: 'Import config from src/config.ts.',
    citations: [{ path: 'src/config.ts', startLine: 1 }],
    expected: 'fresh',
  },
  {
    key: 'renamed',
    description: 'oldName lives in src/old.ts',
    tags: ['naming'],
    content: 'oldName is 1.',
    citations: [{ path: 'src/old.ts' }],
    expected: 'renamed',
  },
  {
    key: 'deleted',
    description: 'goneSoon returns 42',
    tags: ['answers'],
    content: 'goneSoon() returns 42.',
    citations: [{ path: 'src/gone.ts', startLine: 1, endLine: 3 }],
    expected: 'deleted',
  },
  {
    key: 'whole-file-unchanged',
    description: 'The release process is documented in docs/notes.md',
    tags: ['release', 'docs'],
    content: 'See docs/notes.md.',
    citations: [{ path: 'docs/notes.md' }],
    expected: 'fresh',
  },
  {
    key: 'whole-file-reformatted',
    description: 'Constants a and b are in src/crlf.ts',
    tags: ['constants'],
    content: 'a is 1 and b is 2.',
    citations: [{ path: 'src/crlf.ts' }],
    expected: 'fresh',
  },
];

export const STALE_STATUSES: ReadonlySet<string> = new Set(['changed', 'removed', 'deleted', 'renamed']);

function git(root: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=cite@example.com', '-c', 'user.name=cite', ...args], { cwd: root, encoding: 'utf8' });
}

function write(root: string, file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

/** Writes the cited files into `root` (a git repository is made when there is none) and commits them. */
export function writeCitedFiles(root: string): void {
  if (!fs.existsSync(path.join(root, '.git'))) git(root, 'init', '-q');
  for (const [file, text] of Object.entries(FILES)) write(root, file, text);
  git(root, 'add', ...Object.keys(FILES));
  git(root, 'commit', '-q', '-m', 'code the memories cite');
}

/** The changes of the script, committed: edits, a whitespace-only change, a move within a file, a rename and a deletion. */
export function changeCitedFiles(root: string): void {
  // Edited outside retry(): USER_AGENT changes. timeout() is re-indented and re-wrapped. parse() moves to the top.
  const client = CLIENT.map((l) => l.replace('client/1.0', 'client/2.0'));
  const t = lineOf(client, 'function timeout') - 1;
  client.splice(t, 3, 'export function timeout(', '    ms: number', ') {', '      return new AbortController()', '        .signal;', '}');
  const p = lineOf(client, 'function parse') - 1;
  const parse = client.splice(p, 4);
  client.splice(1, 0, '', ...parse.slice(0, 3));
  write(root, 'src/http/client.ts', client.join('\n') + '\n');
  // The port changes; the legacy lines go; the first line stays.
  write(root, 'src/config.ts', CONFIG.slice(0, 5).join('\n').replace('8080', '9090') + '\n');
  // CRLF to LF and re-indented: whitespace only.
  write(root, 'src/crlf.ts', 'export const a = 1;\n   export const b = 2;\n');
  git(root, 'mv', 'src/old.ts', 'src/new.ts');
  git(root, 'rm', '-q', 'src/gone.ts');
  git(root, 'commit', '-q', '-a', '-m', 'refactor the code the memories cite');
}

/** Precision and recall of "stale" over the script, from the statuses a client reported per memory key. */
export function staleScores(reported: ReadonlyMap<string, boolean>): { precision: number; recall: number; wrong: string[] } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const wrong: string[] = [];
  for (const m of CITED) {
    const expected = STALE_STATUSES.has(m.expected);
    const got = reported.get(m.key);
    if (got === undefined) throw new Error(`no status reported for ${m.key}`);
    if (got && expected) tp++;
    else if (got && !expected) fp++;
    else if (!got && expected) fn++;
    if (got !== expected) wrong.push(`${m.key}: expected ${expected ? 'stale' : 'fresh'}`);
  }
  return { precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: tp + fn === 0 ? 1 : tp / (tp + fn), wrong };
}
