import type * as PlaybookFiles from '../../platform/playbookConfig';
import { bundledWasm, describeStore, openStore, resolveStoreSpec, type StoreSpec } from '../../platform/openStore';
import { defaultStoreDir } from '../../platform/storeLocation';
import { SCHEMA_VERSION } from '../../store/postgres/migrations';
import type { SqlJsStore } from '../../store/sqljs/sqljsStore';
import type { JournalRepair } from '../../store/sqljs/journalRepair';
import { type Finding, inspectWorkspaceStore, note, problem } from '../../store/sqljs/storeDoctor';
import type { CommandGroup, StandaloneContext } from '../command';
import { bool, str } from '../flags';
import { show } from '../format';

/** Exit code when doctor found something wrong (as `check --fail-on-stale`: 3, apart from a refusal or a failure). */
const FOUND_PROBLEMS = 3;

/** policy.yaml and ontology.yaml of the store folder: read as every command reads them. */
async function inspectConfig(dir: string): Promise<Finding[]> {
  // Loaded here, not by every command: it brings the playbook's policy, ontology and YAML.
  const files: typeof PlaybookFiles = await import('../../platform/playbookConfig');
  const config = new files.PlaybookConfig(dir);
  const out: Finding[] = [];
  try {
    config.policy();
    const notes = config.policyNotes();
    out.push(
      note(
        'policy',
        notes.length
          ? `policy.yaml is read; ${notes.length} key(s) not used (agent-memory policy show says why)`
          : 'in force (agent-memory policy show)',
      ),
    );
  } catch (err) {
    out.push(problem('policy', (err as Error).message));
  }
  try {
    const o = config.ontology();
    out.push(
      note(
        'ontology',
        o
          ? `ontology.yaml is read: ${o.types.length} type(s), ${o.relations.length} relation(s)`
          : 'no ontology.yaml: facts are not checked against one',
      ),
    );
  } catch (err) {
    out.push(problem('ontology', (err as Error).message));
  }
  return out;
}

/** A team database: the connection and its schema (opening refuses a newer release's schema, and migrates an older one). */
async function inspectDatabase(spec: Extract<StoreSpec, { kind: 'postgres' }>, repair: boolean): Promise<Finding[]> {
  const out: Finding[] = [];
  try {
    const store = await openStore(spec, { onWarning: (w) => out.push(problem('database', w.message)) });
    try {
      await store.tagCounts();
      out.unshift(note('database', `connected to ${describeStore(spec)}; schema version ${SCHEMA_VERSION}, this release's`));
    } finally {
      await store.close();
    }
  } catch (err) {
    out.push(problem('database', `cannot use ${describeStore(spec)}: ${(err as Error).message}`));
  }
  if (repair) out.push(note('repair', '--repair applies to workspace stores (a folder); a database was not changed'));
  return out;
}

/** What a repair did, one line each. */
function repaired(r: JournalRepair): string[] {
  return [
    ...r.rejected.map((l) => `set aside journal line ${l.line} (byte ${l.byte}, ${l.reason}) in ${r.rejectedFile}`),
    ...(r.tornKeptAt ? [`set aside the incomplete last line in ${r.tornKeptAt}`] : []),
    'saved the snapshot and the search index again, rebuilt from the journal',
  ];
}

function format(findings: Finding[], done: string[]): string {
  const lines = findings.map((f) => `${f.problem ? 'problem' : 'ok     '}  ${f.part}: ${f.message}\n`);
  const problems = findings.filter((f) => f.problem);
  const repairable = problems.some((f) => f.repairable);
  const summary = problems.length
    ? `${problems.length} problem(s)${repairable ? '; agent-memory doctor --repair sets damaged journal lines aside and saves the caches again' : ''}.\n`
    : 'No problems found.\n';
  return (done.length ? `Repaired:\n${done.map((d) => `  ${d}\n`).join('')}` : '') + lines.join('') + summary;
}

/** `agent-memory doctor`: checks the store the global flags name; opens it itself, only to repair. */
export const DOCTOR_COMMANDS: CommandGroup = {
  doctor: {
    usage: 'doctor [--repair]',
    summary:
      'check the store: journal lines, snapshot and search index against the journal, policy.yaml, ontology.yaml; exit 3 when something is wrong',
    details:
      '--repair (workspace stores): under the write lock, moves each damaged journal line to journal.rejected.jsonl beside the journal (with its line number, byte offset, reason and text), ' +
      'sets an incomplete last line aside, keeps every other line as it is, and saves the snapshot and search index again from the journal, so commands stop warning. ' +
      'A line written by a newer release is kept. For a PostgreSQL store doctor checks the connection and the schema version.',
    options: { repair: { type: 'boolean' } },
    positionals: 'none',
    opensStores: true,
    run: async (ctx: StandaloneContext) => {
      const spec = resolveStoreSpec({ store: str(ctx.flags, 'store'), project: str(ctx.flags, 'project') }, ctx.env, ctx.cwd);
      const repair = bool(ctx.flags, 'repair');
      const configDir = spec.kind === 'dir' ? spec.dir : defaultStoreDir(ctx.cwd);
      let findings: Finding[];
      const done: string[] = [];
      if (spec.kind === 'postgres') findings = await inspectDatabase(spec, repair);
      else {
        findings = await inspectWorkspaceStore(spec.dir, bundledWasm());
        if (repair && findings.some((f) => f.problem && f.repairable)) {
          // What opening and repairing notice (the damage being repaired) is not news: the findings say it.
          const store = (await openStore(spec, { onWarning: () => undefined })) as SqlJsStore;
          try {
            done.push(...repaired(await store.repair()));
          } finally {
            await store.close();
          }
          findings = await inspectWorkspaceStore(spec.dir, bundledWasm());
        }
      }
      findings.push(...(await inspectConfig(configDir)));
      show(ctx, { store: describeStore(spec), findings, ...(repair ? { repaired: done } : {}) }, format(findings, done));
      return findings.some((f) => f.problem) ? FOUND_PROBLEMS : undefined;
    },
  },
};
