// `nonolab simulate`: bot participants play a study, straight to NDJSON files or through a running server's API.
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { join } from 'node:path';
import { loadStudyConfig, ConfigError } from '../../node/studyConfig.ts';
import { metricOf } from '../metric.ts';
import { plantedMetricName, simulateToDir, simulateToServer, type SimulateOptions } from '../simulate/index.ts';
import { commandDescription } from './catalog.ts';
import { outputFolderProblem } from './outputPaths.ts';

interface Flags {
  participants: string;
  seed: string;
  server?: string;
  out?: string;
  config: string;
  metric?: string;
  bMetric?: string;
  bSkill?: string;
  bInteraction?: string;
  concurrency: string;
}

function int(name: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name}: expected an integer >= ${min}, got '${value}'`);
  return n;
}
function num(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new Error(`--${name}: expected a number, got '${value}'`);
  return n;
}

export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description(commandDescription('simulate'))
    .requiredOption('--participants <n>', 'number of bot participants')
    .requiredOption('--seed <s>', 'seed (same seed, same study)')
    .option('--server <url>', 'play through a running server (POST /api/sessions, /api/session/events, /check, /hint, /complete)')
    .option('--out <dir>', 'write DIR/sessions/<id>.ndjson in the server record format (with --server: only codes.csv and truth.json)')
    .option('--config <file>', 'study config (must be the server’s with --server)', join(import.meta.dirname, '..', '..', 'study-config', 'study.json'))
    .option('--metric <name>', "the puzzle metric the ratings depend on: <source>_<key> such as sat_conflicts, human_level, minimal_conflicts (old spellings conflicts, level accepted); default: each puzzle kind's, sat_conflicts for Nonograms, minimal_conflicts for Sudoku")
    .option('--b-metric <x>', 'planted effect of the standardised metric on the rating')
    .option('--b-skill <x>', 'planted effect of skill on the rating')
    .option('--b-interaction <x>', 'planted metric x skill interaction')
    .option('--concurrency <n>', 'sessions played at once with --server', '4')
    .action(async (flags: Flags) => {
      try {
        if (!flags.server && !flags.out) throw new Error('give --out DIR (NDJSON files) or --server URL (real API)');
        const participants = int('participants', flags.participants, 1);
        const seed = int('seed', flags.seed, 0);
        const concurrency = int('concurrency', flags.concurrency, 1);
        // The output folder is checked before any session is played.
        const outProblem = flags.out === undefined ? null : outputFolderProblem('--out', flags.out);
        if (outProblem) throw new Error(outProblem);
        const study = loadStudyConfig(flags.config);
        const bar = new cliProgress.SingleBar({ stream: process.stderr, format: 'simulate {bar} {value}/{total} sessions | {eta_formatted} left', hideCursor: true }, cliProgress.Presets.shades_classic);
        const showBar = participants >= 50 && process.stderr.isTTY !== undefined;
        if (showBar) bar.start(participants, 0);
        const opts: SimulateOptions = {
          participants,
          seed,
          study,
          metric: flags.metric === undefined ? undefined : metricOf(flags.metric).name,
          effect: { b_metric: num('b-metric', flags.bMetric), b_skill: num('b-skill', flags.bSkill), b_interaction: num('b-interaction', flags.bInteraction) },
          onProgress: (done) => showBar && bar.update(done),
        };
        for (const k of Object.keys(opts.effect!) as (keyof NonNullable<SimulateOptions['effect']>)[]) if (opts.effect![k] === undefined) delete opts.effect![k];
        const truth = flags.server ? await simulateToServer(opts, flags.server, flags.out, concurrency) : simulateToDir(opts, flags.out!);
        if (showBar) bar.stop();
        console.log(JSON.stringify({ participants, seed, mode: flags.server ? 'server' : 'ndjson', out: flags.out ?? null, server: flags.server ?? null, metric: plantedMetricName(study.config.puzzles, flags.metric), effect: truth?.effect ?? null }));
      } catch (err) {
        if (!(err instanceof ConfigError) && !(err instanceof Error)) throw err;
        console.error(`nonolab simulate: ${(err as Error).message}`);
        process.exitCode = 2;
      }
    });
}
