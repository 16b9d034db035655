import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { languageModelToolContributions } from '../../../src/core/contract/manifest';
import { MEMORY_TOOLS } from '../../../src/core/contract';

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));

describe('package.json and the contract', () => {
  it('declares exactly the contract\'s language-model tools (run `npm run manifest` after changing the contract)', () => {
    assert.deepEqual(pkg.contributes.languageModelTools, languageModelToolContributions());
  });

  it('gives each tool an input schema that refuses unknown fields and states the limits', () => {
    for (const entry of pkg.contributes.languageModelTools as Array<{ name: string; inputSchema: { additionalProperties: boolean } }>) {
      assert.equal(entry.inputSchema.additionalProperties, false, entry.name);
    }
    const create = (pkg.contributes.languageModelTools as Array<{ name: string; inputSchema: { properties: { description: { maxLength: number } } } }>).find((t) => t.name === 'agent-memory_create')!;
    assert.equal(create.inputSchema.properties.description.maxLength, 500);
    assert.equal(MEMORY_TOOLS.length, (pkg.contributes.languageModelTools as unknown[]).length);
  });
});
