// `nonolab trajectories --logs DIR [--puzzles FILE]`: trajectories.csv alone (one row per cell change, labelled by its reasoning), streamed session by session.
import { createWriteStream, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { outputFileProblem } from './outputPaths.ts';
import { basename, dirname, join } from 'node:path';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import { UnknownPuzzleError, attemptStrategies, parseSessionNdjson, sessionTrajectory, strategyColumns, type SignalPuzzle, type StrategyKind } from '../../shared/signals/index.ts';
import { signalPuzzleOf } from '../pipeline/analyze.ts';
import { looksLikeConfig } from '../puzzleFile.ts';
import { ConfigError, defaultStudyConfigPath, loadStudyConfig } from '../../node/studyConfig.ts';
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import { toCsv } from '../csv.ts';
import { TRAJECTORY_HEADER, trajectoryCsvBody } from '../pipeline/extract.ts';
import { sessionFiles } from '../pipeline/io.ts';
import { readPuzzleFile } from '../puzzleFile.ts';
import { commandDescription } from './catalog.ts';

interface Flags {
  logs: string;
  puzzles?: string;
  session?: string;
  puzzle?: string;
  out?: string;
  gapLevel: string;
  validate: boolean;
  summary?: boolean;
}

/** Rows as CSV lines without the header. */
function csvBody(rows: readonly object[], columns: readonly string[]): string {
  if (rows.length === 0) return '';
  const text = toCsv(rows as Record<string, unknown>[], columns);
  return text.slice(text.indexOf('\n') + 1);
}

/** The study puzzles with their solutions, by id (a puzzle without one cannot be labelled: an error naming it). */
function puzzlesOf(file: string): Map<string, SignalPuzzle> {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // (readPuzzleFile says why)
  }
  if (looksLikeConfig(text)) {
    // A study config holds puzzles of any kind (a Sudoku's trajectory is labelled by its own ladder).
    let config;
    try {
      config = loadStudyConfig(file).config;
    } catch (err) {
      if (err instanceof ConfigError) throw new Error(err.message);
      throw err;
    }
    if (config.puzzles.length === 0) throw new Error(`${file}: no puzzle in the file (give the study config, or the puzzle list the study used)`);
    return new Map(config.puzzles.map((p) => [p.id, signalPuzzleOf(p as unknown as Puzzle)]));
  }
  const { puzzles } = readPuzzleFile(file);
  if (puzzles.length === 0) throw new Error(`${file}: no puzzle in the file (give the study config, or the puzzle list the study used)`);
  const map = new Map<string, SignalPuzzle>();
  puzzles.forEach((p, i) => {
    if (!p.solution) throw new Error(`${file}: puzzle ${i} ('${p.id}'): solution is required for trajectories`);
    map.set(p.id, { id: p.id, width: p.width, height: p.height, solution: p.solution });
  });
  return map;
}

/** The files to read: with --session, its own file when the logs name files by session (else every file, filtered as read). */
function filesOf(logs: string, session: string | undefined): string[] {
  const files = sessionFiles(logs);
  if (session === undefined) return files;
  const own = join(dirname(files[0]), `${session}.ndjson`);
  return existsSync(own) ? [own] : files;
}

async function write(stream: Writable, text: string): Promise<void> {
  if (text && !stream.write(text)) await once(stream, 'drain');
}

export function registerTrajectories(program: Command): void {
  program
    .command('trajectories')
    .description(commandDescription('trajectories'))
    .requiredOption('--logs <dir>', 'logs directory (the server data dir with sessions/, or a folder of .ndjson files)')
    .option('--puzzles <file>', "study config or a JSON/NDJSON puzzle list with solutions (default: the study the server runs, $NONOLAB_CONFIG or study-config/study.json)")
    .option('--session <id>', 'only this session')
    .option('--puzzle <id>', "only this puzzle's attempts")
    .option('--out <file>', 'write the CSV here (default: standard output)')
    .option('--gap-level <cell|action>', 'gap_ms as the pause rule takes it: cell (each cell of a timed drag is a point in time) or action', 'cell')
    .option('--summary', "instead of the changes, one row per attempt: its strategy (changes per reasoning label and their shares, backtracks, time per level, the first change and whether it is on a foothold line)")
    .option('--no-validate', 'skip zod validation of every record (faster on huge studies)')
    .action(async (flags: Flags) => {
      if (flags.gapLevel !== 'cell' && flags.gapLevel !== 'action') {
        console.error(`nonolab trajectories: --gap-level: expected 'cell' or 'action', got '${flags.gapLevel}'`);
        process.exitCode = 2;
        return;
      }
      // The output is checked first, and written beside its place until the run succeeds: a run that stops on a bad
      // session log leaves no file behind.
      const outProblem = flags.out === undefined ? null : outputFileProblem('--out', flags.out);
      if (outProblem) {
        console.error(`nonolab trajectories: ${outProblem}`);
        process.exitCode = 2;
        return;
      }
      let puzzles: Map<string, SignalPuzzle>;
      let files: string[];
      // Without --puzzles, the study the server runs (defaultStudyConfigPath, as server/main.ts): its puzzles carry their
      // solutions. A log of another study names a puzzle this one lacks, an error saying to give --puzzles.
      const puzzleFile = flags.puzzles ?? defaultStudyConfigPath();
      try {
        if (flags.puzzles === undefined && !existsSync(puzzleFile)) throw new Error(`--puzzles: not given, and the default study config ${puzzleFile} is missing: give the study config or puzzle list the study used`);
        puzzles = puzzlesOf(puzzleFile);
        if (flags.puzzle !== undefined && !puzzles.has(flags.puzzle)) throw new Error(`--puzzle ${flags.puzzle}: not a puzzle of ${puzzleFile}`);
        files = filesOf(flags.logs, flags.session);
      } catch (err) {
        console.error(`nonolab trajectories: ${(err as Error).message}`);
        process.exitCode = 2;
        return;
      }
      const partial = flags.out ? `${flags.out}.partial-${process.pid}` : null;
      const stream: Writable = partial ? createWriteStream(partial) : process.stdout;
      let sessions = 0;
      let rows = 0;
      try {
        const kinds = [...new Set([...puzzles.values()].map((p): StrategyKind => (p.kind === 'sudoku' ? 'sudoku' : 'nonogram')))];
        const strategyCols = strategyColumns(kinds);
        await write(stream, flags.summary ? `${strategyCols.join(',')}\n` : TRAJECTORY_HEADER);
        for (const file of files) {
          const text = readFileSync(file, 'utf8');
          if (text.trim() === '') continue;
          const log = parseSessionNdjson(text, file, { validate: flags.validate });
          if (flags.session !== undefined && log.session_id !== flags.session) continue;
          if (log.marks.includes('excluded')) continue;
          let trajectory;
          try {
            trajectory = sessionTrajectory(log, puzzles, { gapLevel: flags.gapLevel, puzzleId: flags.puzzle });
          } catch (err) {
            if (flags.puzzles === undefined && err instanceof UnknownPuzzleError) throw new Error(`${err.message} (the default study config ${puzzleFile}; give --puzzles with the study config or puzzle list these logs' study used)`);
            throw err;
          }
          sessions++;
          if (flags.summary) {
            const strategies = attemptStrategies(trajectory, puzzles);
            rows += strategies.length;
            await write(stream, csvBody(strategies, strategyCols));
          } else {
            rows += trajectory.length;
            await write(stream, trajectoryCsvBody(trajectory as unknown as Record<string, unknown>[]));
          }
        }
        if (flags.session !== undefined && sessions === 0) throw new Error(`--session ${flags.session}: no such session in ${flags.logs}`);
      } catch (err) {
        console.error(`nonolab trajectories: ${(err as Error).message}`);
        process.exitCode = 2;
      } finally {
        if (partial) {
          stream.end();
          await once(stream, 'close');
          if (process.exitCode === 2) rmSync(partial, { force: true });
          else renameSync(partial, flags.out!);
        }
      }
      if (flags.out && process.exitCode !== 2) process.stderr.write(`trajectories: ${rows} ${flags.summary ? 'attempts' : 'changes'} of ${sessions} session(s) -> ${basename(flags.out)}\n`);
    });
}
