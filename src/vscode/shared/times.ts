import * as vscode from 'vscode';
import { timeLine, timeText, type TimeText } from './timeText';

/** A stored time in this window's display language, now. */
export function when(iso: string): TimeText {
  return timeText(iso, new Date(), vscode.env.language);
}

/** "Dec 1, 2026, 5:40 PM (2 hours ago)". */
export function whenLine(iso: string): string {
  return timeLine(iso, new Date(), vscode.env.language);
}

/**
 * A time in a Markdown preview: the local time and how long ago, with the stored ISO text as
 * its hover (the preview renders this HTML; stored times are ISO, so nothing needs escaping).
 */
export function whenMarkdown(iso: string): string {
  const t = when(iso);
  return t.local === t.iso ? t.iso : `<span title="${t.iso}">${t.local} (${t.relative})</span>`;
}
