import * as vscode from 'vscode';
import { SecretError, ValidationError } from '../../core/errors';
import { documentLines, fieldPath, refusedLine } from './refusedLine';

/**
 * Why a memory document was not saved, where a person looks for it: a notification with the
 * reason in their words first (VS Code's own "Failed to save" follows, since the save must
 * fail to keep the text), and a diagnostic on the offending line, in the editor and in
 * Problems. The mark goes at the next successful save of the document, or at its next edit.
 */
export class SaveProblems implements vscode.Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('agent-memory');
  private readonly subscription = vscode.workspace.onDidChangeTextDocument((e) => {
    if (e.contentChanges.length && this.diagnostics.has(e.document.uri)) this.diagnostics.delete(e.document.uri);
  });

  /**
   * The save of `uri` with `text` failed with `err`: for a refusal, say why and mark where, and
   * return the error to throw, worded the same, since VS Code's own message quotes it; anything
   * else is returned as it is.
   */
  refused(uri: vscode.Uri, text: string, err: unknown): unknown {
    const reason = personReason(err);
    if (reason === undefined) return err;
    const where = err instanceof ValidationError || err instanceof SecretError ? err : undefined;
    const line = where
      ? refusedLine(text, { field: where.field, message: where.message, ...(err instanceof SecretError ? { line: err.line } : {}) })
      : 0;
    const lineText = documentLines(text)[line] ?? '';
    const diagnostic = new vscode.Diagnostic(new vscode.Range(line, 0, line, lineText.length), reason, vscode.DiagnosticSeverity.Error);
    diagnostic.source = vscode.l10n.t('Agent Memory');
    this.diagnostics.set(uri, [diagnostic]);
    void vscode.window.showErrorMessage(vscode.l10n.t('The memory was not saved: {0}', reason));
    const worded = new Error(reason, { cause: err });
    worded.name = (err as Error).name;
    return worded;
  }

  /** `uri` was saved: its earlier refusal no longer holds. */
  saved(uri: vscode.Uri): void {
    this.diagnostics.delete(uri);
  }

  dispose(): void {
    this.subscription.dispose();
    this.diagnostics.dispose();
  }
}

/** The field a refusal names, as the document shows it: "Tag 3", "Description". */
function fieldLabel(field: string): string | undefined {
  const { root, index } = fieldPath(field);
  const n = index === undefined ? undefined : Number(index) + 1;
  switch (root) {
    case 'description':
      return vscode.l10n.t('Description');
    case 'tags':
      return n === undefined ? vscode.l10n.t('Tags') : vscode.l10n.t('Tag {0}', n);
    case 'content':
      return vscode.l10n.t('Content');
    case 'citations':
      return n === undefined ? vscode.l10n.t('Citations') : vscode.l10n.t('Citation {0}', n);
    default:
      return undefined;
  }
}

/**
 * A refusal in a person's words: the field as the document names it, the rule without the
 * hints written for agents (which tool to call); undefined for anything else (the store
 * failing, a conflict with a teammate's version), which VS Code's own message reports.
 */
export function personReason(err: unknown): string | undefined {
  if (err instanceof SecretError) {
    return vscode.l10n.t(
      '{0}, line {1}, looks like {2}. Secrets must not be stored in memories: remove it or write a placeholder such as <REDACTED>.',
      fieldLabel(err.field) ?? err.field,
      err.line,
      err.kind,
    );
  }
  if (!(err instanceof ValidationError)) return undefined;
  const rule = forPeople(err.field && err.rule ? err.rule : err.message);
  const label = fieldLabel(err.field);
  return label ? `${label}: ${rule}` : sentence(rule);
}

/** Without the agents' tool names: "(agent-memory_tags)", "call agent-memory_tags first". */
function forPeople(rule: string): string {
  return rule
    .replace(/\s*\((?:call |see )?agent-memory_\w+[^)]*\)/g, '')
    .replace(/[:;,]?\s*call agent-memory_\w+ first/g, '')
    .trim();
}

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
