// The report's "Strategy" section (issue 37): the strategy measures by puzzle and by expertise, their Spearman correlations with the solver's measures and with expertise, and small multiples of picked attempts.
import type { TopLevelSpec } from 'vega-lite';
import type { StrategyPick, StrategyResult } from './strategyAnalysis.ts';
import { STRATEGY_MEASURES } from './strategyAnalysis.ts';

const esc = (s: unknown) => String(s ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Cell size of the small multiples (px): a three-digit order number at 7 px fits inside. */
const CELL = 16;
const CLASS_COLOURS = { forced: '#9ecae1', guess: '#fcae91', given: '#bdbdbd', 'not marked': '#f1f3f5' } as const;

/** The small multiples of one kind's picks: one board per pick (rows: puzzles; columns: fastest, median, slowest), each cell numbered by the order of its first mark. */
export function boardsFigure(picks: readonly StrategyPick[]): TopLevelSpec {
  const values: Record<string, unknown>[] = [];
  for (const p of picks) {
    const order = new Map<number, number>();
    const guess = new Map<number, boolean>();
    p.marks.cells.forEach((cell, k) => {
      order.set(cell, k + 1);
      guess.set(cell, p.marks.guess[k] === 1);
    });
    const given = new Set(p.givens);
    for (let i = 0; i < p.width * p.height; i++) {
      const k = order.get(i);
      values.push({
        puzzle: p.puzzle_id,
        which: p.which,
        row: Math.floor(i / p.width),
        col: i % p.width,
        order: k ?? null,
        class: given.has(i) ? 'given' : k === undefined ? 'not marked' : guess.get(i) ? 'guess' : 'forced',
      });
    }
  }
  const width = Math.max(...picks.map((p) => p.width));
  const height = Math.max(...picks.map((p) => p.height));
  const present = new Set(values.map((v) => v.class));
  const classes = Object.keys(CLASS_COLOURS).filter((c) => present.has(c));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: {
      row: { field: 'puzzle', type: 'nominal', title: null, header: { labelAngle: 0, labelAlign: 'left' } },
      column: { field: 'which', type: 'nominal', title: null, sort: ['fastest', 'median', 'slowest'] },
    },
    spacing: 12,
    spec: {
      width: width * CELL,
      height: height * CELL,
      encoding: {
        x: { field: 'col', type: 'ordinal', axis: null, scale: { domain: Array.from({ length: width }, (_, i) => i) } },
        y: { field: 'row', type: 'ordinal', axis: null, scale: { domain: Array.from({ length: height }, (_, i) => i) } },
      },
      layer: [
        {
          mark: { type: 'rect', stroke: '#ffffff', strokeWidth: 1 },
          encoding: { color: { field: 'class', type: 'nominal', title: 'first mark', scale: { domain: classes, range: classes.map((c) => CLASS_COLOURS[c as keyof typeof CLASS_COLOURS]) } } },
        },
        {
          transform: [{ filter: 'datum.order !== null' }],
          mark: { type: 'text', fontSize: 7, color: '#222' },
          encoding: { text: { field: 'order', type: 'quantitative' } },
        },
      ],
    },
  } as TopLevelSpec;
}

function fmt(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : '';
  return String(v);
}

function table(rows: readonly Record<string, unknown>[], columns: readonly string[], id?: string): string {
  const head = columns.map((c) => `<th>${esc(c).replace(/_/g, '_<wbr>')}</th>`).join('');
  const body = rows.map((r) => `<tr>${columns.map((c) => `<td>${esc(fmt(r[c]))}</td>`).join('')}</tr>`).join('\n');
  return `<table${id ? ` id="${id}"` : ''}><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

const KIND_NAME: Record<string, string> = { nonogram: 'Nonogram', sudoku: 'Sudoku' };

/** The section's HTML, with its figures rendered to SVG. */
export async function strategySection(s: StrategyResult, kinds: readonly string[], render: (spec: TopLevelSpec) => Promise<string>): Promise<string> {
  const K = kinds.length === 1 && kinds[0] === 'nonogram' ? [] : ['kind'];
  const measures = [...STRATEGY_MEASURES];
  const timeColumns = [...new Set(s.puzzles.flatMap((p) => Object.keys(p).filter((k) => k.startsWith('mean_time_'))))];
  const boards: string[] = [];
  for (const kind of kinds) {
    const picks = s.picks.filter((p) => p.kind === kind);
    if (!picks.length) continue;
    const svg = await render(boardsFigure(picks));
    boards.push(`<figure id="fig-strategy-boards-${kind}"><figcaption>${K.length ? `${KIND_NAME[kind] ?? kind}: ` : ''}the fastest, median and slowest attempt of each puzzle, each cell numbered by the order of the participant's first mark in it (blue: forced by the ladder on their board; red: a guess)</figcaption>${svg}</figure>`);
  }
  const picks = s.picks.map((p) => ({ ...p, marks: p.marks.cells.length }));
  return `<h2 id="strategy">Strategy</h2>
<p>Each attempt's cell changes (<code>trajectories.csv</code>) labelled by the weakest reasoning that forces them on the participant's own board just before them${kinds.includes('nonogram') ? ' (a Nonogram: overlap, line, two-lines, probing, or guess)' : ''}${kinds.includes('sudoku') ? ' (a Sudoku: the technique ladder of its hints and grades, naked-single to xy-wing, or guess)' : ''}, summarised per attempt in <code>strategy.csv</code>: <code>share_guess</code> (changes forced by nothing), <code>share_easy</code> (${kinds.includes('nonogram') ? 'a Nonogram\'s line family: overlap, line, two-lines' : ''}${kinds.length > 1 ? '; ' : ''}${kinds.includes('sudoku') ? 'a Sudoku\'s singles' : ''}), <code>mean_rung</code> (the mean ladder rung of the forced changes), <code>backtracks</code> (changes setting a cell back to a value it held), and <code>first_on_foothold</code>: the paper's Figure 6 rule, the participant's first change lies on a foothold (${kinds.includes('nonogram') ? 'a Nonogram row or column its clue alone determines: an empty clue, or runs filling the line exactly' : ''}${kinds.length > 1 ? '; ' : ''}${kinds.includes('sudoku') ? 'a Sudoku cell a single places on the givens' : ''}). Line order (a defined statistic): <i>row-major</i> when at least 3/4 of consecutive marks go forward in reading order and at least half stay in their row; else <i>foothold-driven</i> when at least 3/4 of the first quarter of marks lie on footholds and that share is above the board's own; else <i>scattered</i> (under four marks: none).</p>
<h3>By puzzle</h3>
${table(s.puzzles, [...K, 'puzzle_id', 'attempts', 'bt_score', ...measures, 'row_major', 'foothold_driven', 'scattered'], 'strategy-puzzles')}
<p>Mean seconds of the gaps before the changes of each level (time spent per level), per attempt:</p>
${table(s.puzzles, [...K, 'puzzle_id', ...timeColumns], 'strategy-time')}
<h3>By expertise</h3>
${s.expertise.length ? table(s.expertise, [...K, 'expertise', 'participants', 'attempts', ...measures, 'row_major', 'foothold_driven', 'scattered'], 'strategy-expertise') : '<p>No participant has an expertise score.</p>'}
<h3>Against the solver's measures and expertise (Spearman)</h3>
<p>Rows <code>strategy_metric</code>: each metric of the puzzles against each measure's puzzle mean, Spearman ρ over the puzzles with its exact permutation p (the paper's Table 1 statistics); rows <code>strategy_expertise</code>: expertise against the participant's mean of each measure (Table 3's). All of it is in <code>strategy_correlations.csv</code>.</p>
${table(s.correlations as unknown as Record<string, unknown>[], [...K, 'table', 'x', 'y', 'n', 'rho', 'p', 'p_exact'], 'strategy-correlations')}
${s.notes.length ? `<details><summary>${s.notes.length} correlation(s) undefined or left out</summary><ul>${s.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul></details>` : ''}
<h3>Attempts drawn</h3>
<p>The attempts below are chosen by one rule: ${esc(s.rule)}.</p>
${table(picks as unknown as Record<string, unknown>[], [...K, 'puzzle_id', 'which', 'participant_id', 'time_s', 'outcome', 'marks'], 'strategy-picks')}
${boards.join('\n')}
`;
}
