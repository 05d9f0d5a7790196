// `nonolab analyze`: logs + puzzle set -> attempts/participants/puzzles/gaps CSVs, pauses.json, correlations, LMMs, themes, report.html.
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { runAnalysis } from '../pipeline/index.ts';
import { isPostgresUrl, redactUrl } from '../../store/databaseUrl.ts';
import { commandDescription } from './catalog.ts';
import { inputProblem, outputFolderProblem } from './outputPaths.ts';

interface Flags {
  logs?: string;
  database?: string;
  study?: string;
  puzzles: string;
  out: string;
  pauseThreshold: string;
  gapLevel: string;
  skipsHardest?: boolean;
  candidates?: string;
  skipBadSessions?: boolean;
  survival?: boolean;
  includePilot?: boolean;
  codes?: string;
  seed: string;
  report: boolean;
  validate: boolean;
  trajectories: boolean;
}

/** The first input that is not a readable file/folder, or an --out that is not a writable folder (or a path one can be made at). */
function checkPaths(flags: Flags): string | null {
  const inputs: [string, string | undefined, 'file' | 'folder'][] = [
    ['--logs', flags.logs, 'folder'],
    ['--puzzles', flags.puzzles, 'file'],
    ['--codes', flags.codes, 'file'],
    ['--candidates', flags.candidates, 'file'],
  ];
  for (const [flag, path, want] of inputs) {
    const problem = path === undefined ? null : inputProblem(flag, path, want);
    if (problem) return problem;
  }
  return outputFolderProblem('--out', flags.out);
}

export function registerAnalyze(program: Command): void {
  program
    .command('analyze')
    .description(commandDescription('analyze'))
    .option('--logs <dir>', 'logs directory (the server data dir with sessions/, or a folder of .ndjson files)')
    .option('--database <url>', 'instead of --logs: the PostgreSQL store (postgres://…, as NONOLAB_DATABASE_URL) whose events are read directly')
    .option('--study <slug>', 'with --database: the study read, by its slug (default: the first study; a further study has its own tables)')
    .requiredOption('--puzzles <file>', 'study config (study-config/study.json) or a JSON/NDJSON puzzle list with solutions and metrics')
    .requiredOption('--out <dir>', 'output directory')
    .option('--pause-threshold <auto|seconds>', 'pause threshold: auto (Gaussian mixture on log gaps) or seconds', 'auto')
    .option('--gap-level <cell|action>', 'gaps for the pause mixture: cell (each cell of a timed drag stroke is a point in time, as the paper) or action', 'cell')
    .option('--candidates <file>', "the candidate pool the study puzzles were selected from (NDJSON from generate --sat or measure): the paper's Figure 2 in the report")
    .option('--skips-hardest', 'sensitivity: Bradley-Terry again with each unrated skip counted as harder than every rated puzzle of that participant')
    .option('--survival', 'sensitivity: a Cox model of solve time, right-censored at the skip, the time-out or the session end (survival.csv)')
    .option('--skip-bad-sessions', 'a session file that cannot be read or analysed (torn, invalid) is skipped and listed (summary, warnings, report) instead of stopping the run')
    .option('--include-pilot', 'include sessions marked pilot/test (excluded ones stay out)')
    .option('--codes <file>', 'theme coding CSV (participant_id, puzzle_id, codes); default <logs>/codes.csv if present')
    .option('--seed <n>', 'seed of the mixture fit starts', '1')
    .option('--no-report', 'skip report.html')
    .option('--no-trajectories', 'skip trajectories.csv and the strategy tables made from it (its reasoning labels cost about 1 s per 1,000 participants on two threads)')
    .option('--no-validate', 'skip zod validation of every record (faster on huge studies)')
    .action(async (flags: Flags) => {
      if (!flags.logs === !flags.database) {
        console.error(`nonolab analyze: give --logs <dir> or --database <postgres://…>, ${flags.logs ? 'not both' : 'one of them'}`);
        process.exitCode = 2;
        return;
      }
      if (flags.study !== undefined && !flags.database) {
        console.error(`nonolab analyze: --study ${flags.study}: give it with --database (on the embedded store, a study's logs are its folder: --logs DATA_DIR/studies/${flags.study})`);
        process.exitCode = 2;
        return;
      }
      if (flags.database && !isPostgresUrl(flags.database)) {
        console.error(`nonolab analyze: --database: expected postgres://user:password@host:port/database, got '${redactUrl(flags.database)}'`);
        process.exitCode = 2;
        return;
      }
      let threshold: 'auto' | number = 'auto';
      if (flags.pauseThreshold !== 'auto') {
        threshold = Number(flags.pauseThreshold);
        if (!Number.isFinite(threshold) || threshold <= 0) {
          console.error(`nonolab analyze: --pause-threshold: expected 'auto' or a positive number of seconds, got '${flags.pauseThreshold}'`);
          process.exitCode = 2;
          return;
        }
      }
      if (flags.gapLevel !== 'cell' && flags.gapLevel !== 'action') {
        console.error(`nonolab analyze: --gap-level: expected 'cell' or 'action', got '${flags.gapLevel}'`);
        process.exitCode = 2;
        return;
      }
      if (!/^-?\d+$/.test(flags.seed.trim())) {
        console.error(`nonolab analyze: --seed: expected an integer, got '${flags.seed}'`);
        process.exitCode = 2;
        return;
      }
      // Inputs and the output folder are checked before the work, not after it.
      const problem = checkPaths(flags);
      if (problem) {
        console.error(`nonolab analyze: ${problem}`);
        process.exitCode = 2;
        return;
      }
      const bar = new cliProgress.SingleBar({ stream: process.stderr, format: 'analyze {bar} {value}/{total} sessions | {stage}', hideCursor: true }, cliProgress.Presets.shades_classic);
      let total = 0;
      let started = false;
      try {
        const { summary } = await runAnalysis({
          logs: flags.logs,
          database: flags.database,
          study: flags.study,
          puzzles: flags.puzzles,
          out: flags.out,
          pauseThreshold: threshold,
          gapLevel: flags.gapLevel,
          skipsHardest: flags.skipsHardest,
          candidates: flags.candidates,
          skipBadSessions: flags.skipBadSessions,
          survival: flags.survival,
          includePilot: flags.includePilot,
          codes: flags.codes,
          seed: Number(flags.seed),
          report: flags.report,
          validate: flags.validate,
          trajectories: flags.trajectories,
          onFiles: (n) => {
            total = n;
            if (n >= 200) {
              bar.start(n, 0, { stage: 'signals' });
              started = true;
            }
          },
          onSession: (done) => started && done % 50 === 0 && bar.update(done),
          onStage: (stage) => (started ? bar.update(total, { stage }) : process.stderr.write(`analyze: ${stage}\n`)),
        });
        if (started) bar.stop();
        for (const w of summary.warnings) process.stderr.write(`warning: ${w}\n`);
        console.log(JSON.stringify(summary));
      } catch (err) {
        if (started) bar.stop();
        console.error(`nonolab analyze: ${(err as Error).message}`);
        process.exitCode = 2;
      }
    });
}
