/**
 * How a stored time (ISO-8601, UTC) reads to a person: the local date and time, how long ago,
 * and the ISO text itself for a tooltip or a detail line, where it can be copied exactly.
 * Plain functions (no `vscode` import), so they are tested in Node; callers pass
 * `vscode.env.language` as the locale, so dates follow VS Code's display language.
 */

/** A time as the views, pickers and previews show it. */
export interface TimeText {
  /** The local date and time, e.g. "1 Dec 2026, 19:42". */
  local: string;
  /** How long ago (or from now), e.g. "2 hours ago", "yesterday", "in 3 days". */
  relative: string;
  /** The stored text, unchanged. */
  iso: string;
}

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** `iso` read for a person at `now`; text that is not a time comes back as it is in all three fields. */
export function timeText(iso: string, now: Date = new Date(), locale?: string): TimeText {
  const t = Date.parse(iso);
  if (!iso || Number.isNaN(t)) return { local: iso, relative: iso, iso };
  const local = new Intl.DateTimeFormat(locales(locale), { dateStyle: 'medium', timeStyle: 'short' }).format(t);
  return { local, relative: relativeTime(t, now.getTime(), locale), iso };
}

/** "just now" under a minute, else the largest whole unit: "5 minutes ago", "yesterday", "3 weeks ago". */
function relativeTime(t: number, now: number, locale: string | undefined): string {
  const seconds = (t - now) / 1000;
  const format = new Intl.RelativeTimeFormat(locales(locale), { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  // Under a minute, "now" (numeric: 'auto' words 0 seconds so in every language).
  return format.format(0, 'second');
}

/** "1 Dec 2026, 19:42 (2 hours ago)": where one line has room for both. */
export function timeLine(iso: string, now: Date = new Date(), locale?: string): string {
  const t = timeText(iso, now, locale);
  return t.local === t.iso ? t.iso : `${t.local} (${t.relative})`;
}

/** A locale Intl accepts; an unknown tag (or none) falls back to the runtime's. */
function locales(locale: string | undefined): string[] | undefined {
  if (!locale) return undefined;
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([locale]).length ? [locale] : undefined;
  } catch {
    return undefined;
  }
}
