import * as vscode from 'vscode';
import { SCHEME } from '../memories/memoryUris';
import { readableName } from '../shared/readableName';

/** What a skill path on the extension's scheme names. */
export type SkillPath =
  /** The live version: editable, saving writes the next version. */
  | { kind: 'current'; name: string }
  /** One version: read-only. */
  | { kind: 'version'; name: string; version: number }
  /** A skill being written by hand: the first save creates it. */
  | { kind: 'draft'; draft: string };

// Skill names are lower-case words joined by "-" (no dots), so ".v3.yaml" cannot be part of one.
const NAME = '[a-z0-9]+(?:-[a-z0-9]+)*';
const CURRENT = new RegExp(`^/skills/(${NAME})\\.yaml$`);
const VERSION = new RegExp(`^/skills/(${NAME})\\.v([1-9][0-9]{0,8})\\.yaml$`);
const DRAFT = /^\/new-skill\/([A-Za-z0-9-]{1,64})(?:\/[^/.]+)?\.yaml$/;

/** `agent-memory:/skills/<name>.yaml`, or `…/<name>.v<N>.yaml` for version N. */
export function skillUri(name: string, version?: number): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: version === undefined ? `/skills/${name}.yaml` : `/skills/${name}.v${version}.yaml` });
}

/** `agent-memory:/new-skill/<draft>/new-skill.yaml`: a new skill written in the editor (the draft key tells drafts apart). */
export function skillDraftUri(draft: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: `/new-skill/${draft}/${readableName(vscode.l10n.t('New skill'), 'new-skill')}.yaml` });
}

/** True for every path the skill documents own (also the folders). */
export function isSkillPath(uri: vscode.Uri): boolean {
  return uri.scheme === SCHEME && /^\/(skills|new-skill)(\/|$)/.test(uri.path);
}

/** Reads a skill URI; undefined for anything else. */
export function parseSkillUri(uri: vscode.Uri): SkillPath | undefined {
  if (uri.scheme !== SCHEME) return undefined;
  let m = CURRENT.exec(uri.path);
  if (m) return { kind: 'current', name: m[1]! };
  m = VERSION.exec(uri.path);
  if (m) return { kind: 'version', name: m[1]!, version: Number(m[2]) };
  m = DRAFT.exec(uri.path);
  if (m) return { kind: 'draft', draft: m[1]! };
  return undefined;
}
