import type { RecordStore } from '../ports/records';
import { ValidationError } from '../errors';
import { tagSimilarity } from '../tags';
import { asSkill, normalizeKey } from './kinds';
import { readAll } from './recordRows';

/** Most skill names read to suggest the closest ones: a team's playbook, not a corpus. */
const NAMES_SCANNED = 5000;
/** How many known skills a refusal names. */
const NAMED = 5;

/**
 * Refuses an episode's skill reference unless that skill has that version (live, or since
 * deleted: an episode may be recorded after the fact). An unknown name is refused with the
 * closest known names, an unknown version with the versions there are: an episode citing a
 * version that never existed would count towards no version's success rate.
 */
export async function assertSkillVersion(records: RecordStore, ref: { name: string; version: number }): Promise<void> {
  const key = normalizeKey(ref.name);
  const cur =
    (await records.query({ kind: 'skill', keys: [key], limit: 1 }))[0] ??
    (await records.query({ kind: 'skill', keys: [key], deleted: true, limit: 1 }))[0];
  if (!cur) {
    const names = (await readAll(records, { kind: 'skill' }, NAMES_SCANNED)).map((r) => asSkill(r).name).sort();
    const close = names
      .map((name) => ({ name, score: tagSimilarity(key, name) }))
      .filter((n) => n.score > 0)
      .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
      .map((n) => n.name);
    const named = (close.length ? close : names).slice(0, NAMED);
    const known =
      names.length === 0 ? 'there are no skills yet' : `${close.length ? 'closest known skills' : 'known skills'}: ${named.join(', ')}`;
    throw new ValidationError(
      'skill.name',
      `there is no skill "${ref.name}" (${known}); name a skill the task followed (findSkills lists them), or leave skill out`,
    );
  }
  const versions = (await records.history('skill', cur.id)).filter((r) => r.op !== 'delete').map((r) => r.version);
  if (!versions.includes(ref.version)) {
    const name = asSkill(cur).name;
    const state = cur.deletedAt ? `it was deleted at version ${cur.version}` : `its current version is ${cur.version}`;
    throw new ValidationError(
      'skill.version',
      `skill "${name}" has no version ${ref.version} (${state}; versions: ${versions.join(', ')}); give the version the task followed`,
    );
  }
}
