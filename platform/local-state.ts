import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export { valuationHome } from '../models/paths';

/** Replaces `file` with `content`, readable by its owner only; readers see the old or the new file, never half. */
export function writePrivateFile(file: string, content: string): void {
  const temporary = writeTemporaryPrivateFile(file, content);
  renameSync(temporary, file);
}

/** Creates `file` with `content` unless it exists; returns false if another writer got there first. */
export function createPrivateFileOnce(file: string, content: string): boolean {
  const temporary = writeTemporaryPrivateFile(file, content);
  try {
    // link() fails if the name exists, so two processes racing cannot both create it.
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temporary);
  }
}

function writeTemporaryPrivateFile(file: string, content: string): string {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600, flag: 'wx' });
  return temporary;
}
