import { strict as assert } from 'node:assert';
import { z } from 'zod';
import * as C from '../../src/core/contract';
import { ValidationError } from '../../src/core/errors';

function refused(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ValidationError, `expected a ValidationError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the input to be refused');
}

describe('contract', () => {
  it('normalises tags: trims, lower-cases, spaces to -, removes duplicates', () => {
    const out = C.parseInput(C.CreateInput, { description: 'd', tags: ['  Build System ', 'build-system', 'C#', '.NET'], content: 'c' });
    assert.deepEqual(out.tags, ['build-system', 'c#', '.net']);
  });

  it('refuses a tag outside the safe set and names its position and the offending characters', () => {
    const err = refused(() => C.parseInput(C.CreateInput, { description: 'd', tags: ['ok', 'bad/tag!'], content: 'c' }));
    assert.equal(err.field, 'tags[1]');
    assert.match(err.message, /"\/!"/);
    assert.match(err.message, /a-z, 0-9/);
  });

  it('refuses a tag longer than 40 characters, saying the limit', () => {
    const err = refused(() => C.parseInput(C.CreateInput, { description: 'd', tags: ['x'.repeat(41)], content: 'c' }));
    assert.match(err.message, /41 characters; the limit is 40/);
  });

  it('needs 1–12 tags', () => {
    assert.match(refused(() => C.parseInput(C.CreateInput, { description: 'd', tags: [], content: 'c' })).message, /at least 1 tag/);
    const many = Array.from({ length: 13 }, (_, i) => `t${i}`);
    assert.match(
      refused(() => C.parseInput(C.CreateInput, { description: 'd', tags: many, content: 'c' })).message,
      /13 tags given; the limit is 12/,
    );
  });

  it('states the description limit with the actual length', () => {
    const err = refused(() => C.parseInput(C.CreateInput, { description: 'x'.repeat(612), tags: ['a'], content: 'c' }));
    assert.equal(err.field, 'description');
    assert.match(err.message, /description: is 612 characters; the limit is 500/);
  });

  it('refuses empty or whitespace-only description and content', () => {
    const err = refused(() => C.parseInput(C.CreateInput, { description: '   ', tags: ['a'], content: ' \n ' }));
    assert.match(err.message, /description: is empty/);
    assert.match(err.message, /content: is empty/);
  });

  it('caps content at 32,000 characters', () => {
    C.parseInput(C.CreateInput, { description: 'd', tags: ['a'], content: 'x'.repeat(32_000) });
    assert.match(
      refused(() => C.parseInput(C.CreateInput, { description: 'd', tags: ['a'], content: 'x'.repeat(32_001) })).message,
      /32001 characters; the limit is 32000/,
    );
  });

  it('refuses fields the contract does not have, so a model cannot pass its own id', () => {
    const err = refused(() => C.parseInput(C.CreateInput, { id: 'mine', description: 'd', tags: ['a'], content: 'c' }));
    assert.match(err.message, /unknown field\(s\) "id"/);
  });

  it('accepts only UUIDs as ids and tells the model how to get one', () => {
    assert.match(refused(() => C.parseInput(C.ReadInput, { id: 'memory-1' })).message, /UUID returned by search or create/);
    const id = '3F2A0C8E-1B7D-4C47-9A55-6B1E2D3C4B5A';
    assert.equal(C.parseInput(C.ReadInput, { id }).id, id.toLowerCase());
  });

  it('refuses an empty keyword list rather than returning everything', () => {
    assert.match(refused(() => C.parseInput(C.SearchInput, { keywords: [] })).message, /at least one keyword/);
    assert.match(refused(() => C.parseInput(C.SearchInput, { keywords: ['a'], limit: 51 })).message, /at most 50/);
  });

  it('defines every tool once, with the agent-memory_ prefix and a JSON schema derivable from zod', () => {
    const names = C.MEMORY_TOOLS.map((t) => t.name);
    assert.deepEqual(names, [
      'agent-memory_search',
      'agent-memory_create',
      'agent-memory_edit',
      'agent-memory_read',
      'agent-memory_delete',
      'agent-memory_tags',
    ]);
    for (const tool of C.MEMORY_TOOLS) {
      const schema = z.toJSONSchema(tool.input, { io: 'input' }) as { type: string; additionalProperties: boolean };
      assert.equal(schema.type, 'object', tool.name);
      assert.equal(schema.additionalProperties, false, `${tool.name} must refuse unknown fields`);
      assert.ok(tool.modelDescription.length > 150, `${tool.name} needs a description written for the model`);
      assert.ok(!(tool.annotations.readOnly && tool.annotations.destructive), tool.name);
    }
    const create = z.toJSONSchema(C.createTool.input, { io: 'input' }) as {
      required: string[];
      properties: Record<string, { maxLength?: number; maxItems?: number }>;
    };
    assert.deepEqual(create.required.sort(), ['content', 'description', 'tags']);
    assert.equal(create.properties.description!.maxLength, 500);
    assert.equal(create.properties.tags!.maxItems, 12);
  });

  it('accepts ISO times with or without fractions, with Z or an offset, and stores them as UTC milliseconds', () => {
    const cases: Array<[string, string]> = [
      ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
      ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.000Z'],
      ['2026-01-01T00:00:00.5Z', '2026-01-01T00:00:00.500Z'],
      ['2026-01-01T00:00:00.123456789Z', '2026-01-01T00:00:00.123Z'], // cut, never rounded into the next second
      ['2026-01-01T09:30:00+02:00', '2026-01-01T07:30:00.000Z'],
      ['2025-12-31T23:30:00.25-01:45', '2026-01-01T01:15:00.250Z'],
      ['0050-06-01T00:00:00Z', '0050-06-01T00:00:00.000Z'], // not moved to 1950, as Date.UTC would
    ];
    for (const [given, stored] of cases) {
      assert.equal(C.Timestamp.parse(given), stored, given);
      // Through a tool's input as well: the fact's observedAt and validUntil, an episode's timestamp.
      const fact = C.parseInput(C.AssertFactInput, { subject: 's', predicate: 'p', object: 'o', observedAt: given, validUntil: given });
      assert.equal(fact.observedAt, stored);
      assert.equal(fact.validUntil, stored);
    }
  });

  it('still refuses what is not an ISO time with a zone', () => {
    for (const bad of [
      '2026-01-01T00:00:00', // no zone: whose midnight?
      '2026-01-01',
      '2026-01-01 00:00:00Z',
      '2026-02-29T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T00:00Z',
      '2026-01-01T00:00:00+0200',
      '2026-01-01T00:00:00+24:00',
      'yesterday',
      '',
      1767225600000,
      '9999-12-31T23:30:00-01:00', // past the year 9999 in UTC
    ]) {
      assert.equal(C.Timestamp.safeParse(bad).success, false, String(bad));
    }
    const err = refused(() => C.parseInput(C.AssertFactInput, { subject: 's', predicate: 'p', object: 'o', observedAt: 'yesterday' }));
    assert.match(err.message, /observedAt: must be an ISO-8601 time with a zone, e.g. 2026-01-01T00:00:00Z/);
  });

  it("declares the accepted forms in a tool's input schema and the stored form in its output schema", () => {
    const input = z.toJSONSchema(C.Timestamp, { io: 'input' }) as { pattern: string };
    const output = z.toJSONSchema(C.Timestamp, { io: 'output' }) as { pattern: string };
    assert.ok(new RegExp(input.pattern).test('2026-01-01T09:30:00+02:00'));
    assert.ok(new RegExp(input.pattern).test('2026-01-01T00:00:00Z'));
    assert.ok(!new RegExp(output.pattern).test('2026-01-01T00:00:00Z'));
    assert.ok(new RegExp(output.pattern).test('2026-01-01T00:00:00.000Z'));
  });
});

describe('validation messages in our words', () => {
  const refusal = (schema: z.ZodType, input: unknown): string => {
    try {
      C.parseInput(schema, input);
    } catch (err) {
      assert.ok(err instanceof ValidationError);
      return err.message;
    }
    assert.fail('expected a refusal');
  };

  it("words the rules zod states in its defaults like every other refusal, never zod's own phrasing", () => {
    const schema = z.object({
      limit: z.number().int().min(1),
      items: z.array(z.string()).max(2),
      name: z.string().min(1).max(3),
      source: z.object({ type: z.string() }),
      kind: z.enum(['fact', 'skill']),
      at: z.iso.datetime(),
      id: z.uuid(),
      weight: z.number().positive(),
      label: z.string(),
    });
    const message = refusal(schema, {
      limit: 0,
      items: ['a', 'b', 'c'],
      name: '',
      kind: 'memo',
      at: 'yesterday',
      id: '42',
      weight: 0,
      label: 5,
    });
    for (const expected of [
      'limit: must be at least 1',
      'items: has too many items; the limit is 2',
      'name: must not be empty',
      'source: is missing; give an object (a mapping of fields)',
      'kind: must be one of fact, skill',
      'at: must be an ISO-8601 time such as 2026-01-01T09:30:00Z',
      'id: must be an id (a UUID) as returned by the tools',
      'weight: must be more than 0',
      'label: must be text, not a number',
    ]) {
      assert.ok(message.includes(expected), `${expected}\nin: ${message}`);
    }
    assert.doesNotMatch(message, /Too small|Too big|Invalid input|Invalid option|received/);
  });

  it("keeps a schema's own message, and does not repeat a nested field's name", () => {
    const schema = z.object({
      source: z.object({ type: z.string().refine((t) => t === 'commit', { error: 'source.type is one of commit' }) }),
      tags: z.array(z.string()).max(1, { error: '2 tags given; the limit is 1' }),
    });
    const message = refusal(schema, { source: { type: 'chat' }, tags: ['a', 'b'] });
    assert.ok(message.includes('source.type: is one of commit'), message);
    assert.doesNotMatch(message, /source\.type: source\.type/);
    assert.ok(message.includes('tags: 2 tags given; the limit is 1'), message);
  });
});
