import * as vscode from 'vscode';
import { readableName } from '../shared/readableName';

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
// The readable name (readableName: letters, digits and "-", never "." or "/") is optional:
// older URIs have none, and every URI of an id names the same memory whatever its name says.
const NAME = '(?:/[^/.]+)?';
const CURRENT = new RegExp(`^/memories/(${UUID})${NAME}\\.md$`);
const VERSION = new RegExp(`^/memories/(${UUID})${NAME}\\.v([1-9][0-9]{0,8})\\.md$`);
const DRAFT = /^\/new\/([A-Za-z0-9-]{1,64})(?:\/[^/.]+)?\.md$/;

/**
 * The document of a memory: `agent-memory:/memories/<id>/<name>.md`, or `…/<name>.v<N>.md` for
 * version N, where the name is read from the description, so the tab says what the memory is
 * about. The id decides what is shown; the name only labels the tab. A document of the same
 * memory (and version) that is already open keeps its URI, so a memory opens once even after
 * its description changed. Without a description, `/memories/<id>.md` (the older form).
 */
export function memoryUri(id: string, version?: number, description?: string): vscode.Uri {
  const open = openMemoryDocument(id, version);
  if (open) return open;
  const base = description === undefined ? `/memories/${id}` : `/memories/${id}/${readableName(description, 'memory')}`;
  return vscode.Uri.from({ scheme: SCHEME, path: version === undefined ? `${base}.md` : `${base}.v${version}.md` });
}

/** The URI of an open document showing `id` (its current version, or `version`), if one is open. */
function openMemoryDocument(id: string, version: number | undefined): vscode.Uri | undefined {
  for (const doc of vscode.workspace.textDocuments) {
    const p = parseMemoryUri(doc.uri);
    if (!p || p.kind === 'draft' || p.id !== id.toLowerCase() || doc.isClosed) continue;
    if (version === undefined ? p.kind === 'current' : p.kind === 'version' && p.version === version) return doc.uri;
  }
  return undefined;
}

/** `agent-memory:/new/<key>/new-memory.md`: a new memory written in the editor (the key tells drafts apart). */
export function draftUri(key: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEME, path: `/new/${key}/${readableName(vscode.l10n.t('New memory'), 'new-memory')}.md` });
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
