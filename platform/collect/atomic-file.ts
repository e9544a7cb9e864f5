/** Files replaced whole: a reader (or a run restarted after a crash) sees the old content or the new, never half. */
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';

/** `content` may be a generator: a large state is written line by line, never held whole. */
export function writeFileAtomically(file: string, content: string | Iterable<string>): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    for (const chunk of typeof content === 'string' ? [content] : content) writeSync(fd, chunk);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}
