import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { contributedInstructionsFile } from '../../../src/core/agentInstructions';
import { CONTRIBUTED_INSTRUCTIONS, languageModelToolContributions, languageModelToolStrings } from '../../../src/vscode/tools/manifest';
import { ALL_TOOLS } from '../../../src/core/contract';

const root = path.join(__dirname, '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

describe('package.json and the contract', () => {
  it("declares exactly the contract's language-model tools (run `npm run manifest` after changing the contract)", () => {
    assert.deepEqual(pkg.contributes.languageModelTools, languageModelToolContributions());
    for (const [key, value] of Object.entries(languageModelToolStrings())) assert.equal(nls[key], value, key);
  });

  it('has an English string in package.nls.json for every %key% in package.json, and no unused one', () => {
    const used = [...JSON.stringify(pkg).matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]!);
    assert.ok(used.length > 30, `only ${used.length} localisable strings found`);
    for (const key of used) assert.ok(typeof nls[key] === 'string' && nls[key].length > 0, `package.nls.json lacks ${key}`);
    assert.deepEqual(
      Object.keys(nls).filter((k) => !used.includes(k)),
      [],
    );
  });

  it('gives each tool an input schema that refuses unknown fields and states the limits', () => {
    for (const entry of pkg.contributes.languageModelTools as Array<{ name: string; inputSchema: { additionalProperties: boolean } }>) {
      assert.equal(entry.inputSchema.additionalProperties, false, entry.name);
    }
    const create = (
      pkg.contributes.languageModelTools as Array<{ name: string; inputSchema: { properties: { description: { maxLength: number } } } }>
    ).find((t) => t.name === 'agent-memory_create')!;
    assert.equal(create.inputSchema.properties.description.maxLength, 500);
    assert.equal(ALL_TOOLS.length, (pkg.contributes.languageModelTools as unknown[]).length);
  });
});

describe('package.json: the settings a person sees', () => {
  type Category = { title: string; order: number; properties: Record<string, { order?: number; markdownDescription?: string }> };
  const categories = pkg.contributes.configuration as Category[];
  const title = (c: Category) => nls[c.title.replace(/^%|%$/g, '')];

  it('come in three ordered categories, the settings that matter most first', () => {
    assert.deepEqual(
      categories.map((c) => [c.order, title(c)]),
      [
        [1, 'General'],
        [2, 'Team Database'],
        [3, 'Lifecycle and Policy'],
      ],
    );
    const ordered = (c: Category) =>
      Object.entries(c.properties)
        .sort(([, a], [, b]) => a.order! - b.order!)
        .map(([key]) => key);
    assert.deepEqual(ordered(categories[0]!).slice(0, 2), ['agentMemory.reviewWrites', 'agentMemory.storage.backend']);
    assert.ok(
      ordered(categories[1]!).every((k) => k.startsWith('agentMemory.postgres.')),
      'the team database category holds its connection settings',
    );
    for (const c of categories)
      for (const [key, s] of Object.entries(c.properties)) assert.ok(Number.isInteger(s.order), `${key} has no order`);
  });

  it('keeps every setting key (renaming one would lose what people set)', () => {
    assert.deepEqual(categories.flatMap((c) => Object.keys(c.properties)).sort(), [
      'agentMemory.author',
      'agentMemory.episodic.ttlDays',
      'agentMemory.forgetting.runEveryHours',
      'agentMemory.postgres.caFile',
      'agentMemory.postgres.project',
      'agentMemory.postgres.tls',
      'agentMemory.postgres.url',
      'agentMemory.procedural.promotionMinSuccesses',
      'agentMemory.reviewWrites',
      'agentMemory.search.maxResults',
      'agentMemory.semantic.requireConfidence',
      'agentMemory.semantic.requireSource',
      'agentMemory.storage.backend',
      'agentMemory.storePath',
      'agentMemory.working.maxTokens',
    ]);
  });

  it('name in words what a title made from the key cannot ("Tls", "Url", "Ttl Days")', () => {
    const lead = (key: string) => {
      const c = categories.find((x) => key in x.properties)!;
      return nls[c.properties[key]!.markdownDescription!.replace(/^%|%$/g, '')]!.split('**')[1];
    };
    assert.equal(lead('agentMemory.postgres.tls'), 'Connection security (TLS)');
    assert.equal(lead('agentMemory.postgres.url'), 'Database URL');
    assert.equal(lead('agentMemory.episodic.ttlDays'), 'Keep episodes for (days)');
  });
});

describe('package.json: actions only where they apply', () => {
  const palette = pkg.contributes.menus.commandPalette as Array<{ command: string; when?: string }>;
  const when = (command: string) => palette.find((e) => e.command === command)?.when;

  it('offers Use the Workspace Store in the Command Palette only while a team database is in use', () => {
    assert.equal(when('agentMemory.useWorkspaceStore'), 'config.agentMemory.storage.backend == postgres');
  });

  it('offers Compare with Previous Version on neither a version-1 document nor a current one at version 1', () => {
    const test = when('agentMemory.compareWithPrevious')!;
    assert.match(test, /resourcePath not in agentMemory\.firstVersionDocs/);
    const pattern = new RegExp(/resourcePath =~ \/(.+)\/ &&/.exec(test)![1]!.replace(/\\\//g, '/'));
    const id = '0b5c1c4e-8d7a-4a53-9a8e-3f1c2d4b5a60';
    assert.deepEqual(
      [`/memories/${id}.md`, `/memories/${id}.v2.md`, `/memories/${id}.v10.md`, `/memories/${id}.v1.md`, '/skills/x.yaml'].map((p) =>
        pattern.test(p),
      ),
      [true, true, true, false, false],
    );
  });
});

describe('package.json: agent instructions and the walkthrough', () => {
  const shipped = (file: string) => {
    // .vscodeignore: everything out, then `!pattern` lines back in (only `*` within one folder is used).
    const keep = fs
      .readFileSync(path.join(root, '.vscodeignore'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('!'))
      .map(
        (l) =>
          new RegExp(
            `^${l
              .slice(1)
              .replace(/\./g, '\\.')
              .replace(/\*\*/g, '.+')
              .replace(/(?<!\.)\*/g, '[^/]+')}$`,
          ),
      );
    return keep.some((r) => r.test(file));
  };

  it('contributes the instructions file `npm run manifest` writes, left out while the workspace has its own copy', () => {
    assert.deepEqual(pkg.contributes.chatInstructions, [
      { path: `./${CONTRIBUTED_INSTRUCTIONS}`, when: '!agentMemory.workspaceInstructions' },
    ]);
    assert.equal(fs.readFileSync(path.join(root, CONTRIBUTED_INSTRUCTIONS), 'utf8'), contributedInstructionsFile());
    assert.ok(shipped(CONTRIBUTED_INSTRUCTIONS), `.vscodeignore leaves ${CONTRIBUTED_INSTRUCTIONS} out of the package`);
    assert.ok(pkg.activationEvents.includes('workspaceContains:.github/instructions/agent-memory.instructions.md'));
  });

  it("tells the model in the search and context tools' descriptions to search first", () => {
    const description = (name: string) =>
      (pkg.contributes.languageModelTools as Array<{ name: string; modelDescription: string }>).find((t) => t.name === name)!
        .modelDescription;
    assert.match(description('agent-memory_search'), /^Search the team's shared memory.*Search first: call it at the start of a task/);
    assert.match(
      description('agent-memory_context'),
      /^Call it first, once at the start of a task, before reading code or solving anything/,
    );
  });

  type Step = { id: string; title: string; description: string; media: { markdown: string }; completionEvents: string[] };
  const walkthroughs = pkg.contributes.walkthroughs as Array<{ id: string; title: string; steps: Step[] }>;
  const text = (s: string) => nls[s.replace(/^%|%$/g, '')]!;

  it('has a Getting Started walkthrough: purpose, instructions, a first memory, sharing, stale memories', () => {
    assert.equal(walkthroughs.length, 1);
    assert.equal(text(walkthroughs[0]!.title), 'Get Started with Agent Memory');
    assert.deepEqual(
      walkthroughs[0]!.steps.map((s) => s.id),
      ['purpose', 'instructions', 'firstMemory', 'share', 'stale'],
    );
  });

  it('gives every step a shipped Markdown page, a command link and a completion event for it', () => {
    const commands = new Set((pkg.contributes.commands as Array<{ command: string }>).map((c) => c.command));
    // Commands VS Code makes itself (a view's focus command, the Source Control view), and the
    // stale-memories command another branch contributes.
    const elsewhere = new Set(['agentMemory.memories.focus', 'workbench.view.scm', 'agentMemory.showStale']);
    for (const step of walkthroughs[0]!.steps) {
      const page = step.media.markdown;
      assert.ok(fs.statSync(path.join(root, page)).size > 200, `${page} is missing or nearly empty`);
      assert.ok(shipped(page), `.vscodeignore leaves ${page} out of the package`);
      const links = [...text(step.description).matchAll(/\]\(command:([\w.]+)\)/g)].map((m) => m[1]!);
      assert.ok(links.length > 0, `step ${step.id} links no command`);
      for (const c of links) assert.ok(commands.has(c) || elsewhere.has(c), `step ${step.id} links an unknown command ${c}`);
      assert.ok(step.completionEvents.length > 0, `step ${step.id} is never completed`);
      for (const e of step.completionEvents) {
        const [kind, id] = e.split(':');
        assert.ok(
          kind === 'onCommand' ? links.includes(id!) : kind === 'onView',
          `step ${step.id}: ${e} is neither one of its commands nor a view`,
        );
      }
    }
    const stale = walkthroughs[0]!.steps.find((s) => s.id === 'stale')!;
    assert.deepEqual(stale.completionEvents, ['onCommand:agentMemory.showStale']);
  });
});
