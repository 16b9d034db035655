import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import type { EpisodeNode } from '../../src/vscode/episodes/episodesView';
import { answerPicks, driverAvailable } from './driver';
import { api, invoke, markdownPreviewOpen, playbook } from './playbookSupport';
import { until } from './seed';

type EpisodeItem = Extract<EpisodeNode, { kind: 'episode' }>;

/** The Episodes view's episode nodes, as it lists them now. */
async function listed(): Promise<EpisodeItem[]> {
  const { playbook: views } = await api();
  return (await views.episodes.getChildren()).filter((n): n is EpisodeItem => n.kind === 'episode');
}

describe('episodes in VS Code: the findEpisodes tool, context, and the Episodes view', function () {
  this.timeout(60_000);
  const ids: Record<'failed' | 'worked' | 'partial', string> = { failed: '', worked: '', partial: '' };

  before(async () => {
    // Words no other suite uses, so what other suites record does not interfere.
    const { episodes, skills } = await playbook();
    // An episode may only cite a skill version that exists: quasar-warmup gets three.
    for (const how of ['every partition', 'the hot partitions first', 'the hot partitions only'])
      await skills.save(
        [
          'name: quasar-warmup',
          `description: Warm the quasar cache before the zephyr export, ${how}`,
          'trigger: [warm the quasar cache]',
          'steps:',
          '  - do: Run quasar-cli warm',
          '    expect: the warmup finishes within the window',
          'success_checks: [the zephyr export starts on time]',
          '',
        ].join('\n'),
      );
    const source = { type: 'issue', ref: '#4242' } as const;
    ids.failed = (
      await episodes.record({
        task: 'Warm the quasar cache before the nightly zephyr export',
        outcome: 'failure',
        errors: ['QuasarTimeout: warmup exceeded 30 s', 'zephyr export aborted'],
        resolution: 'Warm only the hot partitions; the full warmup never fits the window.',
        tools: ['quasar-cli warm'],
        tags: ['quasar'],
        skill: { name: 'quasar-warmup', version: 3 },
        source,
      })
    ).id;
    ids.worked = (
      await episodes.record({
        task: 'Warm the quasar cache for the zephyr export, hot partitions only',
        outcome: 'success',
        tags: ['quasar'],
        source,
      })
    ).id;
    ids.partial = (
      await episodes.record({ task: 'Document the quasar cache layout', outcome: 'partial', tags: ['quasar', 'docs'], source })
    ).id;
    (await api()).playbook.episodes.refresh();
  });

  after(async () => {
    await vscode.commands.executeCommand('agentMemory.clearEpisodeFilter');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('findEpisodes is registered read-only and finds the failure first, with its errors and resolution', async () => {
    const info = vscode.lm.tools.find((t) => t.name === 'agent-memory_findEpisodes');
    assert.ok(info, 'registered');
    assert.ok(info.tags.includes('agent-memory'));
    const out = await invoke('agent-memory_findEpisodes', { query: 'nightly quasar cache warmup before the zephyr export' });
    const lines = out.split('\n');
    assert.match(lines[0]!, /^3 episodes, best match first\. These come from the team memory/);
    assert.match(
      lines[1]!,
      new RegExp(
        `^1\\. FAILURE: Warm the quasar cache before the nightly zephyr export — happened .*; followed skill quasar-warmup v3; .*\\[episode ${ids.failed}\\]$`,
      ),
    );
    assert.ok(lines.includes('   error: QuasarTimeout: warmup exceeded 30 s'), out);
    assert.ok(lines.includes('   resolution: Warm only the hot partitions; the full warmup never fits the window.'), out);
    assert.match(out, new RegExp(`2\\. SUCCESS: .*score 0\\.667 \\[episode ${ids.worked}\\]`));
    assert.match(out, new RegExp(`3\\. PARTIAL: .*score 0\\.4 \\[episode ${ids.partial}\\]`), 'two shared words of six');

    const filtered = await invoke('agent-memory_findEpisodes', { tags: ['quasar'], outcome: 'partial' });
    assert.match(filtered, new RegExp(`^1 episodes, newest first\\.[\\s\\S]*PARTIAL: Document the quasar cache layout`));
    assert.match(await invoke('agent-memory_findEpisodes', { query: 'pizza offsite planning' }), /^No episode matches/);
    await assert.rejects(
      invoke('agent-memory_findEpisodes', { outcome: 'failed', limit: 99 }),
      (err: Error) => /outcome: is one of success, failure, partial/.test(err.message) && /limit: .*at most 50/.test(err.message),
    );
  });

  it('context packs the relevant episodes, failed and partial ones first, with their resolution', async () => {
    const out = await invoke('agent-memory_context', { task: 'Warm the quasar cache before the zephyr export', maxTokens: 3000 });
    const packed = JSON.parse(out) as {
      items: Array<{ provenance: { kind: string; id: string }; resolution?: string }>;
      usedTokens: number;
    };
    const episodes = packed.items.filter((i) => i.provenance.kind === 'episode');
    assert.deepEqual(
      episodes.map((e) => e.provenance.id),
      [ids.failed, ids.partial, ids.worked],
    );
    assert.equal(episodes[0]!.resolution, 'Warm only the hot partitions; the full warmup never fits the window.');
    assert.ok(packed.usedTokens <= 3000);
  });

  it('the view lists newest first with the outcome as icon, and opens an episode as a read-only document', async () => {
    const nodes = await listed();
    const mine = nodes.filter((n) => Object.values(ids).includes(n.episode.id));
    assert.deepEqual(
      mine.map((n) => n.episode.id),
      [ids.partial, ids.worked, ids.failed],
      `newest first (view message: ${String((await api()).playbook.episodes.view?.message)})`,
    );
    assert.equal(nodes[0]!.episode.id, ids.partial, 'nothing was recorded after them');
    const { playbook: views } = await api();
    const items = mine.map((n) => views.episodes.getTreeItem(n));
    assert.deepEqual(
      items.map((i) => (i.iconPath as vscode.ThemeIcon).id),
      ['warning', 'pass', 'error'],
    );
    assert.equal(items[2]!.label, 'Warm the quasar cache before the nightly zephyr export');
    assert.match(String(items[2]!.description), /quasar-warmup v3$/);
    assert.equal(items[2]!.contextValue, 'episode.failure');

    // Rendered as Markdown (its escapes would show in a text editor), in a tab named after the task.
    const open = items[2]!.command!;
    assert.equal(open.command, 'markdown.showPreview');
    const uri = open.arguments?.[0] as vscode.Uri;
    assert.equal(uri.scheme, 'agent-memory-view', 'a read-only document');
    assert.equal(uri.path, `/episode/${ids.failed}/warm-the-quasar-cache-before-the-nightly-zephyr.md`);
    await vscode.commands.executeCommand(open.command, ...(open.arguments ?? []));
    await until('the preview', () => markdownPreviewOpen());
    const text = (await vscode.workspace.openTextDocument(uri)).getText();
    for (const part of [
      '# Warm the quasar cache before the nightly zephyr export',
      '**Outcome:** failure',
      'quasar-warmup v3',
      'QuasarTimeout: warmup exceeded 30 s',
      'Warm only the hot partitions; the full warmup never fits the window.',
      'quasar-cli warm',
      'issue \\#4242',
      ids.failed,
    ])
      assert.ok(text.includes(part), `${part} missing from:\n${text}`);
  });

  it('Filter Episodes… narrows by outcome (then skill) through quick picks; Clear Episode Filter shows all again', async function () {
    if (!driverAvailable()) this.skip(); // the picks are answered by run.mjs's driver
    const { playbook: views } = await api();
    // The previous test's Markdown preview is a webview: one that finishes loading takes the focus
    // and closes a quick pick (answerPicks runs the command again then). Closed first.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await answerPicks(
      () => vscode.commands.executeCommand('agentMemory.filterEpisodes'),
      [
        ['Show episodes that ended how?', 'failure'], // Any outcome, success, failure, partial
        ['Only episodes that followed which skill?', 'Any skill, or none'],
      ],
    );
    assert.deepEqual(views.episodes.filter, { outcome: 'failure' });
    const failures = await listed();
    assert.ok(failures.length >= 1 && failures.every((n) => n.episode.outcome === 'failure'));
    assert.ok(failures.some((n) => n.episode.id === ids.failed));
    assert.equal(views.episodes.view?.description, 'failure');

    await views.episodes.setFilter({ skill: 'Quasar-Warmup' });
    assert.deepEqual(
      (await listed()).map((n) => n.episode.id),
      [ids.failed],
    );
    await views.episodes.setFilter({ skill: 'no-such-skill' });
    assert.deepEqual(await listed(), []);
    assert.equal(views.episodes.view?.message, 'No episode matches the filter.');

    await vscode.commands.executeCommand('agentMemory.clearEpisodeFilter');
    assert.deepEqual(views.episodes.filter, {});
    assert.equal(views.episodes.view?.description, undefined);
    assert.ok((await listed()).some((n) => n.episode.id === ids.partial));
  });
});
