// The extension host's console is all that reaches scripts/vscode-test/run.mjs (through the
// page's codeAutomationLog), mixed with everything the workbench logs. Lines the suites mean
// for the reader carry MARK; run.mjs prints those (without MARK) and drops the rest.

/** Start of every message meant for the test output. run.mjs has the same two strings. */
export const MARK = '[vscode-tests] ';
/** The one message, at the end of the run, with the counts as JSON (a SuiteResult). */
export const RESULT_PREFIX = `${MARK}result `;

/** Counts of one run of the VS Code suites. */
export interface SuiteResult {
  passed: number;
  failed: number;
  pending: number;
}

/** Prints text (one or more lines) to the test output. */
export function log(text: string): void {
  console.log(MARK + text);
}
