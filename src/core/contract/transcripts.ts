// What an episode must not be: a pasted conversation (speaker markers across its fields) or a text
// too long for a summary. Checked by the episode contract (episodes.ts), which holds the limits.

/**
 * Speaker markers, the turns of a chat log. At a line's start any of the speakers, in any case:
 * `User:`, `**Assistant:**`, `> Human:`. Inside a line only the chat roles, capitalised and
 * followed by a space (`… User: hi Assistant: hello`): "invalid user: bob" or "model: gpt-4o"
 * in an error message are prose. Agents paste chats both ways, and spread them over fields.
 */
const SPEAKERS = 'user|assistant|human|ai|system|copilot|model|agent|bot|me|you';
const LINE_START_MARKER = new RegExp(`^[ \\t]*(?:>[ \\t]*)?(?:\\*\\*|__)?(${SPEAKERS})(?:\\*\\*|__)?[ \\t]*:`, 'gim');
const IN_LINE_MARKER = /(?<![\p{L}\p{N}_])(?:\*\*|__)?(User|USER|Assistant|ASSISTANT|Human|HUMAN|AI)(?:\*\*|__)?:(?=\s|\*\*|__|$)/gmu;

/** The speakers (lower case) of the markers in `text`, each marker once. */
export function speakerMarkers(text: string): string[] {
  const at = new Map<number, string>();
  for (const re of [LINE_START_MARKER, IN_LINE_MARKER]) {
    for (const m of text.matchAll(re)) at.set(m.index + m[0].length, m[1]!.toLowerCase());
  }
  return [...at.values()];
}

/** An episode field's path (`['errors', 3]`) and its text. */
export type EpisodeText = readonly [path: ReadonlyArray<string | number>, text: string];

const fieldName = (path: EpisodeText[0]) => path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join('');

/**
 * Why an episode's text fields, taken together, look like a pasted conversation (two different
 * speakers, or more than `maxMarkers` markers), with the path of the first field holding a
 * marker; or undefined. One incidental "User:" is prose.
 */
export function transcriptProblem(
  fields: readonly EpisodeText[],
  maxMarkers: number,
): { path: EpisodeText[0]; message: string } | undefined {
  const found = fields.map(([path, text]) => ({ path, speakers: speakerMarkers(text) })).filter((f) => f.speakers.length > 0);
  const all = found.flatMap((f) => f.speakers);
  const distinct = [...new Set(all)];
  if (distinct.length < 2 && all.length <= maxMarkers) return undefined;
  const names = found.map((f) => fieldName(f.path));
  const where = names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more fields` : names.join(', ');
  const who = distinct.map((s) => `"${s === 'ai' ? 'AI' : s[0]!.toUpperCase() + s.slice(1)}:"`).join(', ');
  return {
    path: found[0]!.path,
    message: `looks like a pasted conversation (${all.length} speaker markers such as ${who} in ${where}); write a short summary and put a pointer to the conversation in source.ref`,
  };
}

/** Why one text has too many lines for a summary, or undefined. */
export function linesProblem(text: string, maxLines: number): string | undefined {
  const lines = text.split('\n').length;
  return lines > maxLines
    ? `has ${lines} lines; an episode keeps a summary of at most ${maxLines} lines and points at the full text through source.ref`
    : undefined;
}
