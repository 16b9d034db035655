import * as fs from 'node:fs';
import * as path from 'node:path';

/** fsync a directory so a create or rename in it survives a crash (a no-op where unsupported). */
export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some platforms (Windows) cannot open or fsync a directory; the rename is still atomic there.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** writeSync may write less than asked; loop until every byte is out. */
export function writeAll(fd: number, data: Uint8Array | string): void {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  for (let done = 0; done < buf.length;) done += fs.writeSync(fd, buf, done, buf.length - done);
}

/**
 * Replaces `file` whole or not at all: writes a temp file next to it, fdatasyncs it, and
 * renames it over `file` (then fsyncs the folder) if `commit()` still agrees; otherwise
 * (or when anything fails) the temp file is removed. Returns whether the file was replaced.
 */
export function writeFileAtomic(
  file: string,
  data: Uint8Array | string | Iterable<Uint8Array | string>,
  commit: () => boolean = () => true,
): boolean {
  const tmp = `${file}.tmp-${process.pid}-${Date.now()}`;
  const fd = fs.openSync(tmp, 'w');
  try {
    if (typeof data === 'string' || data instanceof Uint8Array) writeAll(fd, data);
    else for (const chunk of data) writeAll(fd, chunk);
    fs.fdatasyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  if (!commit()) {
    fs.rmSync(tmp, { force: true });
    return false;
  }
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    // E.g. `file` is a folder: the temp file must not stay behind beside it.
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  syncDir(path.dirname(file));
  return true;
}
