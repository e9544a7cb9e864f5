import { open } from 'node:fs/promises';

/**
 * fsyncs a file or a directory by its path: a directory's fsync makes the creation, renaming or
 * removal of its entries durable (a file's own fsync does not).
 */
export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
