// The puzzle set for analysis: a study config or a puzzle list (JSON/NDJSON), with SAT metrics computed where missing.
import { existsSync, readFileSync } from 'node:fs';
import { StudyConfig, describeIssues } from '../../shared/schema/config.ts';
import { ConfigError, loadStudyConfig } from '../../node/studyConfig.ts';
import type { LoadedStudy } from '../../shared/study/config.ts';
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import { PuzzleFormatError } from '../../shared/nonogram/index.ts';
import { satMetricsRecord } from '../../shared/sat/metrics.ts';
import { sudoku } from '../../shared/puzzles/sudoku.ts';
import type { SudokuBoard } from '../../shared/sudoku/schema.ts';
import { PuzzleFileError, looksLikeConfig, readPuzzleFile } from '../puzzleFile.ts';

export interface PuzzleSet {
  /** Study puzzles (a config's pool, or every puzzle of a list). */
  puzzles: Puzzle[];
  /** Tutorial and warmup puzzles (config only). */
  practice: Puzzle[];
  config: StudyConfig | null;
  config_hash: string | null;
  /** Puzzle ids whose SAT metrics were computed here (absent from the file). */
  computed: string[];
}

export class PuzzleSetError extends Error {}

/** Fill metrics.sat / metrics.sat_dfa (MiniSat 2.2 statistics on the block-start and DFA encodings) where absent; a Sudoku's metrics.sat_minimal / sat_extended. */
export function withSatMetrics(puzzles: readonly Puzzle[]): { puzzles: Puzzle[]; computed: string[] } {
  const computed: string[] = [];
  const out = puzzles.map((p): Puzzle => {
    if ((p as unknown as { kind?: string }).kind === 'sudoku') {
      // A Sudoku: MiniSat on its two encodings (metrics.sat_minimal, metrics.sat_extended), through the kind's module.
      const m = p.metrics as Record<string, unknown> | undefined;
      if (m?.sat_minimal && m?.sat_extended) return p;
      computed.push(p.id);
      const blocks = sudoku.satMetrics(p as unknown as SudokuBoard);
      return { ...p, metrics: { ...(p.metrics ?? {}), ...Object.fromEntries(Object.entries(blocks).map(([k, v]) => [k, m?.[k] ?? { ...v }])) } };
    }
    if (p.metrics?.sat && p.metrics?.sat_dfa) return p;
    computed.push(p.id);
    const rec = satMetricsRecord({ rows: p.rows, cols: p.cols });
    const metrics: NonNullable<Puzzle['metrics']> = { ...(p.metrics ?? {}), sat: p.metrics?.sat ?? { ...rec.sat }, sat_dfa: p.metrics?.sat_dfa ?? { ...rec.sat_dfa } };
    return { ...p, metrics };
  });
  return { puzzles: out, computed };
}

/** Read --puzzles FILE: a study config (has `phases`) or a puzzle list (any format readPuzzleFile takes); every study puzzle needs its solution. */
export function loadPuzzleSet(file: string): PuzzleSet {
  let read: { puzzles: Puzzle[]; study: LoadedStudy | null };
  try {
    // A study config holds puzzles of any kind (the analysis works within each kind: byKind.ts); a puzzle list is Nonograms.
    read = existsSync(file) && looksLikeConfig(readFileSync(file, 'utf8')) ? { puzzles: [], study: loadStudyConfig(file) } : readPuzzleFile(file);
  } catch (err) {
    if (err instanceof PuzzleFileError) throw new PuzzleSetError(err.message);
    if (err instanceof ConfigError) throw new PuzzleSetError(err.message);
    if (err instanceof PuzzleFormatError) throw new PuzzleSetError(`${file}: ${err.message}`);
    throw err;
  }
  const { study } = read;
  // (records of any kind, typed as the Nonogram record the tables were written for: the code that reads a kind's own
  // fields asks kindOfPuzzle first)
  const anyKind = (ps: StudyConfig['puzzles']) => ps as unknown as Puzzle[];
  const set: PuzzleSet = study
    ? { puzzles: anyKind(study.config.puzzles), practice: anyKind(study.config.practice_puzzles), config: study.config, config_hash: study.hash, computed: [] }
    : { puzzles: read.puzzles, practice: [], config: null, config_hash: null, computed: [] };
  if (set.puzzles.length === 0) throw new PuzzleSetError(`${file}: no puzzle in the file (give the study config, or the puzzle list the study used)`);
  set.puzzles.forEach((p, i) => {
    if (!p.solution) throw new PuzzleSetError(`${file}: puzzle ${i} ('${p.id}'): solution is required to count errors`);
  });
  const filled = withSatMetrics(set.puzzles);
  return { ...set, puzzles: filled.puzzles, computed: filled.computed };
}

export { StudyConfig, describeIssues };
