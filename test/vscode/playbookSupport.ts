import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Playbook } from '../../src/core/playbook/playbook';
import type { AgentMemoryApi } from '../../src/extension';
import { EXTENSION_ID, readSeed } from './seed';

/** What activate() returns: the views and the session of the running extension. */
export function api(): Promise<AgentMemoryApi> {
  return Promise.resolve(vscode.extensions.getExtension<AgentMemoryApi>(EXTENSION_ID)!.activate());
}

/** The running extension's playbook (the same instance its tools and views use). */
export async function playbook(): Promise<Playbook> {
  return (await api()).session.getPlaybook();
}

/** The text of a tool result (our tools return text parts only). */
export function text(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/** Calls a tool the way code does (no chat, so no confirmation UI) and returns its text. */
export async function invoke(name: string, input: object): Promise<string> {
  return text(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }));
}

/** The proposal id a proposing tool reported. */
export function proposalId(result: string): string {
  const id = /Proposal ([0-9a-f-]{36}) \(pending\)/.exec(result)?.[1];
  if (!id) throw new Error(`no proposal id in: ${result}`);
  return id;
}

/** Writes (or, with undefined, removes) a file of the workspace store's folder, such as ontology.yaml. */
export function storeFile(name: string, content: string | undefined): void {
  const file = path.join(readSeed().store, name);
  if (content === undefined) fs.rmSync(file, { force: true });
  else fs.writeFileSync(file, content);
}

/** Whether a rendered Markdown preview is open in a tab (one whose label matches `label`, when given). */
export function markdownPreviewOpen(label?: RegExp): boolean {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .some((t) => t.input instanceof vscode.TabInputWebview && /markdown/i.test(t.input.viewType) && (!label || label.test(t.label)));
}

export const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A valid skill document named `name`. */
export function skillYaml(name: string, description = 'Fix a flaky test by finding the race and waiting for the condition'): string {
  return [
    `name: ${name}`,
    `description: ${description}`,
    'trigger:',
    '  - fix a flaky test',
    '  - test fails only on CI',
    'tools: [npx mocha]',
    'steps:',
    '  - do: Run the test 20 times',
    '    tool: npx mocha --repeat 20',
    '    expect: the failure rate, e.g. 3/20 failed',
    '  - do: Replace the fixed sleep with a wait for the condition',
    '    expect: 20/20 runs pass',
    'success_checks:',
    '  - 20 runs in a row pass',
    '',
  ].join('\n');
}
