// `nonolab gmm FILE --column gap_s`: Gaussian mixture on log gap lengths, BIC for 1..4 components, the pause threshold (JSON).
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { fitGmm, gmmSelect, logGaps, pauseThreshold } from '../stats/gmm.ts';
import { intOption, numericColumn, readTidyCsv, runStatsCommand } from '../stats/tidyCsv.ts';
import { commandDescription } from './catalog.ts';

export function registerGmm(program: Command): void {
  program
    .command('gmm')
    .description(commandDescription('gmm'))
    .argument('<file>', 'tidy CSV with a header row')
    .option('--column <name>', 'column of gap lengths in seconds', 'gap_s')
    .option('--components <k>', 'components of the reported fit (the paper: 3)', '3')
    .option('--max-components <k>', 'BIC is reported for 1..k components', '4')
    .option('--seed <n>', 'seed of the k-means++ starts', '1')
    .option('--starts <n>', 'k-means starts per fit (default 5; 1 with --compat sklearn)')
    .option('--compat <name>', "'sklearn': scikit-learn's defaults (tol 1e-3, reg_covar 1e-6, one k-means start)")
    .option('--init-centers <list>', 'comma-separated k-means centres (log seconds) to start the reported fit from, e.g. the cluster_centers_ of the KMeans sklearn ran, to replay its EM path')
    .action((file: string, opts: { column: string; components: string; maxComponents: string; seed: string; starts?: string; compat?: string; initCenters?: string }) =>
      runStatsCommand('gmm', () => {
        if (opts.compat !== undefined && opts.compat !== 'sklearn') throw new Error(`--compat must be 'sklearn', got '${opts.compat}'`);
        const components = intOption(opts.components, '--components', 3);
        const maxComponents = intOption(opts.maxComponents, '--max-components', 4);
        const csv = readTidyCsv(file);
        const { values, dropped } = logGaps(numericColumn(csv, opts.column, true));
        if (dropped) process.stderr.write(`gmm: ${file}: left out ${dropped} empty, zero or negative value(s) of "${opts.column}"\n`);
        const bar = new cliProgress.SingleBar({ stream: process.stderr, format: 'gmm [{bar}] {value}/{total} mixtures', hideCursor: true, noTTYOutput: false }, cliProgress.Presets.shades_classic);
        bar.start(maxComponents, 0);
        const sel = gmmSelect(values, {
          maxComponents: Math.max(maxComponents, components),
          components,
          seed: intOption(opts.seed, '--seed', 1, 0),
          starts: opts.starts === undefined ? undefined : intOption(opts.starts, '--starts', 5),
          compat: opts.compat as 'sklearn' | undefined,
          onProgress: (done) => bar.update(done),
        });
        bar.stop();
        if (opts.initCenters !== undefined) {
          const centers = opts.initCenters.split(',').map((c) => Number(c.trim()));
          if (centers.length !== components || centers.some((c) => !Number.isFinite(c))) throw new Error(`--init-centers needs ${components} numbers, got '${opts.initCenters}'`);
          const fit = fitGmm(values, { components, compat: opts.compat as 'sklearn' | undefined, initCenters: centers });
          sel.components = fit.components;
          sel.threshold_s = pauseThreshold(fit);
          sel.bic[String(components)] = fit.bic;
          sel.delta_bic = sel.bic['1'] - fit.bic;
        }
        return {
          n: sel.n,
          components: sel.components.map((c) => ({ weight: c.weight, mean: c.mean, variance: c.variance })),
          threshold_s: sel.threshold_s,
          bic: sel.bic,
          delta_bic: sel.delta_bic,
        };
      }),
    );
}
