// `nonolab pca FILE [--columns a,b,...]`: PCA on the correlation matrix plus the z-mean composite (JSON).
import type { Command } from 'commander';
import { pca } from '../stats/pca.ts';
import { zMeanComposite } from '../stats/composite.ts';
import { numericColumn, readTidyCsv, requireColumns, runStatsCommand } from '../stats/tidyCsv.ts';
import { commandDescription } from './catalog.ts';

export function registerPca(program: Command): void {
  program
    .command('pca')
    .description(commandDescription('pca'))
    .argument('<file>', 'tidy CSV, one row per participant')
    .option('--columns <list>', 'comma-separated item columns (default: every column)')
    .option('--id <column>', 'an identifier column to leave out of the items and echo in the output')
    .action((file: string, opts: { columns?: string; id?: string }) =>
      runStatsCommand('pca', () => {
        const csv = readTidyCsv(file);
        const columns = opts.columns ? opts.columns.split(',').map((c) => c.trim()).filter(Boolean) : csv.columns.filter((c) => c !== opts.id);
        requireColumns(csv, [...columns, ...(opts.id ? [opts.id] : [])]);
        if (columns.length < 2) throw new Error(`${file}: need at least 2 item columns, got ${columns.length}`);
        const cols = columns.map((c) => numericColumn(csv, c));
        const matrix = csv.rows.map((_, i) => cols.map((c) => c[i]));
        const fit = pca(matrix);
        const comp = zMeanComposite(matrix);
        return {
          n: matrix.length,
          columns,
          components: fit.variances.map((variance, c) => ({
            component: `PC${c + 1}`,
            variance,
            explained: fit.explained[c],
            loadings: Object.fromEntries(columns.map((col, j) => [col, fit.loadings[j][c]])),
          })),
          rows: matrix.map((_, i) => ({
            ...(opts.id ? { id: csv.rows[i][opts.id] } : {}),
            z_mean: comp.composite[i],
            ...Object.fromEntries(fit.scores[i].map((s, c) => [`pc${c + 1}`, s])),
          })),
        };
      }),
    );
}
