// A puzzle file of a kind other than Nonogram (a Sudoku collection, our Sudoku records): read by its kind's module
// (shared/puzzles/). The Nonogram paths of the commands stay as they are (their outputs are pinned by golden tests);
// each command asks this first and, when the file is another kind's, runs its kind-generic version.
import { readFileSync } from 'node:fs';
import { kindOfText, nonogram, puzzleKind, UnknownKindError, type PuzzleKind } from '../shared/puzzles/index.ts';

export interface KindFile {
  kind: PuzzleKind<any>;
  records: any[];
}

/**
 * The kind named by `--kind`, or null for a bad name (the message printed, exit code 2). Undefined stays undefined.
 */
export function kindFlag(command: string, value: string | undefined): PuzzleKind<any> | undefined | null {
  if (value === undefined) return undefined;
  try {
    return puzzleKind(value);
  } catch (err) {
    if (!(err instanceof UnknownKindError)) throw err;
    console.error(`${command}: --kind: ${err.message}`);
    process.exitCode = 2;
    return null;
  }
}

/**
 * The file's records when it holds another kind than Nonogram (named by `--kind`, else inferred from the file), 'error'
 * after printing why it cannot be read as that kind (exit code 2), or null when it is a Nonogram file (or unreadable:
 * the Nonogram path says so, as it always has).
 */
export function otherKindFile(command: string, file: string, flag?: string): KindFile | 'error' | null {
  const named = kindFlag(command, flag);
  if (named === null) return 'error';
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    // Unreadable: the Nonogram path says so as it always has, unless another kind was named.
    if (!named || named === nonogram) return null;
    console.error(`${command}: ${file}: cannot read (${(err as Error).message})`);
    process.exitCode = 2;
    return 'error';
  }
  const kind = named ?? kindOfText(text, file);
  if (kind === nonogram) return null;
  try {
    const records = kind.parseFile(text, file);
    if (records.length === 0) throw new Error(`${file}: no puzzle in the file`);
    return { kind, records };
  } catch (err) {
    console.error(`${command}: ${(err as Error).message} (read as ${kind.name}${named ? ', --kind' : ''})`);
    process.exitCode = 2;
    return 'error';
  }
}

/** Run `fn` on a record; an Error it throws is printed naming the command and the kind (exit code 2), false returned. */
export function tryRecord(command: string, fn: () => void, kind?: PuzzleKind<any>): boolean {
  try {
    fn();
    return true;
  } catch (err) {
    console.error(`${command}: ${(err as Error).message}${kind ? ` (${kind.name})` : ''}`);
    process.exitCode = 2;
    return false;
  }
}
