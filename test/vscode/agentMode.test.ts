// Agent mode end to end: VS Code's own chat, in Agent mode, calls our tools as Copilot would.
// The model is scripted (test/vscode/scripted-model/, installed by run.mjs): each test queues
// the tool call it wants, the chat's tool loop (the built-in Copilot Chat extension) shows our
// confirmation card, and a person's clicks and keys come from Playwright through the driver
// (driver.ts). The model answers a tool result by echoing it, so a test sees what the model
// was handed. Needs run.mjs's driver: skipped under other runners (npm run test:electron).
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { drive, driverAvailable, screenshotsWanted, type Target, waitUntil } from './driver';
import { EXTENSION_ID, readSeed, workspaceFolder } from './seed';

const MODEL = { vendor: 'agent-memory-test', id: 'scripted' };
const SCRIPTED_MODEL_EXTENSION = 'agent-memory-test.scripted-model';
const COPILOT_CHAT = 'GitHub.copilot-chat';

// Workbench selectors (VS Code 1.139). The chat keeps a hidden copy of the confirmation widget:
// the driver acts on visible elements only.
const CARD = '.chat-tool-confirmation-carousel';
const CARD_BUTTONS = `${CARD} .chat-confirmation-widget2 .chat-buttons`;
const PICK = '.quick-input-widget';
const PICK_INPUT = `${PICK} .quick-input-box input`;
/** The quick pick's row of a tag, checked or not. */
const pickRow = (tag: string, checked: boolean): Target => ({
  selector: `${PICK} .quick-input-list .monaco-list-row[aria-checked="${checked}"]`,
  has: { selector: '.label-name', text: tag },
});
const RESPONSE = '.interactive-item-container.interactive-response';

/**
 * "Allow Once" from the drop-down of the card's primary button. The primary button ("Allow in
 * this Session") would let later calls of the tool through without a card, in every later test.
 * A plain click on the menu item does nothing; hover, then Enter, works.
 */
async function allowOnce(): Promise<void> {
  await drive({ action: 'click', selector: `${CARD_BUTTONS} .monaco-dropdown-button`, timeoutMs: 60_000 });
  await drive({ action: 'hover', selector: '.monaco-menu .action-menu-item', text: 'Allow Once' });
  await drive({ action: 'press', key: 'Enter' });
  await drive({ action: 'waitGone', selector: '.monaco-menu' });
}

type Part =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; name: string; input: unknown }
  | { kind: 'toolResult'; callId: string; text: string }
  | { kind: 'other' };
/** What the scripted model saw and answered (agentMemoryTest.scriptedModel.state). */
interface ModelState {
  requests: { toolNames: string[]; tools: { name: string; description: string }[]; messages: { role: string; parts: Part[] }[] }[];
  replies: ({ text: string } | { toolCall: { callId: string; name: string; input: unknown } })[];
  queued: number;
}

const modelState = () => vscode.commands.executeCommand<ModelState>('agentMemoryTest.scriptedModel.state');

/**
 * Opens a new chat in Agent mode on the scripted model and sends a prompt, the model having
 * been told to answer it with `call`. Returns once the model has made the call, with its id
 * and the promise of the chat command (settled when the prompt was sent, not answered).
 */
async function askAgent(prompt: string, call: { name: string; input: object }): Promise<{ callId: string; sent: Thenable<unknown> }> {
  await vscode.commands.executeCommand('agentMemoryTest.scriptedModel.reset');
  await vscode.commands.executeCommand('agentMemoryTest.scriptedModel.script', [call]);
  // A new chat each time: "Allow in this Session" must not carry over to the next test.
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  const sent = vscode.commands.executeCommand('workbench.action.chat.open', {
    query: prompt,
    mode: 'agent',
    modelSelector: MODEL,
    isPartialQuery: false,
  });
  const callId = await waitUntil(
    `the scripted model to call ${call.name}`,
    async () => {
      for (const r of (await modelState()).replies) if ('toolCall' in r) return r.toolCall.callId;
      return undefined;
    },
    60_000,
  );
  return { callId, sent };
}

/** Waits until the chat hands the result of the call back to the model; returns its text. */
function resultHandedToModel(callId: string): Promise<string> {
  return waitUntil(
    `the result of ${callId} to reach the model`,
    async () => {
      for (const request of (await modelState()).requests) {
        for (const m of request.messages) for (const p of m.parts) if (p.kind === 'toolResult' && p.callId === callId) return p.text;
      }
      return undefined;
    },
    60_000,
  );
}

/** The CLI on the test workspace's store: what is really saved. */
function cli<T>(...args: string[]): T {
  const seed = readSeed();
  return JSON.parse(
    execFileSync(seed.node, [seed.cli, '--store', seed.store, '--json', ...args], { encoding: 'utf8', timeout: 20_000 }),
  ) as T;
}
interface StoredMemory {
  id: string;
  description: string;
  tags: string[];
  content: string;
}
const listIds = () => cli<{ items: { id: string }[] }>('list', '--limit', '200').items.map((m) => m.id);

describe('Agent mode end to end (VS Code chat, scripted model, Playwright)', function () {
  this.timeout(180_000);
  let maximized = false;

  before(async function () {
    if (!driverAvailable()) this.skip(); // clicks need run.mjs's driver
    this.timeout(120_000);
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
    await vscode.extensions.getExtension(SCRIPTED_MODEL_EXTENSION)!.activate();
    // A fresh profile keeps Copilot Chat (Agent mode's tool loop) disabled until set-up; enabling
    // it avoids the sign-in dialog. No sign-in or network is needed after that.
    await vscode.commands.executeCommand('workbench.extensions.action.enableAll');
    const copilot = await waitUntil('Copilot Chat to be enabled', () => vscode.extensions.getExtension(COPILOT_CHAT), 60_000);
    await copilot.activate();
    await waitUntil('the scripted model', async () => ((await vscode.lm.selectChatModels(MODEL)).length > 0 ? true : undefined), 60_000);
    await vscode.workspace.getConfiguration('agentMemory').update('reviewWrites', 'always', vscode.ConfigurationTarget.Global);
    // The README's screenshots want a wide chat; normal runs keep the default layout.
    if (screenshotsWanted()) {
      await vscode.commands.executeCommand('workbench.action.toggleMaximizedAuxiliaryBar');
      maximized = true;
    }
  });

  // A failed test leaves a picture of the page, and no card or quick pick for the next test.
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      const shot = (await drive({ action: 'failure', name: this.currentTest.title }).catch(() => undefined)) as
        { file?: string } | undefined;
      if (shot?.file) console.log(`[vscode-tests]     page at the failure: ${shot.file} (VSCODE_TEST_KEEP=1 keeps it)`);
    }
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.chat.cancel').then(undefined, () => undefined);
  });

  after(async () => {
    if (maximized) await vscode.commands.executeCommand('workbench.action.toggleMaximizedAuxiliaryBar');
  });

  it('create: the card shows our preview, Allow, the review quick pick, Enter: the memory is saved as proposed', async () => {
    const proposal = {
      description: 'Vitest hangs on ESM-only packages in worker threads: run it with pool "forks"',
      tags: ['vitest', 'esm', 'testing'],
      content:
        'With the default `threads` pool, vitest 1.x never exits when an ESM-only dependency keeps a handle open.\n\nFix: `test.pool = "forks"` in vitest.config.ts. Verified on CI: 40 runs, no hang.',
    };
    const { callId, sent } = await askAgent('We fixed the vitest hang. Save it for the team.', {
      name: 'agent-memory_create',
      input: proposal,
    });

    // The content is rendered last (in an editor): wait for it before reading the card.
    await drive({ action: 'waitFor', selector: CARD, text: 'vitest.config.ts', timeoutMs: 60_000 });
    // The content is shown in an editor, which renders spaces as no-break spaces.
    const card = String(await drive({ action: 'text', selector: CARD })).replace(/\u00a0/g, ' ');
    assert.match(card, /Save this memory for the team\?/);
    assert.ok(card.includes(proposal.description), `the card does not show the description:\n${card}`);
    for (const tag of proposal.tags) assert.match(card, new RegExp(`\\b${tag}\\b`), `the card does not show the tag ${tag}:\n${card}`);
    assert.ok(card.includes('pool = "forks"'), `the card does not show the content:\n${card}`);
    await drive({ action: 'screenshot', name: 'chat-confirmation', selectors: [CARD], padding: 12 });

    await allowOnce();
    await drive({ action: 'waitFor', selector: PICK, text: 'Review the memory before it is saved' });
    for (const tag of proposal.tags) await drive({ action: 'waitFor', ...pickRow(tag, true) });
    await drive({ action: 'press', key: 'Enter' });

    const result = await resultHandedToModel(callId);
    const id = /Saved as memory ([0-9a-f-]{36}) \(version 1\)\./.exec(result)?.[1];
    assert.ok(id, `the model was handed: ${result}`);
    assert.doesNotMatch(result, /after the person's review/, 'accepted as proposed, yet reported as changed');
    const stored = cli<StoredMemory>('read', id!);
    assert.equal(stored.description, proposal.description);
    assert.deepEqual(stored.tags, proposal.tags);
    assert.equal(stored.content, proposal.content);
    // The model's echo of the result is rendered in the chat.
    await drive({ action: 'waitFor', selector: RESPONSE, text: `Saved as memory ${id}` });
    await sent;
  });

  it('create: Allow, then edit the tags in the review quick pick (uncheck one, type a new one): the edited tags are saved', async () => {
    const proposal = {
      description: 'Flaky vitest snapshot tests on CI were timeouts: raise testTimeout for the e2e project',
      tags: ['vitest', 'tests', 'flaky'],
      content: 'The CI runners are slower; the 5 s default timed out in the snapshot step. `testTimeout: 20000` for the e2e project only.',
    };
    const { callId, sent } = await askAgent('Save what we found about the flaky snapshots.', {
      name: 'agent-memory_create',
      input: proposal,
    });
    await allowOnce();
    await drive({ action: 'waitFor', ...pickRow('flaky', true) });
    await drive({ action: 'screenshot', name: 'review-quick-pick', selectors: [PICK], padding: 12 });

    // Uncheck a proposed tag with the mouse, then type a new tag key by key into the filter box.
    await drive({ action: 'click', ...pickRow('flaky', true), inner: '.monaco-checkbox' });
    await drive({ action: 'waitFor', ...pickRow('flaky', false) });
    await drive({ action: 'click', selector: PICK_INPUT });
    await drive({ action: 'type', text: 'timeouts' });
    await drive({ action: 'waitFor', ...pickRow('timeouts', true) });
    await drive({ action: 'press', key: 'Enter' });

    const result = await resultHandedToModel(callId);
    const id = /Saved as memory ([0-9a-f-]{36})/.exec(result)?.[1];
    assert.ok(id, `the model was handed: ${result}`);
    assert.match(result, /after the person's review/, 'the model is not told that the person changed the tags');
    const stored = cli<StoredMemory>('read', id!);
    assert.deepEqual([...stored.tags].sort(), ['tests', 'timeouts', 'vitest']);
    assert.equal(stored.description, proposal.description);
    await sent;
  });

  it('create: Skip on the card: nothing is saved, no review, and the model still gets a result for its call', async () => {
    const before = listIds();
    const { callId, sent } = await askAgent('Save this too.', {
      name: 'agent-memory_create',
      input: { description: 'A zeppelin proposal the person skips', tags: ['zeppelin'], content: 'Never saved.' },
    });
    await drive({ action: 'waitFor', selector: CARD, text: 'A zeppelin proposal the person skips', timeoutMs: 60_000 });
    await drive({ action: 'click', selector: `${CARD_BUTTONS} a.monaco-button`, text: 'Skip' });

    const result = await resultHandedToModel(callId);
    assert.doesNotMatch(result, /Saved as memory/, `a skipped call reported a save: ${result}`);
    assert.equal(await drive({ action: 'count', selector: PICK }), 0, 'the review quick pick opened for a skipped call');
    assert.deepEqual(listIds(), before, 'the store changed after Skip');
    assert.deepEqual(cli<unknown[]>('search', 'zeppelin'), []);
    await sent;
  });

  it('search: the model calls agent-memory_search and reads our result (the seeded memory) in its next request', async () => {
    const seed = readSeed();
    const { callId, sent } = await askAgent('Why does jest fail on our ESM packages?', {
      name: 'agent-memory_search',
      input: { keywords: ['jest', 'esm'] },
    });
    const result = await resultHandedToModel(callId);
    assert.ok(result.includes(seed.id) && result.includes(seed.description), `the model was handed: ${result}`);
    // The model echoes the result; the chat renders it.
    await drive({ action: 'waitFor', selector: RESPONSE, text: seed.id, timeoutMs: 60_000 });
    const shown = String(await drive({ action: 'text', selector: RESPONSE, text: seed.id }));
    assert.ok(shown.includes(seed.description), `the chat shows: ${shown}`);
    await sent;
  });

  // VS Code adds instruction files whose applyTo matches to an Agent-mode request, for any model:
  // the extension's own copy (package.json chatInstructions) while the workspace has none, the
  // workspace's .github/instructions/agent-memory.instructions.md once it has one; never both.
  describe('the agent instructions and the tool descriptions reach the model', () => {
    const SENTENCE = 'At the start of a task, call `agent-memory_context`';
    const copilotFile = () => path.join(workspaceFolder(), '.github', 'instructions', 'agent-memory.instructions.md');
    after(() => fs.rmSync(path.join(workspaceFolder(), '.github'), { recursive: true, force: true }));

    /** Every text the first tool-offering request of the chat held, and that request's tools. */
    async function firstRequest(prompt: string): Promise<{ text: string; tools: { name: string; description: string }[] }> {
      const { callId, sent } = await askAgent(prompt, { name: 'agent-memory_tags', input: {} });
      await resultHandedToModel(callId);
      await sent;
      const request = (await modelState()).requests.find((r) => r.toolNames.length > 0)!;
      const text = request.messages
        .flatMap((m) => m.parts)
        .map((p) => ('text' in p ? p.text : ''))
        .join('\n');
      return { text, tools: request.tools };
    }
    const count = (text: string, needle: string) => text.split(needle).length - 1;

    it("the tools' descriptions say to search first, and the extension's own instructions are in the request", async () => {
      const { text, tools } = await firstRequest('Why does the release build fail?');
      const description = (name: string) => tools.find((t) => t.name === name)?.description ?? '';
      assert.match(description('agent-memory_search'), /Search first: call it at the start of a task/);
      assert.match(description('agent-memory_context'), /^Call it first, once at the start of a task/);
      assert.equal(
        count(text, SENTENCE),
        1,
        `the instructions are not in the request once:\n${text
          .split('\n')
          .filter((l) => /instruction|agent-memory/i.test(l))
          .join('\n')}`,
      );
    });

    it("with the workspace's own instructions file, that file's text is in the request, and the extension's copy is left out", async () => {
      const results = await vscode.commands.executeCommand<{ outcome: string }[]>('agentMemory.addInstructions', {
        targets: ['copilot'],
        open: false,
      });
      assert.equal(results?.[0]?.outcome, 'created');
      fs.appendFileSync(copilotFile(), '\nTeam note: the release checklist lives in docs/RELEASING.md (xyzzy-4711).\n');
      const { text } = await firstRequest('Prepare the release notes.');
      assert.ok(text.includes('xyzzy-4711'), `the workspace's instructions file is not in the request:\n${text.slice(0, 4000)}`);
      assert.equal(count(text, SENTENCE), 1, 'the instructions are in the request twice');
    });
  });
});
