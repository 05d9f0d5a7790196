// The report's "Strategy" section (issue 37): the strategy measures by puzzle and by expertise, their Spearman correlations with the solver's measures and with expertise, and small multiples of picked attempts (HTML boards).
import type { StrategyPick, StrategyResult } from './strategyAnalysis.ts';
import { STRATEGY_MEASURES } from './strategyAnalysis.ts';

const esc = (s: unknown) => String(s ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const BOARD_CSS = [
  'table.multiples td,table.multiples th{border:none;vertical-align:top;text-align:left}',
  'table.board{border-collapse:collapse;margin:0}',
  'table.board td{border:1px solid #fff;width:16px;min-width:16px;height:16px;padding:0;font-size:7px;text-align:center;line-height:16px}',
  '.who{font-size:.7rem;color:#555}.key{display:inline-block;width:.8em;height:.8em;margin:0 .2em 0 .6em;vertical-align:middle}',
].join('');

/** Fill of each cell class on the small multiples. */
const CLASS_COLOURS = { forced: '#9ecae1', guess: '#fcae91', given: '#bdbdbd', 'not marked': '#f1f3f5' } as const;

/**
 * One picked attempt's board as an HTML grid (a board, not a chart: a table of cells, each filled by the class of its
 * first mark and numbered by that mark's order; drawing 1,800 cells through Vega cost the report about 0.5 s).
 */
export function boardHtml(p: StrategyPick): string {
  const order = new Map<number, number>();
  const guess = new Map<number, boolean>();
  p.marks.cells.forEach((cell, k) => {
    order.set(cell, k + 1);
    guess.set(cell, p.marks.guess[k] === 1);
  });
  const given = new Set(p.givens);
  const rows: string[] = [];
  for (let r = 0; r < p.height; r++) {
    let tr = '';
    for (let c = 0; c < p.width; c++) {
      const i = r * p.width + c;
      const k = order.get(i);
      const cls = given.has(i) ? 'given' : k === undefined ? 'not marked' : guess.get(i) ? 'guess' : 'forced';
      tr += `<td style="background:${CLASS_COLOURS[cls]}">${k ?? ''}</td>`;
    }
    rows.push(`<tr>${tr}</tr>`);
  }
  return `<table class="board" data-puzzle="${esc(p.puzzle_id)}" data-which="${p.which}">${rows.join('')}</table>`;
}

/** The small multiples of one kind's picks: one row per puzzle, its fastest, median and slowest attempt side by side. */
export function boardsHtml(picks: readonly StrategyPick[]): string {
  const puzzles = [...new Set(picks.map((p) => p.puzzle_id))];
  const head = `<tr><th></th>${(['fastest', 'median', 'slowest'] as const).map((w) => `<th>${w}</th>`).join('')}</tr>`;
  const body = puzzles.map((id) => {
    const cells = (['fastest', 'median', 'slowest'] as const).map((w) => {
      const p = picks.find((x) => x.puzzle_id === id && x.which === w);
      return `<td>${p ? `${boardHtml(p)}<div class="who">${esc(p.participant_id)} · ${fmt(p.time_s)} s · ${esc(p.outcome)}</div>` : ''}</td>`;
    });
    return `<tr><th>${esc(id)}</th>${cells.join('')}</tr>`;
  });
  const present = new Set(picks.flatMap((p) => [p.givens.length ? 'given' : '', p.marks.guess.includes(1) ? 'guess' : '', p.marks.guess.includes(0) ? 'forced' : '', 'not marked']));
  const legend = Object.entries(CLASS_COLOURS).filter(([k]) => present.has(k)).map(([k, v]) => `<span class="key" style="background:${v}"></span>${esc(k)}`).join(' ');
  return `<table class="multiples"><thead>${head}</thead><tbody>${body.join('')}</tbody></table><p class="legend">First mark: ${legend}</p>`;
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
export function strategySection(s: StrategyResult, kinds: readonly string[]): string {
  const K = kinds.length === 1 && kinds[0] === 'nonogram' ? [] : ['kind'];
  const measures = [...STRATEGY_MEASURES];
  const timeColumns = [...new Set(s.puzzles.flatMap((p) => Object.keys(p).filter((k) => k.startsWith('mean_time_'))))];
  const boards: string[] = [];
  for (const kind of kinds) {
    const picks = s.picks.filter((p) => p.kind === kind);
    if (!picks.length) continue;
    // (a div, not a figure: the report's figures are its Vega charts, and these boards are HTML tables)
    boards.push(`<div class="strategy-boards" id="fig-strategy-boards-${kind}"><p><b>${K.length ? `${KIND_NAME[kind] ?? kind}: ` : ''}the fastest, median and slowest attempt of each puzzle, each cell numbered by the order of the participant's first mark in it (blue: forced by the ladder on their board; red: a guess)</b></p>${boardsHtml(picks)}</div>`);
  }
  const picks = s.picks.map((p) => ({ ...p, marks: p.marks.cells.length }));
  // (the boards' style travels with the section: the page's own style sheet, and so every other byte of it, stays as it was)
  return `<h2 id="strategy">Strategy</h2>
<style>${BOARD_CSS}</style>
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
