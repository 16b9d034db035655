/**
 * How a version came to be, beyond its author: the client it came through, who proposed it
 * when a person approved it, and (PostgreSQL) the database role that inserted it. Every field
 * is absent on versions written before it was recorded; such versions read as "unknown".
 */

/** The clients a write comes through; each entry point sets its own once, where it builds its services. */
export const CHANNELS = ['vscode', 'mcp', 'cli', 'import'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface VersionOrigin {
  /** The client the write came through; absent or null: not recorded (an older version, a copied store). */
  channel?: Channel | null;
  /** Set on what approving a proposal wrote: who proposed it (the version's author is who approved it). */
  proposedBy?: string | null;
  /**
   * PostgreSQL only: the database role of the connection that inserted the row, filled in by the
   * database itself (a trigger), whatever the client sent. Absent on the workspace store.
   */
  dbRole?: string | null;
}

/** The origin fields of `row` that are set, for rows built or read by a store (no nulls, no undefined). */
export function originOf(row: VersionOrigin): { channel?: Channel; proposedBy?: string; dbRole?: string } {
  return {
    ...(row.channel ? { channel: row.channel } : {}),
    ...(row.proposedBy ? { proposedBy: row.proposedBy } : {}),
    ...(row.dbRole ? { dbRole: row.dbRole } : {}),
  };
}

/** How a store that keeps the origin in one text column writes it: JSON of the set fields, or null for none. */
export function originText(row: VersionOrigin): string | null {
  const o = originOf(row);
  return Object.keys(o).length ? JSON.stringify(o) : null;
}

/** The origin read back from originText's column (unknown channels are kept out). */
export function parseOrigin(text: string | null | undefined): VersionOrigin {
  if (!text) return {};
  try {
    const o = JSON.parse(text) as Record<string, unknown>;
    const str = (x: unknown) => (typeof x === 'string' && x ? x : undefined);
    const channel = str(o.channel);
    return originOf({
      channel: CHANNELS.includes(channel as Channel) ? (channel as Channel) : undefined,
      proposedBy: str(o.proposedBy),
      dbRole: str(o.dbRole),
    });
  } catch {
    return {};
  }
}

/** The channel as shown to people: "unknown" where none was recorded. */
export function channelLabel(row: VersionOrigin): string {
  return row.channel ?? 'unknown';
}

/** `rows` with those that carry no channel marked with `channel` (what an import came in through). */
export function withChannel<T extends VersionOrigin>(rows: T[], channel: Channel | null | undefined): T[] {
  return channel ? rows.map((r) => (r.channel ? r : { ...r, channel })) : rows;
}
