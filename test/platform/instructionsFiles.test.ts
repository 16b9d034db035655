import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { BEGIN_MARKER, END_MARKER, instructionsBlock, newInstructionsFile } from '../../src/core/agentInstructions';
import { writeInstructionsFiles } from '../../src/platform/instructionsFiles';
import { tmpDir } from '../helpers/tmp';

const COPILOT = path.join('.github', 'instructions', 'agent-memory.instructions.md');

/** Every file under `dir`, relative, with its bytes: what a test compares before and after. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = fs.readFileSync(file).toString('base64');
  }
  return out;
}

describe('instructions files in a workspace folder', () => {
  it('creates .github/instructions/ and the files asked for, and reports what it did', () => {
    const root = tmpDir();
    const results = writeInstructionsFiles(root, ['copilot', 'agents']);
    assert.deepEqual(results, [
      { target: 'copilot', file: path.join(root, COPILOT), outcome: 'created' },
      { target: 'agents', file: path.join(root, 'AGENTS.md'), outcome: 'created' },
    ]);
    assert.equal(fs.readFileSync(path.join(root, COPILOT), 'utf8'), newInstructionsFile('copilot'));
    assert.equal(fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8'), newInstructionsFile('agents'));
    assert.ok(!fs.existsSync(path.join(root, 'CLAUDE.md')), 'CLAUDE.md was not asked for');
    assert.deepEqual(Object.keys(tree(root)).sort(), [COPILOT, 'AGENTS.md'].sort(), 'no temp file is left behind');
  });

  it("updates in place, keeping the person's text byte for byte, and touches nothing on a second run", () => {
    const root = tmpDir();
    const file = path.join(root, 'CLAUDE.md');
    const before = '# House rules\r\n\r\nUse pnpm.\r\n';
    const after = '\r\n## Later notes\r\nKeep.\r\n';
    fs.writeFileSync(file, `${before}${BEGIN_MARKER}\r\nstale text\r\n${END_MARKER}${after}`);
    assert.equal(writeInstructionsFiles(root, ['claude'])[0]!.outcome, 'updated');
    assert.equal(fs.readFileSync(file, 'utf8'), `${before}${instructionsBlock('\r\n')}${after}`);

    const stat = fs.statSync(file);
    const again = writeInstructionsFiles(root, ['claude']);
    assert.equal(again[0]!.outcome, 'unchanged');
    assert.equal(fs.statSync(file).ino, stat.ino, 'an up-to-date file was rewritten');
  });

  it('refuses bad markers in one file before writing any, naming the file', () => {
    const root = tmpDir();
    fs.writeFileSync(path.join(root, 'AGENTS.md'), `mine\n${BEGIN_MARKER}\nnever closed\n`);
    const before = tree(root);
    assert.throws(() => writeInstructionsFiles(root, ['copilot', 'agents']), /^ValidationError: AGENTS\.md: has 1 .* and 0 /);
    assert.deepEqual(tree(root), before, 'a file was written although one was refused');
    assert.ok(!fs.existsSync(path.join(root, '.github')), 'the Copilot folder was created although AGENTS.md was refused');
  });

  it('refuses a file that is not UTF-8, whose bytes a rewrite would change', () => {
    const root = tmpDir();
    const latin1 = Buffer.from('Caf\xe9 rules\n', 'latin1');
    fs.writeFileSync(path.join(root, 'AGENTS.md'), latin1);
    assert.throws(() => writeInstructionsFiles(root, ['agents']), /AGENTS\.md: is not UTF-8 text/);
    assert.ok(fs.readFileSync(path.join(root, 'AGENTS.md')).equals(latin1));
  });

  it('refuses a folder where a file should be, writing nothing', () => {
    const root = tmpDir();
    fs.mkdirSync(path.join(root, 'AGENTS.md'));
    fs.writeFileSync(path.join(root, 'AGENTS.md', 'keep'), 'x');
    const before = tree(root);
    assert.throws(() => writeInstructionsFiles(root, ['copilot', 'agents']), /EISDIR/);
    assert.deepEqual(tree(root), before);
  });

  it('leaves the old file whole and no temp file behind when the final rename fails', () => {
    const root = tmpDir();
    const file = path.join(root, 'AGENTS.md');
    fs.writeFileSync(file, 'mine\n');
    const before = tree(root);
    // The module object the sources call through (they are compiled to CommonJS), not this file's namespace import.
    const nodeFs = createRequire(__filename)('node:fs') as typeof fs;
    const rename = nodeFs.renameSync;
    nodeFs.renameSync = () => {
      throw Object.assign(new Error('EXDEV: simulated'), { code: 'EXDEV' });
    };
    try {
      assert.throws(() => writeInstructionsFiles(root, ['agents']), /simulated/);
    } finally {
      nodeFs.renameSync = rename;
    }
    assert.deepEqual(tree(root), before);
  });
});
