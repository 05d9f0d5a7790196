// `nonolab plan --analysis DIR --candidates FILE --measures a,b`: the power of a study to tell two measures apart, by simulation from the model the study fitted (analysis/plan.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { parseCsv } from '../csv.ts';
import { metricOf } from '../metric.ts';
import { readPuzzleFile } from '../puzzleFile.ts';
import { planPower, type PlanModel } from '../plan.ts';
import { intOption, runStatsCommand } from '../stats/tidyCsv.ts';
import { commandDescription } from './catalog.ts';

interface PlanFlags { analysis: string; candidates: string; measures: string; puzzles?: string; participants?: string; perParticipant?: string; scale: string; reps: string; boot: string; seed: string }

function readTable(dir: string, name: string): Record<string, string>[] {
  const file = join(dir, name);
  if (!existsSync(file)) throw new Error(`${file} not found: give --analysis the output directory of \`nonolab analyze\``);
  return parseCsv(readFileSync(file, 'utf8'), name);
}

export function registerPlan(program: Command): void {
  program
    .command('plan')
    .description(commandDescription('plan'))
    .requiredOption('--analysis <dir>', 'the output directory of `nonolab analyze` (its measures.csv and participants.csv)')
    .requiredOption('--candidates <file>', 'the puzzle pool a follow-up study would draw from (any puzzle file or a study config; a Nonogram without metrics.sat_gac gets it computed)')
    .requiredOption('--measures <a,b>', 'the two measures: a drives the simulated ratings (its fitted Table 2 model), b is its rival')
    .option('--puzzles <list>', 'numbers of puzzles per simulated study, comma-separated (default: 6,12,24 where the pool has them)')
    .option('--participants <n>', "participants per simulated study (default: the analysed study's)")
    .option('--per-participant <k>', 'puzzles each participant rates (default: all of the study puzzles)')
    .option('--scale <max>', 'the rating scale is 1..max', '5')
    .option('--reps <n>', 'simulated studies per number of puzzles', '200')
    .option('--boot <n>', 'bootstrap replicates inside each simulated study', '200')
    .option('--seed <n>', 'seed: the same arguments give the same numbers', '1')
    .action((flags: PlanFlags) =>
      runStatsCommand('plan', () => {
        const names = flags.measures.split(',').map((s) => s.trim()).filter(Boolean);
        if (names.length !== 2) throw new Error(`--measures takes two measures, a,b; got '${flags.measures}'`);
        const [a, b] = names.map((n) => metricOf(n).name) as [string, string];
        if (a === b) throw new Error(`--measures: the two measures are the same (${a})`);
        const rows = readTable(flags.analysis, 'measures.csv');
        const row = rows.find((r) => r.measure === a && r.target === 'mean_difficulty');
        if (!row) throw new Error(`${join(flags.analysis, 'measures.csv')} has no row for ${a} (a measure constant over the study's puzzles, or missing on some, is left out of the comparison; measures there: ${[...new Set(rows.map((r) => r.measure))].join(', ')})`);
        const num = (k: string) => {
          const v = Number(row[k]);
          if (row[k] === '' || !Number.isFinite(v)) throw new Error(`measures.csv: ${a} has no fitted ${k} (its Table 2 model did not fit)`);
          return v;
        };
        const model: PlanModel = { intercept: num('lmm_intercept'), measure: num('lmm_measure'), expertise: num('lmm_expertise'), interaction: num('lmm_interaction'), var_participant: num('var_participant'), var_puzzle: num('var_puzzle'), var_residual: num('var_residual') };
        const people = readTable(flags.analysis, 'participants.csv').filter((p) => p.included === 'true' && p.expertise !== '' && Number.isFinite(Number(p.expertise)));
        const expertise = people.map((p) => Number(p.expertise));
        const candidates = readPuzzleFile(flags.candidates).puzzles;
        const participants = intOption(flags.participants, '--participants', expertise.length, 2);
        const puzzles = flags.puzzles ? flags.puzzles.split(',').map((s) => intOption(s.trim(), '--puzzles', 6, 3)) : [6, 12, 24].filter((n) => n <= candidates.length);
        const perParticipant = flags.perParticipant === undefined ? undefined : intOption(flags.perParticipant, '--per-participant', 1, 2);
        const out = planPower({ measures: [a, b], model, expertise, candidates, puzzles, participants, perParticipant, scale: intOption(flags.scale, '--scale', 5, 2), reps: intOption(flags.reps, '--reps', 200), boot: intOption(flags.boot, '--boot', 200), seed: intOption(flags.seed, '--seed', 1, 0) });
        return { measures: [a, b], model, rule: 'told apart: the 95% bootstrap intervals (over participants) of the two measures\' rho with mean rated difficulty do not overlap', rows: out };
      }),
    );
}
