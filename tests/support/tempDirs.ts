// Temporary directories made by tests and their helpers: removed when the test file ends (tests/support/cleanup.ts,
// a vitest setup file), so test runs do not leave data directories behind in the system's temporary folder. The
// benchmarks remove their own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = new Set<string>();

/** A fresh directory under the system's temporary folder, removed after the current test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  // (A test server's close() resolves only once its SQLite checkpoint thread has exited, so nothing writes into a data
  // directory while it is removed.)
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}
