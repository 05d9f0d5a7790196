// The report's "Which measure tracks human difficulty" section (issue 36): the ranking, the figure (rho with its
// bootstrap interval, one row per measure, grouped by family) and the plain-words separation statement.
import type { TopLevelSpec } from 'vega-lite';
import { measureSource, PAPER_MEASURE, rankingOf, separationStatement, TARGETS, type MeasureComparison, type MeasureRow } from './measures.ts';

const esc = (s: unknown) => String(s ?? '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const num = (v: number | null, digits = 3) => (v === null || !Number.isFinite(v) ? '' : v.toFixed(digits));
const pv = (v: number | null) => (v === null || !Number.isFinite(v) ? '' : v < 1e-4 ? v.toExponential(2) : v.toPrecision(3));

/** The figure: rho with its 95 % interval against the Bradley-Terry score and the mean rating, one row per measure, grouped by family. */
export function measuresFigure(c: MeasureComparison): TopLevelSpec {
  const family = ['encoding', 'solver', 'logic'];
  const values = c.rows
    .filter((r) => (r.target === 'bt_score' || r.target === 'mean_difficulty') && Number.isFinite(r.rho))
    .sort((x, y) => family.indexOf(x.family) - family.indexOf(y.family))
    .map((r) => ({ measure: `${r.family}: ${r.measure}`, family: r.family, target: r.target, rho: r.rho, ci_low: r.ci_low, ci_high: r.ci_high }));
  const y = { field: 'measure', type: 'nominal', title: null, sort: null, axis: { labelLimit: 260 } } as const;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: `Spearman rho of each measure with rated difficulty, 95% bootstrap interval over ${c.participants} participants (${c.puzzles} puzzles)`,
    data: { values },
    facet: { column: { field: 'target', type: 'nominal', title: null } },
    spec: {
      width: 260,
      height: { step: 16 },
      layer: [
        { mark: { type: 'rule', color: '#999' }, encoding: { x: { datum: 0, type: 'quantitative' } } },
        // An interval of no width (every replicate gave the same rho: a tiny study) draws no rule: the point is all of it.
        { transform: [{ filter: 'datum.ci_high > datum.ci_low' }], mark: 'rule', encoding: { y, x: { field: 'ci_low', type: 'quantitative', title: 'rho', scale: { domain: [-1, 1] } }, x2: { field: 'ci_high' } } },
        { mark: { type: 'point', filled: true, size: 40 }, encoding: { y, x: { field: 'rho', type: 'quantitative' }, color: { field: 'family', type: 'nominal' } } },
      ],
    },
  } as TopLevelSpec;
}

function rankingTable(c: MeasureComparison): string {
  const head = ['measure', 'family', ...TARGETS.map((t) => `${t} (rank: rho [95% CI])`), 'Table 2: measure (p)', 'measure × expertise (p)'];
  const byMeasure = (m: string, t: string) => c.rows.find((r) => r.measure === m && r.target === t) as MeasureRow;
  const order = rankingOf(c, 'mean_difficulty');
  const body = order.map((row, i) => {
    const cells = TARGETS.map((t) => {
      const r = byMeasure(row.measure, t);
      return Number.isFinite(r.rho) ? `${r.rank}: ${num(r.rho)} [${num(r.ci_low)}, ${num(r.ci_high)}]` : '';
    });
    const d = byMeasure(row.measure, 'mean_difficulty');
    const label = i === 0 && row.measure === PAPER_MEASURE ? `${esc(row.measure)} (the paper's)` : esc(row.measure);
    return `<tr><td>${label}</td><td>${esc(row.family)}</td>${cells.map((x) => `<td>${esc(x)}</td>`).join('')}<td>${num(d.lmm_measure)} (${pv(d.lmm_measure_p)})</td><td>${num(d.lmm_interaction)} (${pv(d.lmm_interaction_p)})</td></tr>`;
  });
  return `<table id="measures-ranking"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}

/** The section's HTML, with the figure already rendered to SVG. */
export async function measuresSection(c: MeasureComparison, render: (spec: TopLevelSpec) => Promise<string>): Promise<string> {
  const svg = await render(measuresFigure(c));
  const sources = [...new Set(c.measures.map((m) => measureSource(m).encoding))];
  return `<h2 id="measures">Which measure tracks human difficulty</h2>
<p>Every measure the puzzles carry (${c.measures.length}: ${sources.map(esc).join('; ')}), each against the Bradley-Terry score, the mean rating and the behavioural signals: Spearman ρ over the ${c.puzzles} puzzles (the paper's Table 1 rule), a 95% percentile bootstrap interval over the ${c.participants} participants (${c.reps} replicates, seed ${c.seed}), and the paper's Table 2 model <code>difficulty ~ measure * expertise + (1|participant) + (1|puzzle)</code> per measure. Ranks order the measures by |ρ| (ties by |t| of the measure in Table 2). The paper's measure is the first row; the rows below are ranked by the mean rating. All of it is in <code>measures.csv</code>.</p>
${c.selection ? `<p id="measures-selection">The study's puzzles were selected by the <b>${esc(c.selection.scheme)}</b> scheme${c.selection.metrics ? ` (${c.selection.metrics.map(esc).join(', ')})` : ''}: ${esc(c.selection.rationale)}.</p>` : ''}
${rankingTable(c)}
<p id="measures-separation"><b>${esc(separationStatement(c, 'mean_difficulty'))}</b></p>
<p>${esc(separationStatement(c, 'bt_score'))}</p>
${c.left_out.length ? `<p>Left out: ${c.left_out.map((l) => `${esc(l.measure)} (${esc(l.why)})`).join(', ')}.</p>` : ''}
${c.computed.length ? `<p>MiniSat on the line-GAC encoding was computed here for ${c.computed.length} puzzle(s) without <code>metrics.sat_gac</code>.</p>` : ''}
<figure id="fig-measures"><figcaption>Which measure tracks rated difficulty (ρ and 95% bootstrap interval)</figcaption>${svg}</figure>`;
}
