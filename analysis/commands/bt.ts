// `nonolab bt FILE`: Bradley-Terry log-abilities, SEs and ranks from ratings (participant,item,rating) or pairs (winner,loser[,weight][,tie]).
import type { Command } from 'commander';
import { tiedRanks } from '../pipeline/analyze.ts';
import { bradleyTerry, pairsFromRatings, type ComparisonInput } from '../stats/bradleyTerry.ts';
import { numericColumn, readTidyCsv, requireColumns, runStatsCommand } from '../stats/tidyCsv.ts';
import { commandDescription } from './catalog.ts';

export function registerBt(program: Command): void {
  program
    .command('bt')
    .description(commandDescription('bt'))
    .argument('<file>', 'tidy CSV: columns participant,item,rating (within-participant pairs are formed) or, with --pairs, winner,loser[,weight][,tie]')
    .option('--pairs', 'the file holds comparisons, not ratings')
    .option('--ties <model>', "'half' (a tie is half a win each) or 'davidson'", 'half')
    .action((file: string, opts: { pairs?: boolean; ties: string }) =>
      runStatsCommand('bt', () => {
        if (opts.ties !== 'half' && opts.ties !== 'davidson') throw new Error(`--ties must be 'half' or 'davidson', got '${opts.ties}'`);
        const csv = readTidyCsv(file);
        let pairs: ComparisonInput[];
        if (opts.pairs) {
          requireColumns(csv, ['winner', 'loser']);
          const weights = csv.columns.includes('weight') ? numericColumn(csv, 'weight') : null;
          pairs = csv.rows.map((r, i) => {
            const tieCell = (r.tie ?? '').trim().toLowerCase();
            if (!['', '0', '1', 'true', 'false'].includes(tieCell)) throw new Error(`${file}: line ${i + 2}: field "tie" must be 0/1/true/false, got "${r.tie}"`);
            if (!r.winner?.trim() || !r.loser?.trim()) throw new Error(`${file}: line ${i + 2}: field "${r.winner?.trim() ? 'loser' : 'winner'}" is empty`);
            return { winner: r.winner.trim(), loser: r.loser.trim(), weight: weights ? weights[i] : 1, tie: tieCell === '1' || tieCell === 'true' };
          });
        } else {
          requireColumns(csv, ['participant', 'item', 'rating']);
          const ratings = numericColumn(csv, 'rating', true);
          const rows = csv.rows.map((r, i) => ({ participant: r.participant, item: r.item, rating: ratings[i] })).filter((r) => Number.isFinite(r.rating));
          if (rows.length < csv.rows.length) process.stderr.write(`bt: ${file}: left out ${csv.rows.length - rows.length} row(s) without a rating\n`);
          pairs = pairsFromRatings(rows);
          process.stderr.write(`bt: ${pairs.length} within-participant comparisons, ${pairs.filter((p) => p.tie).length} ties\n`);
        }
        const fit = bradleyTerry(pairs, { ties: opts.ties });
        if (fit.nu !== undefined) process.stderr.write(`bt: Davidson tie parameter nu = ${fit.nu}\n`);
        const tied = tiedRanks(fit);
        if (tied) process.stderr.write(`bt: warning: ${tied}\n`);
        return { items: fit.items.map(({ item, log_ability, se, rank }) => ({ item, log_ability, se, rank })) };
      }),
    );
}
