import * as vscode from 'vscode';

/** The scheme of every memory document the extension opens. */
export const SCHEME = 'agent-memory';

/** What a path on the scheme names. */
export type MemoryPath =
  /** The current version: editable, saving writes a new version. */
  | { kind: 'current'; id: string }
  /** One older (or any) version: read-only. */
  | { kind: 'version'; id: string; version: number }
  /** A memory being written by hand: the first save creates it. */
  | { kind: 'draft'; name: string };

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const CURRENT = new RegExp(`^/memories/(${UUID})\\.md$`);
const VERSION = new RegExp(`^/memories/(${UUID})\\.v([1-9][0-9]{0,8})\\.md$`);
const DRAFT = /^\/new\/([A-Za-z0-9-]{1,64})\.md$/;

/** `agent-memory:/memories/<id>.md`, or `…/<id>.v<N>.md` for version N. */
export function memoryUri(id: string, version?: number): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: version === undefined ? `/memories/${id}.md` : `/memories/${id}.v${version}.md` });
}

/** `agent-memory:/new/<name>.md`: a new memory written in the editor. */
export function draftUri(name: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: `/new/${name}.md` });
}

/** Reads a memory URI; undefined for anything else. */
export function parseMemoryUri(uri: vscode.Uri): MemoryPath | undefined {
  if (uri.scheme !== SCHEME) return undefined;
  const path = uri.path.toLowerCase();
  let m = CURRENT.exec(path);
  if (m) return { kind: 'current', id: m[1]! };
  m = VERSION.exec(path);
  if (m) return { kind: 'version', id: m[1]!, version: Number(m[2]) };
  m = DRAFT.exec(uri.path);
  if (m) return { kind: 'draft', name: m[1]! };
  return undefined;
}
