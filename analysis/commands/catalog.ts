// Every offline command: its name, its one-line description and the arguments its help shows, and how to load it. The
// top-level `nonolab --help` is printed from this list alone, and a command's module (with everything it imports:
// the SAT solver, the statistics, the server's store, ...) is loaded only when that command runs, so the CLI starts
// in about the time node itself takes. Each command module takes its description from here (commandDescription);
// tests/cli.test.ts checks that `usage` is what the loaded command's help shows. Add one entry per command module.
import type { Command } from 'commander';

export interface CommandEntry {
  description: string;
  /** The arguments as the command's help shows them after its name, e.g. "[options] <files...>". */
  usage: string;
  /** The command's register function, from its module (loaded on first use). */
  load: () => Promise<(program: Command) => void>;
}

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  'validate-config': {
    description: 'validate a study config file (phases, puzzles, surveys) and print its hash',
    usage: '<file>',
    load: async () => (await import('./validateConfig.ts')).registerValidateConfig,
  },
  sat: {
    description: 'solve DIMACS CNF files; prints {file,result,conflicts,decisions,propagations,restarts,time_ms} per file',
    usage: '[options] <files...>',
    load: async () => (await import('./sat.ts')).registerSat,
  },
  cnf: {
    description: 'write the CNF encoding of a Nonogram as DIMACS (cells are variables r*C+c+1)',
    usage: '[options] <puzzle>',
    load: async () => (await import('./cnf.ts')).registerCnf,
  },
  infer: {
    description: 'list the cells forced filled and forced empty (SAT under the assumption of each value); one JSON line per puzzle',
    usage: '[options] <puzzle>',
    load: async () => (await import('./infer.ts')).registerInfer,
  },
  measure: {
    description: 'add metrics.sat (block-start, MiniSat 2.2.0 statistics), metrics.sat_dfa and missing metrics.human to puzzles; NDJSON out',
    usage: '[options] <file>',
    load: async () => (await import('./measure.ts')).registerMeasure,
  },
  select: {
    description: 'pick six study puzzles: the 2 lowest, 2 nearest the median and 2 highest (top 5% excluded) by a metric, as the paper did',
    usage: '[options]',
    load: async () => (await import('./select.ts')).registerSelect,
  },
  'plot-metrics': {
    description: 'histogram of a SAT metric over measured puzzles, with the paper-scheme selection marked; SVG',
    usage: '[options] <file>',
    load: async () => (await import('./plotMetrics.ts')).registerPlotMetrics,
  },
  phase: {
    description: "Foote & Krizanc's phase transition: inferable cells (forced filled and forced empty) and solver effort vs density on random boards, with the size-wise threshold",
    usage: '[options]',
    load: async () => (await import('./phase.ts')).registerPhase,
  },
  gmm: {
    description: 'fit 1-D Gaussian mixtures to the natural log of a gap column (seconds); prints {n, components, threshold_s, bic, delta_bic}',
    usage: '[options] <file>',
    load: async () => (await import('./gmm.ts')).registerGmm,
  },
  bt: {
    description: "Bradley-Terry by Hunter's MM; prints {items: [{item, log_ability, se, rank}]} (log-abilities sum to 0; rank 1 = largest, e.g. hardest)",
    usage: '[options] <file>',
    load: async () => (await import('./bt.ts')).registerBt,
  },
  lmm: {
    description: 'linear mixed model with random intercepts (REML by default); prints {fixed: [{term, estimate, se, df, t, p}], variances, reml_criterion | deviance}',
    usage: '[options] <file>',
    load: async () => (await import('./lmm.ts')).registerLmm,
  },
  spearman: {
    description: 'Spearman rank correlation (average ranks); prints {n, rho, p, p_exact}',
    usage: '[options] <file>',
    load: async () => (await import('./spearman.ts')).registerSpearman,
  },
  pca: {
    description: 'principal components of the correlation matrix (as prcomp(scale. = TRUE), each component signed so its loadings sum > 0) and the z-mean composite (z with the n - 1 SD)',
    usage: '[options] <file>',
    load: async () => (await import('./pca.ts')).registerPca,
  },
  simulate: {
    description: 'play a study with seeded bot participants (skill drives speed, pauses, errors, hints, skips and ratings)',
    usage: '[options]',
    load: async () => (await import('./simulate.ts')).registerSimulate,
  },
  analyze: {
    description: 'analyse a study: NDJSON logs + puzzle set -> tables (CSV/JSON) and a self-contained report.html',
    usage: '[options]',
    load: async () => (await import('./analyze.ts')).registerAnalyze,
  },
  generate: {
    description: 'generate uniquely solvable random Nonograms (exactly round(density*W*H) filled cells, or --bernoulli) with human metrics; NDJSON, one puzzle per line',
    usage: '[options]',
    load: async () => (await import('./generate.ts')).registerGenerate,
  },
  solve: {
    description: 'count the solutions of puzzles (up to --count), exactly; one JSON line per puzzle: {id,width,height,solutions,complete,time_ms,settled_by,solution,second?}',
    usage: '[options] <files...>',
    load: async () => (await import('./solve.ts')).registerSolve,
  },
  'from-image': {
    description: 'turn a picture (PNG, JPEG, WebP, SVG, GIF, TIFF, AVIF) into a uniquely solvable Nonogram by the fewest cell changes the search finds; one puzzle record (JSON) with changed_cells',
    usage: '[options] <file>',
    load: async () => (await import('./fromImage.ts')).registerFromImage,
  },
  pack: {
    description: "assemble a study's puzzle set from generated, imported (.non, webpbn XML, JSON) and picture (from-image) puzzles: ids, metrics, easiest first; into a study config with --config",
    usage: '[options] <files...>',
    load: async () => (await import('./pack.ts')).registerPack,
  },
  migrate: {
    description: 'copy a study from its data directory (SQLite + NDJSON) into PostgreSQL: idempotent, resumable, verified by counts and hashes',
    usage: '[options]',
    load: async () => (await import('./migrate.ts')).registerMigrate,
  },
};

/** A command's description (its module's `.description(...)`, and the top-level help's line). */
export function commandDescription(name: string): string {
  const entry = COMMANDS[name];
  if (!entry) throw new Error(`no command '${name}' in analysis/commands/catalog.ts`);
  return entry.description;
}
