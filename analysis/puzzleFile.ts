// The CLI's one puzzle loader: any puzzle file the engine parses (JSON, NDJSON, .non, webpbn XML) or a study config (its puzzles).
import { readFileSync } from 'node:fs';
import type { Puzzle } from '../shared/schema/puzzle.ts';
import { parsePuzzleFile, PuzzleFormatError } from '../shared/nonogram/index.ts';
import { ConfigError, loadStudyConfig, type LoadedStudy } from '../node/studyConfig.ts';
import { PuzzleKindError, nonogramsOnly } from '../shared/schema/config.ts';

/** The file cannot be read, or is neither a puzzle file nor a valid study config; the message names the file (and line and field). */
export class PuzzleFileError extends Error {}

/** A study config is a JSON object with `phases` (and `puzzles`); everything else goes to the format parsers. */
export function looksLikeConfig(text: string): boolean {
  if (!text.trimStart().startsWith('{')) return false;
  try {
    const raw = JSON.parse(text) as unknown;
    return raw !== null && typeof raw === 'object' && !Array.isArray(raw) && 'phases' in raw;
  } catch {
    return false;
  }
}

/**
 * The puzzles of `file`, with the study config when the file is one (its `puzzles`, validated with the whole config).
 * Throws PuzzleFileError (unreadable file, invalid config) or the parser's PuzzleFormatError (file, line, field).
 */
export function readPuzzleFile(file: string): { puzzles: Puzzle[]; study: LoadedStudy | null } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new PuzzleFileError(`${file}: cannot read (${(err as Error).message})`);
  }
  if (looksLikeConfig(text)) {
    try {
      const study = loadStudyConfig(file);
      return { puzzles: nonogramsOnly(study.config.puzzles, 'this command'), study };
    } catch (err) {
      if (err instanceof ConfigError) throw new PuzzleFileError(err.message);
      if (err instanceof PuzzleKindError) throw new PuzzleFileError(`${file}: ${err.message}`);
      throw err;
    }
  }
  return { puzzles: parsePuzzleFile(text, file), study: null };
}

/** readPuzzleFile for a command: on error prints the message, sets exit code 2 and returns null. */
export function loadPuzzles(file: string): Puzzle[] | null {
  try {
    return readPuzzleFile(file).puzzles;
  } catch (err) {
    if (!(err instanceof PuzzleFileError || err instanceof PuzzleFormatError)) throw err;
    console.error(err.message);
    process.exitCode = 2;
    return null;
  }
}
