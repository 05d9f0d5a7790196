// Output paths checked before any work (issue 33): a command that would compute for minutes and then fail to write
// its result says so at once, naming the flag. One rule for every command with an output (analyze, phase, generate,
// measure, select, pack, plot-metrics, simulate, from-image): the problem is returned as a message, or null.
import { accessSync, constants, createWriteStream, statSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { dirname, resolve } from 'node:path';

type Kind = 'file' | 'folder' | null;
const kind = (path: string): Kind => {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return null;
  }
};
const writable = (folder: string) => {
  try {
    accessSync(folder, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};

/** `flag file` names a file to write: its folder exists and is writable, and the path itself is not a folder. */
export function outputFileProblem(flag: string, file: string): string | null {
  const folder = dirname(resolve(file));
  if (kind(folder) !== 'folder') return `${flag} ${file}: no folder ${folder}`;
  if (kind(file) === 'folder') return `${flag} ${file}: is a folder, expected a file`;
  if (!writable(folder)) return `${flag} ${file}: cannot write in ${folder}`;
  return null;
}

/** `flag dir` names an output folder: an existing writable folder, or a path one can be made at (its nearest existing ancestor is a writable folder). */
export function outputFolderProblem(flag: string, dir: string): string | null {
  if (kind(dir) === 'file') return `${flag} ${dir}: is a file, expected an output folder`;
  let existing = resolve(dir);
  while (kind(existing) === null && dirname(existing) !== existing) existing = dirname(existing);
  if (kind(existing) !== 'folder') return `${flag} ${dir}: ${existing} is a file, so the output folder cannot be made`;
  if (!writable(existing)) return `${flag} ${dir}: cannot write in ${existing}`;
  return null;
}

/** `flag path` names an input that must exist as a `want` (file or folder). */
export function inputProblem(flag: string, path: string, want: 'file' | 'folder'): string | null {
  const got = kind(path);
  if (got === null) return `${flag} ${path}: no such ${want}`;
  if (got !== want) return `${flag} ${path}: is a ${got}, expected a ${want}`;
  return null;
}

/** The first problem among several outputs (flags whose value is undefined are not given and skipped). */
export function outputFilesProblem(outputs: [flag: string, file: string | undefined][]): string | null {
  for (const [flag, file] of outputs) {
    if (file === undefined) continue;
    const problem = outputFileProblem(flag, file);
    if (problem) return problem;
  }
  return null;
}

/**
 * A command's NDJSON output: the file (`--out`) or stdout. A write error is said once, naming the command and the
 * file (exit code 2); a closed pipe (`| head`) ends the run quietly. `broken()` says the output is gone.
 */
export function openOutput(command: string, file: string | undefined): { out: Writable; broken: () => boolean } {
  const out: Writable = file ? createWriteStream(file) : process.stdout;
  let broken = false;
  out.on('error', (err: NodeJS.ErrnoException) => {
    broken = true;
    if (err.code !== 'EPIPE') {
      console.error(`${command}: cannot write ${file ?? 'stdout'} (${err.message})`);
      process.exitCode = 2;
    }
  });
  return { out, broken: () => broken };
}
