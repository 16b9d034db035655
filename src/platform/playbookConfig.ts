import * as fs from 'node:fs';
import * as path from 'node:path';
import { Ontology } from '../core/playbook/ontology';
import { type Policy, type PolicyNote, readPolicyFile, resolvePolicy } from '../core/playbook/policy';

/** The repository's files next to the store: the team's lifecycle policy and its ontology. */
const POLICY_FILE = 'policy.yaml';
const ONTOLOGY_FILE = 'ontology.yaml';

interface Cached<T> {
  stamp: string;
  value: T;
}

/**
 * Reads `policy.yaml` and `ontology.yaml` from a store folder when they exist, parsed again
 * only when a file changed (size and mtime). A broken file is not an error until something
 * needs it: then the parse error (file, line, reason) is thrown to that caller, so memory
 * tools keep working while fact tools report the file to fix.
 */
export class PlaybookConfig {
  private policyCache: Cached<Policy> | undefined;
  private ontologyCache: Cached<Ontology | null> | undefined;

  constructor(
    readonly dir: string,
    /** The editor's settings as a policy object (VS Code), or nothing (the CLI). */
    private readonly settings: () => unknown = () => undefined,
  ) {}

  private static stamp(file: string): string {
    try {
      const st = fs.statSync(file);
      return `${st.size}:${st.mtimeMs}`;
    } catch {
      return 'none';
    }
  }

  policy(): Policy {
    const file = path.join(this.dir, POLICY_FILE);
    const settings = this.settings();
    const stamp = `${PlaybookConfig.stamp(file)}|${JSON.stringify(settings ?? null)}`;
    if (this.policyCache?.stamp !== stamp) {
      const text = stamp.startsWith('none|') ? undefined : fs.readFileSync(file, 'utf8');
      this.policyCache = { stamp, value: resolvePolicy({ settings, file: text === undefined ? undefined : { text, name: file } }) };
    }
    return this.policyCache.value;
  }

  /** Keys of policy.yaml that are accepted but not used, with why (none without a file). */
  policyNotes(): PolicyNote[] {
    const file = path.join(this.dir, POLICY_FILE);
    if (PlaybookConfig.stamp(file) === 'none') return [];
    return readPolicyFile(fs.readFileSync(file, 'utf8'), file).notes;
  }

  ontology(): Ontology | null {
    const file = path.join(this.dir, ONTOLOGY_FILE);
    const stamp = PlaybookConfig.stamp(file);
    if (this.ontologyCache?.stamp !== stamp) {
      this.ontologyCache = { stamp, value: stamp === 'none' ? null : Ontology.parse(fs.readFileSync(file, 'utf8'), file) };
    }
    return this.ontologyCache.value;
  }
}
