import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.join(__dirname, '..', '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: {
    viewsWelcome: Array<{ view: string; contents: string; when: string }>;
    views: Record<string, Array<{ id: string; visibility?: string }>>;
  };
};
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

/** The welcome text of a view, as shown (its %key% resolved). */
function welcome(view: string): string {
  const entry = pkg.contributes.viewsWelcome.find((w) => w.view === view);
  assert.ok(entry, `no welcome for ${view}`);
  return entry.contents.replace(/^%(.+)%$/, (_, key: string) => nls[key] ?? '');
}

/** Links on a line of their own: VS Code draws these as buttons. */
const buttons = (text: string) => text.split('\n').flatMap((l) => /^\[[^\]]+\]\(([^)]+)\)$/.exec(l.trim())?.slice(1) ?? []);

describe('the views before there is anything in them (package.json viewsWelcome)', () => {
  it('the Memories view offers to write a memory, not to search an empty store', () => {
    const text = welcome('agentMemory.memories');
    assert.deepEqual(buttons(text), ['command:agentMemory.newMemory']);
  });

  it('the Memories view links the CLI and offers the team database', () => {
    const text = welcome('agentMemory.memories');
    assert.match(text, /\[agent-memory CLI\]\(https:\/\/[^)]+\)/);
    assert.match(text, /\]\(command:agentMemory\.connectTeamDatabase\)/);
  });

  it('the Pending view says in a sentence what waits there, and starts collapsed', () => {
    const text = welcome('agentMemory.pending');
    assert.ok(text.length <= 120, `${text.length} characters: ${text}`);
    assert.equal(text.split('\n').length, 1);
    const pending = Object.values(pkg.contributes.views)
      .flat()
      .find((v) => v.id === 'agentMemory.pending');
    assert.equal(pending?.visibility, 'collapsed');
  });
});
