import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

interface MenuEntry {
  command: string;
  when?: string;
  group?: string;
}

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { menus: Record<string, MenuEntry[]> };
};

/**
 * Whether a `when` clause of the shapes package.json's view item menus use (terms joined by
 * `&&`: `key == value`, `key =~ /regex/`) holds for these context keys. Anything else fails the test.
 */
function holds(when: string, keys: Record<string, string>): boolean {
  return when.split('&&').every((term) => {
    const m = /^\s*([\w.]+)\s*(==|=~)\s*(.+?)\s*$/.exec(term);
    if (!m) throw new Error(`unexpected term in a when clause: ${term}`);
    const [, key, op, value] = m as unknown as [string, string, string, string];
    if (op === '==') return keys[key] === value;
    const re = /^\/(.*)\/([a-z]*)$/.exec(value);
    if (!re) throw new Error(`not a regular expression: ${value}`);
    return new RegExp(re[1]!, re[2]).test(keys[key] ?? '');
  });
}

/** The commands the Memories view's context menu offers on an item with this context value. */
const contextMenu = (viewItem: string) =>
  pkg.contributes.menus['view/item/context']!.filter((e) => e.group !== undefined && !e.group.startsWith('inline'))
    .filter((e) => holds(e.when ?? '', { view: 'agentMemory.memories', viewItem }))
    .map((e) => e.command);

describe('the Memories view context menu (package.json)', () => {
  const needPrevious = ['agentMemory.compareWithPrevious', 'agentMemory.restoreVersion'];

  it('offers Compare with Previous Version and Restore Version only on a memory with an earlier version', () => {
    for (const c of needPrevious) {
      assert.ok(contextMenu('memory').includes(c), c);
      assert.ok(!contextMenu('memory.v1').includes(c), c);
    }
  });

  it('offers every other memory action on both', () => {
    const others = contextMenu('memory').filter((c) => !needPrevious.includes(c));
    assert.deepEqual(contextMenu('memory.v1'), others);
    for (const c of ['agentMemory.open', 'agentMemory.editTags', 'agentMemory.showHistory', 'agentMemory.copyId', 'agentMemory.delete'])
      assert.ok(others.includes(c), c);
  });
});
