// Every offline command: its name, its one-line description and the arguments its help shows. The top-level
// `nonolab --help` is printed from this list alone, and a command's module (with everything it imports: the SAT
// solver, the statistics, the server's store, ...) is loaded only when that command runs (loaders.ts), so the CLI
// starts in about the time node itself takes. Each command module takes its description from here
// (commandDescription); catalog.test.ts checks `usage` against each loaded command. One entry per command module.

export interface CommandEntry {
  description: string;
  /** The arguments as the command's help shows them after its name, e.g. "[options] <files...>". */
  usage: string;
}

export const COMMANDS = {
  'validate-config': {
    description: 'validate a study config file (phases, puzzles, surveys) and print its hash',
    usage: '<file>',
  },
  sat: {
    description: 'solve DIMACS CNF files; prints {file,result,conflicts,decisions,propagations,restarts,time_ms} per file',
    usage: '[options] <files...>',
  },
  cnf: {
    description: 'write the CNF encoding of a puzzle as DIMACS (a Nonogram: cells are variables r*C+c+1; a Sudoku: x(r,c,v) = r*N*N+c*N+v, minimal or extended)',
    usage: '[options] <puzzle>',
  },
  infer: {
    description: 'list the cells forced filled and forced empty (SAT under the assumption of each value); one JSON line per puzzle',
    usage: '[options] <puzzle>',
  },
  measure: {
    description: 'add metrics.sat (block-start, MiniSat 2.2.0 statistics), metrics.sat_dfa and missing metrics.human to puzzles; NDJSON out',
    usage: '[options] <file>',
  },
  select: {
    description: 'pick six study puzzles: the 2 lowest, 2 nearest the median and 2 highest (top 5% excluded) by a metric, as the paper did',
    usage: '[options]',
  },
  'plot-metrics': {
    description: 'histogram of a SAT metric over measured puzzles, with the paper-scheme selection marked; SVG',
    usage: '[options] <file>',
  },
  phase: {
    description: "Foote & Krizanc's phase transition: inferable cells (forced filled and forced empty) and solver effort vs density on random boards, with the size-wise threshold",
    usage: '[options]',
  },
  gmm: {
    description: 'fit 1-D Gaussian mixtures to the natural log of a gap column (seconds); prints {n, components, threshold_s, bic, delta_bic}',
    usage: '[options] <file>',
  },
  bt: {
    description: "Bradley-Terry by Hunter's MM; prints {items: [{item, log_ability, se, rank}]} (log-abilities sum to 0; rank 1 = largest, e.g. hardest)",
    usage: '[options] <file>',
  },
  lmm: {
    description: 'linear mixed model with random intercepts (REML by default); prints {fixed: [{term, estimate, se, df, t, p}], variances, reml_criterion | deviance}',
    usage: '[options] <file>',
  },
  spearman: {
    description: 'Spearman rank correlation (average ranks); prints {n, rho, p, p_exact}',
    usage: '[options] <file>',
  },
  pca: {
    description: 'principal components of the correlation matrix (as prcomp(scale. = TRUE), each component signed so its loadings sum > 0) and the z-mean composite (z with the n - 1 SD)',
    usage: '[options] <file>',
  },
  simulate: {
    description: 'play a study with seeded bot participants (skill drives speed, pauses, errors, hints, skips and ratings)',
    usage: '[options]',
  },
  analyze: {
    description: 'analyse a study: NDJSON logs + puzzle set -> tables (CSV/JSON) and a self-contained report.html',
    usage: '[options]',
  },
  trajectories: {
    description: 'one CSV row per cell change of every attempt, in order (time, gap, error, stroke, board share), each labelled by the weakest reasoning forcing it (overlap, line, two-lines, probing, guess) and backtracking marked; streamed session by session',
    usage: '[options]',
  },
  generate: {
    description: 'generate uniquely solvable random Nonograms (exactly round(density*W*H) filled cells, or --bernoulli) or, with --kind sudoku, minimal Sudoku (both grades); with human metrics; NDJSON, one puzzle per line',
    usage: '[options]',
  },
  solve: {
    description: 'count the solutions of puzzles (up to --count), exactly; one JSON line per puzzle: {id,width,height,solutions,complete,time_ms,settled_by,solution,second?}',
    usage: '[options] <files...>',
  },
  'from-image': {
    description: 'turn a picture (PNG, JPEG, WebP, SVG, GIF, TIFF, AVIF) into a uniquely solvable Nonogram by the fewest cell changes the search finds; one puzzle record (JSON) with changed_cells',
    usage: '[options] <file>',
  },
  plan: {
    description: 'power to tell two puzzle measures apart (their rho intervals with rated difficulty do not overlap), by simulating studies from the fitted model, for each number of puzzles; JSON',
    usage: '[options]',
  },
  pack: {
    description: "assemble a study's puzzle set from generated, imported (.non, webpbn XML, JSON) and picture (from-image) puzzles: ids, metrics, easiest first; into a study config with --config",
    usage: '[options] <files...>',
  },
  migrate: {
    description: 'copy a data directory (SQLite + NDJSON: every study and the registry of studies and accounts) into PostgreSQL: idempotent, resumable, verified by counts and hashes',
    usage: '[options]',
  },
  study: {
    description: "the studies of the server's data directory or database: `study add CONFIG --slug SLUG [--owner NAME] [--viewer NAME]` serves one more at /s/SLUG/, `study list` lists them",
    usage: '',
  },
  user: {
    description: 'experimenter accounts of the server: `user add NAME [--admin]` (the password from standard input or --password-file, never an argument)',
    usage: '',
  },
} as const satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof COMMANDS;

export const isCommandName = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

/** A command's description (its module's `.description(...)`, and the top-level help's line). */
export function commandDescription(name: CommandName): string {
  return COMMANDS[name].description;
}
