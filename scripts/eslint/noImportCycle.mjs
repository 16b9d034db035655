// local/no-import-cycle: no import cycles within src/, type-only imports included. The cycle
// rule of eslint-plugin-import(-x) always skips `import type`, with no option to count it, and a
// type-only cycle still ties two modules together for a reader and for a refactoring.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const SRC = path.join(ROOT, 'src');

// The graph of src/: every `import`/`export ... from`, `import type` included, `import()` and
// `import('...')` types, resolved like tsc does (tsconfig.json's options). Rebuilt when a file
// changes (checked at most once a second, so an editor session stays current). Since a file's
// result depends on other files, do not run ESLint with --cache.
const graph = { files: new Map(), checkedAt: 0, options: undefined, cache: undefined };

function tsOptions() {
  if (!graph.options) {
    const file = path.join(ROOT, 'tsconfig.json');
    const { config } = ts.readConfigFile(file, ts.sys.readFile);
    graph.options = ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options;
    graph.cache = ts.createModuleResolutionCache(ROOT, (f) => f, graph.options);
  }
  return graph.options;
}

function resolveImport(specifier, fromFile) {
  const r = ts.resolveModuleName(specifier, fromFile, tsOptions(), ts.sys, graph.cache).resolvedModule;
  if (!r || r.isExternalLibraryImport || r.resolvedFileName.endsWith('.d.ts')) return undefined;
  const target = path.normalize(r.resolvedFileName);
  return target.startsWith(SRC + path.sep) ? target : undefined;
}

// file → Map(target → 'value' | 'type'): 'value' when any import of target from file survives
// compilation (not `import type`, not all-`type` specifiers, not an `import('...')` type).
function importsOf(file, text) {
  const edges = new Map();
  const add = (spec, kind) => {
    const target = resolveImport(spec, file);
    if (!target || target === file) return;
    if (edges.get(target) !== 'value') edges.set(target, kind);
  };
  const typeOnlyImport = (n) =>
    n.importClause?.isTypeOnly ||
    (n.importClause &&
      !n.importClause.name &&
      n.importClause.namedBindings?.elements?.length > 0 &&
      n.importClause.namedBindings.elements.every((e) => e.isTypeOnly));
  const visit = (n) => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier))
      add(n.moduleSpecifier.text, typeOnlyImport(n) ? 'type' : 'value');
    else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier))
      add(n.moduleSpecifier.text, n.isTypeOnly || n.exportClause?.elements?.every((e) => e.isTypeOnly) ? 'type' : 'value');
    else if (
      ts.isImportEqualsDeclaration(n) &&
      ts.isExternalModuleReference(n.moduleReference) &&
      ts.isStringLiteral(n.moduleReference.expression)
    )
      add(n.moduleReference.expression.text, n.isTypeOnly ? 'type' : 'value');
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal))
      add(n.argument.literal.text, 'type');
    else if (
      ts.isCallExpression(n) &&
      n.expression.kind === ts.SyntaxKind.ImportKeyword &&
      n.arguments[0] &&
      ts.isStringLiteral(n.arguments[0])
    )
      add(n.arguments[0].text, 'value');
    ts.forEachChild(n, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return edges;
}

function srcFiles(dir = SRC, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) srcFiles(p, out);
    else if (/\.(ts|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function refreshGraph() {
  if (Date.now() - graph.checkedAt < 1000) return;
  const seen = new Set();
  for (const file of srcFiles()) {
    seen.add(file);
    const { mtimeMs, size } = fs.statSync(file);
    const known = graph.files.get(file);
    if (known && known.mtimeMs === mtimeMs && known.size === size) continue;
    graph.files.set(file, { mtimeMs, size, edges: importsOf(file, fs.readFileSync(file, 'utf8')) });
  }
  for (const file of graph.files.keys()) if (!seen.has(file)) graph.files.delete(file);
  graph.checkedAt = Date.now();
}

// Shortest path from `from` back to `to` (the linted file), over value edges only when asked.
function pathBack(from, to, edgesOf, valueOnly) {
  const previous = new Map([[from, undefined]]);
  const queue = [from];
  while (queue.length) {
    const node = queue.shift();
    for (const [next, kind] of edgesOf(node)) {
      if (valueOnly && kind !== 'value') continue;
      if (next === to) {
        const route = [to];
        for (let n = node; n !== undefined; n = previous.get(n)) route.unshift(n);
        return route;
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return undefined;
}

export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles within src/, type-only imports included' },
    schema: [],
    messages: { cycle: 'Import cycle ({{kind}}): {{route}}' },
  },
  create(context) {
    const file = path.normalize(context.physicalFilename);
    if (!file.startsWith(SRC + path.sep)) return {};
    refreshGraph();
    // The linted text, which an editor may not have saved yet, stands for this file.
    const own = importsOf(file, context.sourceCode.text);
    const edgesOf = (f) => (f === file ? own : (graph.files.get(f)?.edges ?? new Map()));
    const rel = (f) => path.relative(ROOT, f).split(path.sep).join('/');
    const check = (node, source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const target = resolveImport(source.value, file);
      const kind = target && own.get(target);
      if (!kind) return;
      const runtime = kind === 'value' ? pathBack(target, file, edgesOf, true) : undefined;
      const route = runtime ?? pathBack(target, file, edgesOf, false);
      if (!route) return;
      context.report({
        node,
        messageId: 'cycle',
        data: { kind: runtime ? 'runtime' : 'through type imports', route: [file, ...route].map(rel).join(' → ') },
      });
    };
    return {
      ImportDeclaration: (n) => check(n, n.source),
      ExportNamedDeclaration: (n) => check(n, n.source),
      ExportAllDeclaration: (n) => check(n, n.source),
      ImportExpression: (n) => check(n, n.source),
      TSImportType: (n) => check(n, n.argument?.literal),
      TSExternalModuleReference: (n) => check(n, n.expression),
    };
  },
};
