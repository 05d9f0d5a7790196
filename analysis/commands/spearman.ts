// `nonolab spearman FILE --x COL --y COL`: Spearman's rho, SciPy's t-approximation p and the exact permutation p for n <= 9 (JSON).
import type { Command } from 'commander';
import { spearman, spearmanUndefinedReason } from '../stats/spearman.ts';
import { numericColumn, readTidyCsv, runStatsCommand } from '../stats/tidyCsv.ts';
import { commandDescription } from './catalog.ts';

export function registerSpearman(program: Command): void {
  program
    .command('spearman')
    .description(commandDescription('spearman'))
    .argument('<file>', 'tidy CSV with a header row')
    .requiredOption('--x <column>', 'first column')
    .requiredOption('--y <column>', 'second column')
    .action((file: string, opts: { x: string; y: string }) =>
      runStatsCommand('spearman', () => {
        const csv = readTidyCsv(file);
        const xs = numericColumn(csv, opts.x, true), ys = numericColumn(csv, opts.y, true);
        const keep = xs.map((v, i) => Number.isFinite(v) && Number.isFinite(ys[i]));
        const dropped = keep.filter((k) => !k).length;
        if (dropped) process.stderr.write(`spearman: ${file}: left out ${dropped} row(s) with a missing value\n`);
        const x = xs.filter((_, i) => keep[i]), y = ys.filter((_, i) => keep[i]);
        const r = spearman(x, y);
        const reason = spearmanUndefinedReason(r, opts.x, opts.y, x, y);
        if (reason) {
          process.stderr.write(`spearman: ${file}: ${reason}\n`);
          return { n: r.n, rho: null, p: null, p_exact: null, reason };
        }
        return { n: r.n, rho: r.rho, p: r.p, p_exact: r.p_exact };
      }),
    );
}
