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
