// `nonolab generate --size 10x10 --density 0.5 --count 1000 --seed 7 [--out FILE] [--bernoulli] [--sat] [--timeout-per-candidate S]`: uniquely solvable puzzles as NDJSON.
import type { Writable } from 'node:stream';
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { GenerateOptions, iteratePuzzles } from '../../shared/nonogram/index.ts';
import type { GenerateHooks } from '../../shared/nonogram/index.ts';
import { availableParallelism } from 'node:os';
import { withSatMetrics } from '../sat/parallelMetrics.ts';
import { commandDescription } from './catalog.ts';
import { kindFlag } from '../kindFile.ts';
import { runGenerateKind } from './generateKind.ts';
import { openOutput, outputFileProblem } from './outputPaths.ts';

interface GenerateFlags {
  kind?: string;
  box?: string;
  symmetric?: boolean;
  clues?: string;
  size: string;
  density: string;
  count: string;
  seed: string;
  out?: string;
  bernoulli?: boolean;
  maxCandidates?: string;
  sat?: boolean;
  encodings?: string;
  timeoutPerCandidate?: string;
  threads?: string;
  method?: string;
}

/** Parse and check the flags; returns the options or a message naming the bad flag. */
export function generateOptionsFromFlags(flags: GenerateFlags): GenerateOptions | string {
  const size = /^(\d+)x(\d+)$/i.exec(flags.size.trim());
  if (!size) return `--size must look like WIDTHxHEIGHT (e.g. 10x10), got '${flags.size}'`;
  const density = Number(flags.density);
  const count = Number(flags.count);
  const seed = Number(flags.seed);
  const options = {
    width: Number(size[1]),
    height: Number(size[2]),
    density,
    count,
    seed,
    bernoulli: flags.bernoulli ?? false,
    ...(flags.maxCandidates !== undefined ? { max_candidates: Number(flags.maxCandidates) } : {}),
    ...(flags.timeoutPerCandidate !== undefined ? { timeout_per_candidate: Number(flags.timeoutPerCandidate) * 1000 } : {}),
    ...(flags.method !== undefined && flags.method !== 'reject' ? { method: flags.method } : {}),
  };
  if (flags.method !== undefined && flags.method !== 'reject' && flags.method !== 'perturb') return `--method must be reject or perturb, got '${flags.method}'`;
  const parsed = GenerateOptions.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const flag = { width: '--size', height: '--size', density: '--density', count: '--count', seed: '--seed', max_candidates: '--max-candidates', timeout_per_candidate: '--timeout-per-candidate' }[String(issue.path[0])] ?? String(issue.path[0]);
    return `${flag}: ${issue.message}`;
  }
  if (parsed.data.density === 0 || parsed.data.density === 1) {
    // Density 0 or 1 has one puzzle at most; fine, but say so if more were asked for.
    if (parsed.data.count > 1) return `--density ${parsed.data.density} allows only one distinct puzzle; use --count 1`;
  }
  return parsed.data;
}

/** 75 -> '1m15s', 4000 -> '1h06m'. */
function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

function write(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (stream.write(text)) resolve();
    else {
      stream.once('drain', resolve);
      stream.once('error', reject);
    }
  });
}

export function registerGenerate(program: Command): void {
  program
    .command('generate')
    .description(commandDescription('generate'))
    .option('--kind <kind>', 'nonogram (the default) or sudoku')
    .option('--size <WxH>', 'grid size, width x height (a Sudoku: NxN, default 9x9)', '10x10')
    .option('--density <d>', 'fraction of filled cells, 0..1', '0.5')
    .option('--count <n>', 'number of puzzles', '1000')
    .option('--seed <n>', 'integer seed: same seed and arguments, byte-identical output', '1')
    .option('--out <file>', 'write NDJSON here instead of stdout')
    .option('--bernoulli', 'fill each cell independently with probability density')
    .option('--max-candidates <n>', 'give up after this many random grids')
    .option('--sat', 'add metrics.sat and metrics.sat_dfa (MiniSat 2.2.0 statistics, block-start and DFA encodings)')
    .option('--encodings <set>', "with --sat: paper (block-start and DFA, as the paper measured) or all (also line-GAC: metrics.sat_gac, as measure --encodings all; a Sudoku: both of its encodings either way)", 'paper')
    .option('--method <name>', 'reject (keep random grids whose clues are unique: the paper\'s distribution) or perturb (make each random grid unique by the fewest changes found; metrics.perturb.changes counts them)', 'reject')
    .option('--timeout-per-candidate <seconds>', 'skip (and count) a candidate whose uniqueness check takes longer than this (output then depends on machine speed)')
    .option('--box <RxC>', 'sudoku: the box shape, rows x cols (default: 2x2 for 4x4, 2x3 for 6x6, 3x3, 3x4 for 12x12, 4x4)')
    .option('--symmetric', 'sudoku: 180-degree rotational symmetry of the givens, keeping the grade of the human ladder')
    .option('--clues <n>', 'sudoku: stop removing givens at this many (default: a minimal puzzle)')
    .option('--threads <n>', 'with --sat: worker threads solving the SAT metrics (1: this thread only; same output either way) (default: the number of cores, 1 below 100 puzzles)')
    .action(async (flags: GenerateFlags, command: Command) => {
      const kind = kindFlag('generate', flags.kind);
      if (kind === null) return;
      if (flags.encodings !== 'paper' && flags.encodings !== 'all') {
        console.error(`generate: --encodings must be paper or all, got '${flags.encodings}'`);
        process.exitCode = 2;
        return;
      }
      if (flags.encodings === 'all' && !flags.sat) {
        console.error('generate: --encodings all is for --sat (the solver statistics it stores)');
        process.exitCode = 2;
        return;
      }
      // The output is checked before any puzzle is generated, not when the first one is written.
      const outProblem = flags.out === undefined ? null : outputFileProblem('--out', flags.out);
      if (outProblem) {
        console.error(`generate: ${outProblem}`);
        process.exitCode = 2;
        return;
      }
      if (kind && kind.id !== 'nonogram') return runGenerateKind(flags, command.getOptionValueSource('size') !== 'default');
      for (const [flag, given] of [['--box', flags.box], ['--symmetric', flags.symmetric], ['--clues', flags.clues]] as const)
        if (given !== undefined) {
          console.error(`generate: ${flag} is for --kind sudoku`);
          process.exitCode = 2;
          return;
        }
      const options = generateOptionsFromFlags(flags);
      if (typeof options === 'string') {
        console.error(`generate: ${options}`);
        process.exitCode = 2;
        return;
      }
      const threads = flags.threads === undefined ? (options.count >= 100 ? availableParallelism() : 1) : Number(flags.threads);
      if (!Number.isInteger(threads) || threads < 1 || threads > 64) {
        console.error(`generate: --threads: expected an integer from 1 to 64, got '${flags.threads}'`);
        process.exitCode = 2;
        return;
      }
      const output = openOutput('generate', flags.out);
      const out = output.out;
      let broken = false;
      out.on('error', () => (broken = true));
      // The bar counts candidates as well as puzzles, so it moves on big boards where a unique
      // puzzle can take many candidates; the ETA is ours: remaining puzzles at the rate so far.
      const bar = new cliProgress.SingleBar(
        {
          stream: process.stderr,
          format: 'generate [{bar}] {value}/{total} puzzles | {candidates} candidates, {acceptance}% unique{skips} | {rate} puzzles/s | ETA {remaining}',
          noTTYOutput: !process.stderr.isTTY,
          notTTYSchedule: 5000,
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      );
      const t0 = process.hrtime.bigint();
      const clock = () => Number(process.hrtime.bigint() - t0) / 1e6;
      const payload = (p: { accepted: number; candidates: number; skipped: number; target: number }) => {
        const secs = clock() / 1000;
        const remaining = p.target - p.accepted;
        let eta = '?';
        if (remaining === 0) eta = '0s';
        else if (p.accepted > 0) eta = formatDuration((secs / p.accepted) * remaining);
        else if (p.candidates > 0) eta = `> ${formatDuration(secs)}`;
        return {
          candidates: p.candidates,
          acceptance: p.candidates ? ((100 * p.accepted) / p.candidates).toFixed(1) : '0.0',
          skips: p.skipped ? `, ${p.skipped} skipped (timeout)` : '',
          rate: secs > 0 ? (p.accepted / secs).toFixed(1) : '0.0',
          remaining: eta,
        };
      };
      let lastProgress = { accepted: 0, candidates: 0, skipped: 0, target: options.count };
      bar.start(options.count, 0, payload(lastProgress));
      const hooks: GenerateHooks = {
        onProgress: (p) => {
          lastProgress = { ...p };
          bar.update(p.accepted, payload(p));
        },
        now: clock,
      };
      const generated = iteratePuzzles(options, hooks);
      const puzzles = flags.sat ? withSatMetrics(generated, threads, 20, flags.encodings as 'paper' | 'all') : generated;
      let lastYield = Date.now();
      let written = 0;
      for (let step = await puzzles.next(); !step.done && !broken; step = await puzzles.next()) {
        try {
          await write(out, JSON.stringify(step.value) + '\n');
        } catch (err) {
          // A closed pipe (e.g. `| head`) ends the run quietly; other write errors are reported by the handler.
          broken = true;
          if ((err as NodeJS.ErrnoException).code !== 'EPIPE') throw err;
          break;
        }
        written++;
        if (Date.now() - lastYield > 50) {
          // Let the terminal redraw and the stream flush.
          await new Promise((resolve) => setImmediate(resolve));
          lastYield = Date.now();
        }
      }
      await puzzles.return?.(undefined as never); // ends the SAT workers if the output closed early
      bar.stop();
      if (out !== process.stdout) await new Promise<void>((resolve) => out.end(resolve));
      if (lastProgress.skipped > 0) console.error(`generate: ${lastProgress.skipped} of ${lastProgress.candidates} candidates skipped after --timeout-per-candidate ${flags.timeoutPerCandidate}`);
      if (written < options.count && !broken) {
        console.error(`generate: stopped after --max-candidates ${options.max_candidates}: ${written} of ${options.count} puzzles`);
        process.exitCode = 1;
      }
    });
}
