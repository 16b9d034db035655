import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { languageModelToolContributions, languageModelToolStrings } from '../../../src/vscode/tools/manifest';
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
