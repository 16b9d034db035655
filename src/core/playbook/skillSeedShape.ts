/**
 * The playbook seed's skill shape, read as the product's: the seed document (issue 15, its
 * `diagnose_frontend_build` example) writes `success` and `failure` lists, steps as plain
 * strings and snake_case names. Each is mapped onto SkillData and said in a note, so nothing is
 * taken in silently; a document that mixes both spellings of one key is refused by the schema.
 */

/** The seed's key and the product's key it is read as. */
const RENAMED = { success: 'success_checks', failure: 'failure_handling' } as const;

export interface SeedShapeReading {
  /** The document with the seed's spellings replaced by the product's (the input itself when none). */
  value: unknown;
  /** One sentence per mapping applied, for the person who saved the document. */
  notes: string[];
  /** The product's key → the key the document used, to point a refusal at the document's line. */
  renamed: Map<string, string>;
  /** Indexes of the steps written as plain text (read as steps without `expect`). */
  plainSteps: Set<number>;
}

/** Maps the seed's spellings onto the product's; leaves anything else for the schema to judge. */
export function fromSeedShape(raw: unknown): SeedShapeReading {
  const renamed = new Map<string, string>();
  const plainSteps = new Set<number>();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { value: raw, notes: [], renamed, plainSteps };
  const doc = { ...(raw as Record<string, unknown>) };
  const notes: string[] = [];
  for (const [seedKey, key] of Object.entries(RENAMED)) {
    // Both spellings: left as they are, so the schema names the seed's key as unknown.
    if (!(seedKey in doc) || key in doc) continue;
    doc[key] = doc[seedKey];
    delete doc[seedKey];
    renamed.set(key, seedKey);
    notes.push(`${seedKey} is read as ${key}`);
  }
  if (typeof doc.name === 'string' && /^[a-z0-9]+(?:[_-][a-z0-9]+)*$/.test(doc.name.trim()) && doc.name.includes('_')) {
    const name = doc.name.trim().replace(/_/g, '-');
    notes.push(`name ${doc.name.trim()} is saved as ${name} (skill names join words with "-"; both spellings find it)`);
    doc.name = name;
  }
  if (Array.isArray(doc.steps)) {
    doc.steps.forEach((s: unknown, i) => {
      if (typeof s === 'string') plainSteps.add(i);
    });
    const plain = plainSteps.size;
    if (plain) {
      doc.steps = doc.steps.map((s: unknown) => (typeof s === 'string' ? { do: s } : s));
      notes.push(`${plain} step(s) written as plain text are steps without "expect": the skill's success checks say when the task worked`);
    }
  }
  return { value: doc, notes, renamed, plainSteps };
}
