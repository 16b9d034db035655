import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const made: string[] = [];

/** A fresh temporary folder, removed after the test run. */
export function tmpDir(prefix = 'am-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

after(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});
