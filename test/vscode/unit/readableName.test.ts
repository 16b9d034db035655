import { strict as assert } from 'node:assert';
import { readableName } from '../../../src/vscode/shared/readableName';

describe('readable names for tabs', () => {
  it('are the words of the text, lower case, joined by "-", cut at a word', () => {
    assert.equal(readableName('Use pnpm, not npm, in this repo!', 'memory'), 'use-pnpm-not-npm-in-this-repo');
    assert.equal(
      readableName('Jest ESM transform fails with "Cannot use import statement outside a module"', 'memory'),
      'jest-esm-transform-fails-with-cannot-use-import',
    );
    assert.ok(readableName('x'.repeat(10) + ' ' + 'y'.repeat(60), 'memory').length <= 48);
  });

  it('keep letters of any script, never a path character, and fall back when there are no words', () => {
    assert.equal(readableName('Ünïcode: ビルド キャッシュ', 'memory'), 'ünïcode-ビルド-キャッシュ');
    assert.equal(readableName('../etc/passwd?x#y', 'memory'), 'etc-passwd-x-y');
    assert.equal(readableName('—!?', 'memory'), 'memory');
    assert.equal(readableName('z'.repeat(80), 'memory'), 'z'.repeat(48));
  });
});
