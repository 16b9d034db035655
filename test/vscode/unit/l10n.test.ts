import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tmpDir } from '../../helpers/tmp';

const root = path.join(__dirname, '..', '..', '..');

describe('localisation', () => {
  it('l10n/bundle.l10n.json holds exactly the strings vscode.l10n.t is called with (run `npm run l10n` after changing one)', function () {
    this.timeout(60_000);
    const out = tmpDir();
    execFileSync(
      process.execPath,
      [path.join(root, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js'), 'export', '--outDir', out, path.join(root, 'src')],
      { cwd: root, stdio: 'pipe' },
    );
    const fresh = JSON.parse(fs.readFileSync(path.join(out, 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
    const committed = JSON.parse(fs.readFileSync(path.join(root, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
    assert.ok(Object.keys(fresh).length > 50, `only ${Object.keys(fresh).length} strings found`);
    assert.deepEqual(committed, fresh);
  });
});
