// `nonolab lmm FILE --formula "y ~ a * b + (1|g1) + (1|g2)"`: linear mixed model as lme4 + lmerTest fit it (JSON).
import type { Command } from 'commander';
import { fitLmm } from '../stats/lmm.ts';
import { readTidyCsv, runStatsCommand } from '../stats/tidyCsv.ts';
import { commandDescription } from './catalog.ts';

export function registerLmm(program: Command): void {
  program
    .command('lmm')
    .description(commandDescription('lmm'))
    .argument('<file>', 'tidy CSV with a header row (rows with an empty/NA value in a used column are left out)')
    .requiredOption('--formula <formula>', 'R formula, e.g. "difficulty ~ conflicts * expertise + (1|participant) + (1|puzzle)"')
    .option('--ml', 'maximum likelihood instead of REML')
    .action((file: string, opts: { formula: string; ml?: boolean }) =>
      runStatsCommand('lmm', () => {
        const csv = readTidyCsv(file);
        let fit;
        try {
          fit = fitLmm(csv.rows, opts.formula, { reml: !opts.ml });
        } catch (err) {
          // A formula that does not parse is the flag's fault, not the file's.
          const message = (err as Error).message;
          throw new Error(message.startsWith('formula:') ? `--formula${message.slice('formula'.length)}` : `${file}: ${message}`);
        }
        if (fit.n < csv.rows.length) process.stderr.write(`lmm: ${file}: left out ${csv.rows.length - fit.n} row(s) with missing values\n`);
        return {
          fixed: fit.fixed,
          variances: fit.variances,
          ...(fit.reml ? { reml_criterion: fit.criterion } : { deviance: fit.criterion }),
        };
      }),
    );
}
