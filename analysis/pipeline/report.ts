// report.html: one self-contained page with the analysis tables and Vega-Lite figures rendered to SVG in Node.
import type { TopLevelSpec } from 'vega-lite';
import type { Spec as VegaSpec } from 'vega';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { AnalysisResult } from './analyze.ts';
import { measuresSection } from './measuresReport.ts';
import { strategySection } from './strategyReport.ts';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** Compile a Vega-Lite spec and render it to an SVG string (no browser, no canvas). */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  // Loaded on first use: Vega is a megabyte of code that every other command (and `--help`) need not parse.
  const vega = await import('vega');
  const compiled = await compileVegaLite(spec);
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

/*
 * The Vega-Lite compile of a figure does not depend on its inline data (`data: { values }`): the compiled Vega spec
 * carries the values where the Vega-Lite spec had them. A report's figures are the same specs run after run (an analyst
 * reruns analyze while a study runs), so each compiled spec is kept on disk, keyed by the spec with its inline data
 * taken out and the Vega-Lite version: node_modules/.cache/nonolab/vega-lite/<sha256>.json. A figure whose data is
 * also elsewhere in its spec (a sort order, a count in a title) gets a new key when the data changes, as it must.
 * The values are put back by reference; a compiled spec that JSON cannot hold exactly (NaN, undefined) is not kept,
 * and one whose data cannot all be found again is compiled afresh. The oldest entries beyond 200 are removed when one
 * is added. NONOLAB_VEGA_CACHE=0 turns the cache off.
 */
const PLACEHOLDER = '__nonolab_inline_data__';

/** The spec with each inline data's values replaced by a placeholder naming its index, and the values in that order. */
function withoutInlineData(spec: unknown): { stripped: unknown; values: unknown[][] } {
  const values: unknown[][] = [];
  const walk = (v: unknown, key: string | null): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, null));
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    if (key === 'data' && Array.isArray(o.values)) {
      values.push(o.values);
      return { ...Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'values').map(([k, x]) => [k, walk(x, k)])), values: [{ [PLACEHOLDER]: values.length - 1 }] };
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, walk(x, k)]));
  };
  return { stripped: walk(spec, null), values };
}

/** JSON that says NaN, infinities and undefined apart (the cache key must). */
const keyJson = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'number' && !Number.isFinite(x) ? `${PLACEHOLDER}${x}` : x === undefined ? `${PLACEHOLDER}undefined` : x));

/**
 * True when JSON holds v as Vega reads it: numbers finite (not -0), no functions; a property whose value is undefined
 * is left out (Vega reads it as absent), and Vega-Lite's signal wrappers are written by their own enumerable getters.
 */
function jsonExact(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (Array.isArray(v)) return v.every((x) => x !== undefined && jsonExact(x));
  if (typeof v === 'object' && !('toJSON' in v)) return Object.values(v as object).every((x) => x === undefined || jsonExact(x));
  return false;
}

/** Put the values back in place of their placeholders; false when a placeholder was not found. */
function putInlineData(compiled: unknown, values: readonly unknown[][]): boolean {
  const found = new Array<boolean>(values.length).fill(false);
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (v === null || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    for (const [k, x] of Object.entries(o)) {
      if (k === 'values' && Array.isArray(x) && x.length === 1 && x[0] !== null && typeof x[0] === 'object' && PLACEHOLDER in (x[0] as object)) {
        const i = (x[0] as Record<string, number>)[PLACEHOLDER];
        o[k] = values[i];
        found[i] = true;
      } else walk(x);
    }
  };
  walk(compiled);
  return found.every(Boolean);
}

let cacheDir: string | null | undefined;
/** node_modules/.cache/nonolab/vega-lite/<version> (where vega-lite is installed), or null when it cannot be used. */
function vegaLiteCacheDir(): string | null {
  if (cacheDir !== undefined) return cacheDir;
  try {
    if (process.env.NONOLAB_VEGA_CACHE === '0') throw new Error('off');
    // (its package.json is not among its exports: found from its entry point, <node_modules>/vega-lite/build/index.js)
    const pkg = dirname(dirname(createRequire(import.meta.url).resolve('vega-lite')));
    const version = (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string }).version;
    cacheDir = join(dirname(pkg), '.cache', 'nonolab', 'vega-lite', version);
  } catch {
    cacheDir = null;
  }
  return cacheDir;
}

/** At most this many compiled specs are kept (a figure with counts in its title is a new entry as a study grows). */
const CACHE_ENTRIES = 200;

/** After a new entry: the oldest entries beyond CACHE_ENTRIES removed (by modification time). */
function pruneCache(dir: string): void {
  const names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  if (names.length <= CACHE_ENTRIES) return;
  const byAge = names.map((n) => ({ n, t: statSync(join(dir, n)).mtimeMs })).sort((a, b) => a.t - b.t);
  for (const { n } of byAge.slice(0, names.length - CACHE_ENTRIES)) rmSync(join(dir, n), { force: true });
}

/** vl.compile(spec).spec, from the cache when the spec (its inline data aside) was compiled before. */
export async function compileVegaLite(spec: TopLevelSpec): Promise<VegaSpec> {
  const dir = vegaLiteCacheDir();
  const compile = async (s: TopLevelSpec) => (await import('vega-lite')).compile(s).spec;
  if (dir === null) return compile(spec);
  const { stripped, values } = withoutInlineData(spec);
  const file = join(dir, `${createHash('sha256').update(keyJson(stripped)).digest('hex')}.json`);
  let text: string | null = null;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // not compiled before
  }
  if (text === null) {
    const compiled = await compile(stripped as TopLevelSpec);
    if (!jsonExact(compiled)) return compile(spec);
    text = JSON.stringify(compiled);
    try {
      mkdirSync(dir, { recursive: true });
      const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
      writeFileSync(temp, text);
      renameSync(temp, file);
      pruneCache(dir);
    } catch {
      // a read-only install: compile every time
    }
  }
  const compiled = JSON.parse(text) as VegaSpec;
  return putInlineData(compiled, values) ? compiled : compile(spec);
}

const esc = (s: unknown) =>
  String(s ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

function fmt(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return '';
    if (Number.isInteger(v)) return String(v);
    const a = Math.abs(v);
    return a !== 0 && (a < 1e-3 || a >= 1e5) ? v.toExponential(3) : v.toFixed(3);
  }
  return String(v);
}

function table(rows: readonly Record<string, unknown>[], columns: readonly string[]): string {
  // headers may break after an underscore (mean_<wbr>difficulty), not inside a word
  const head = columns.map((c) => `<th>${esc(c).replace(/_/g, '_<wbr>')}</th>`).join('');
  const body = rows.map((r) => `<tr>${columns.map((c) => `<td>${esc(fmt(r[c]))}</td>`).join('')}</tr>`).join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** Axis of a count or an integer metric: whole-number ticks only (0, 2, 4, not 0.0, 0.5, 1.0). */
const INTEGER_AXIS = { format: 'd', tickMinStep: 1 } as const;
const PICK_RED = '#c92a2a';
const THRESHOLD_RED = '#c0392b';
/** Colours of the mixture components (never red: the threshold line is) and of the mixture curve. */
const COMPONENT_COLOURS = ['#4c78a8', '#f58518', '#54a24b', '#b279a2', '#9d755d', '#72b7b2', '#eeca3b'];
export const MIXTURE_COLOUR = '#222222';
const gapParts = (k: number) => [...Array.from({ length: k }, (_, i) => `component ${i + 1}`), 'mixture'];
const gapColours = (k: number) => [...Array.from({ length: k }, (_, i) => COMPONENT_COLOURS[i % COMPONENT_COLOURS.length]), MIXTURE_COLOUR];
export { COMPONENT_COLOURS, THRESHOLD_RED };

const FIG2_WIDTH = 600;
const FIG2_BARS_HEIGHT = 250;
const FIG2_FONT = 9;
const FIG2_ROW = 13;
/** A generous width of a label in pixels (sans-serif at FIG2_FONT px: no glyph is wider than 0.62 em on average). */
export const labelWidth = (text: string, fontSize = FIG2_FONT) => Math.ceil(text.length * fontSize * 0.62);

export interface Figure2Layout {
  lo: number;
  hi: number;
  bins: { x0: number; x1: number; count: number }[];
  /** Each pick: its rule's pixel x, its label's left edge and pixel y (rows above the bars). */
  labels: { id: string; value: number; label: string; xpix: number; textx: number; ypix: number; row: number }[];
  height: number;
  yMax: number;
}

/**
 * Figure 2's geometry: integer-width bins of the candidates' conflicts (about 40 of them), and the picks' labels laid
 * out in pixels. A label starts just right of its rule, or ends just left of it where it would leave the plot, never
 * left of the y-axis; it goes into the first row (from the top) where it keeps clear of the labels already there, and
 * the plot gets one row of head room per row used, above the tallest bar.
 */
export function figure2Layout(values: readonly number[], selected: readonly { id: string; value: number }[]): Figure2Layout {
  const all = [...values, ...selected.map((s) => s.value)];
  const min = Math.min(...all, 0);
  const max = Math.max(...all, 1);
  const raw = (max - min) / 40;
  const integer = all.every(Number.isInteger);
  // A nice step (1, 2 or 5 times a power of ten) of at least a 40th of the range; a whole number for integer data.
  const base = 10 ** Math.floor(Math.log10(raw || 1));
  let step = ([1, 2, 5, 10].map((m) => m * base).find((x) => x >= raw) ?? 10 * base);
  if (integer) step = Math.max(1, Math.round(step));
  const lo = Math.floor(min / step) * step;
  const n = Math.max(1, Math.floor((max - lo) / step) + 1);
  const hi = lo + n * step;
  const counts = new Array<number>(n).fill(0);
  for (const v of values) counts[Math.min(n - 1, Math.floor((v - lo) / step))]++;
  const bins = counts.map((count, i) => ({ x0: lo + i * step, x1: lo + (i + 1) * step, count }));
  const px = (v: number) => ((v - lo) / (hi - lo)) * FIG2_WIDTH;
  // Rows of labels: the right edge of the last label placed in each.
  const rows: { from: number; to: number }[][] = [];
  const picks = [...selected].sort((a, b) => a.value - b.value || (a.id < b.id ? -1 : 1));
  const placed = picks.map((s) => {
    const label = `${s.id} (${s.value})`;
    const w = labelWidth(label);
    const xpix = px(s.value);
    let textx = xpix + 3;
    if (textx + w > FIG2_WIDTH) textx = xpix - 3 - w;
    textx = Math.max(2, Math.min(textx, FIG2_WIDTH - w));
    let row = rows.findIndex((r) => r.every((b) => textx >= b.to + 6 || textx + w <= b.from - 6));
    if (row < 0) {
      rows.push([]);
      row = rows.length - 1;
    }
    rows[row].push({ from: textx, to: textx + w });
    return { id: s.id, value: s.value, label, xpix, textx, row, ypix: 0 };
  });
  const headroom = rows.length * FIG2_ROW + 6;
  const height = FIG2_BARS_HEIGHT + headroom;
  const tallest = Math.max(1, ...counts);
  // The bars use the lower FIG2_BARS_HEIGHT pixels: the y domain reaches above the tallest bar by the head room.
  const yMax = (tallest * height) / FIG2_BARS_HEIGHT;
  for (const p of placed) p.ypix = 4 + FIG2_ROW / 2 + p.row * FIG2_ROW;
  return { lo, hi, bins, labels: placed, height, yMax };
}

/** The puzzle-metric figure: a histogram over a large set, else one bar per puzzle coloured by its Bradley-Terry score. */
export function puzzleMetricSpec(metric: string, values: readonly { puzzle: string; value: number; bt: number | null }[], noBt: string): TopLevelSpec {
  const withBt = values.some((v) => v.bt !== null);
  const integers = values.every((v) => Number.isInteger(v.value));
  return values.length > 12
      ? {
          $schema: SCHEMA,
          title: `${metric} over the puzzle set`,
          data: { values },
          mark: 'bar',
          encoding: { x: { field: 'value', bin: { maxbins: 30 }, title: metric, ...(integers ? { axis: INTEGER_AXIS } : {}) }, y: { aggregate: 'count', title: 'puzzles', axis: INTEGER_AXIS } },
          width: 520,
          height: 220,
        }
      : {
          $schema: SCHEMA,
          title: withBt ? `${metric} of each study puzzle (colour: Bradley-Terry score)` : `${metric} of each study puzzle (no Bradley-Terry scores: ${noBt})`,
          data: { values },
          // A puzzle at 0 has a bar of no height: the dot on top of each bar shows its colour (the BT score) all the same.
          encoding: {
            // The order given as a list (ascending value; ties in data order), the same for both layers: a sort by field
            // is resolved per layer, and vega-lite warns when the layers' domains disagree on it.
            x: { field: 'puzzle', type: 'nominal', sort: [...values].sort((a, b) => a.value - b.value).map((v) => v.puzzle), title: 'puzzle' },
            y: { field: 'value', type: 'quantitative', title: metric, ...(integers ? { axis: INTEGER_AXIS } : {}) },
            ...(withBt ? { color: { field: 'bt', type: 'quantitative', title: 'BT score', scale: { scheme: 'orangered' } } } : {}),
          },
          layer: [
            { mark: { type: 'bar', ...(withBt ? {} : { color: '#9aa5b1' }) } },
            { mark: { type: 'point', filled: true, size: 90, stroke: '#333', strokeWidth: 1, opacity: 1, ...(withBt ? {} : { color: '#9aa5b1' }) } },
          ],
          width: 520,
          height: 220,
        } as TopLevelSpec;
}

/** The figure specs (exported for tests and for analysts who want the Vega-Lite JSON). */
export function figureSpecs(result: AnalysisResult, notes: Record<string, string> = {}): Record<string, TopLevelSpec> {
  const specs: Record<string, TopLevelSpec> = {};
  const metric = result.metrics.includes('sat_conflicts') ? 'sat_conflicts' : result.metrics.includes('minimal_conflicts') ? 'minimal_conflicts' : result.metrics[0];
  const finiteNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

  // 0. the paper's Figure 2: conflicts over the generated pool, the selected six marked. Binned here (integer bins) so
  // that the x scale is known in pixels: each pick's label is placed beside its rule, right of the y-axis, in the
  // first row above the bars where it overlaps no other label (figure2Layout).
  if (result.candidates) {
    const pool = result.candidates;
    const layout = figure2Layout(pool.values, pool.selected);
    specs.figure2 = {
      $schema: SCHEMA,
      title: { text: `MiniSat conflicts over ${pool.values.length} candidate puzzles; the ${layout.labels.length} study puzzles marked`, fontSize: 12 },
      width: FIG2_WIDTH,
      height: layout.height,
      layer: [
        {
          data: { values: layout.bins },
          mark: { type: 'rect', color: '#9aa5b1', stroke: '#fff', strokeWidth: 0.5 },
          encoding: {
            x: { field: 'x0', type: 'quantitative', title: 'conflicts', scale: { domain: [layout.lo, layout.hi], nice: false, zero: false }, axis: INTEGER_AXIS },
            x2: { field: 'x1' },
            y: { field: 'count', type: 'quantitative', title: 'puzzles', scale: { domain: [0, layout.yMax], nice: false }, axis: INTEGER_AXIS },
          },
        },
        { data: { values: layout.labels }, mark: { type: 'rule', strokeWidth: 2, color: PICK_RED }, encoding: { x: { field: 'xpix', type: 'quantitative', scale: null } } },
        {
          data: { values: layout.labels },
          mark: { type: 'text', align: 'left', baseline: 'middle', fontSize: FIG2_FONT, color: PICK_RED },
          encoding: { x: { field: 'textx', type: 'quantitative', scale: null }, y: { field: 'ypix', type: 'quantitative', scale: null }, text: { field: 'label' } },
        },
      ],
    } as TopLevelSpec;
  }

  // 1. conflicts over the puzzle set
  if (!metric) notes.conflicts = 'no puzzle metric is available for every puzzle';
  if (metric) {
    const values = result.puzzles.filter((p) => finiteNum(p[metric])).map((p) => ({ puzzle: p.puzzle_id, value: p[metric] as number, bt: finiteNum(p.bt_score) ? p.bt_score : null }));
    specs.conflicts = puzzleMetricSpec(metric, values, result.bt ? 'none finite' : 'the model could not run');
  }

  // 2. expertise distribution
  const exp = result.participants.filter((p) => p.included && typeof p.expertise === 'number' && Number.isFinite(p.expertise)).map((p) => ({ expertise: p.expertise as number }));
  if (exp.length === 0) notes.expertise = 'no participant has an expertise score (the survey items are missing or constant)';
  else specs.expertise = {
    $schema: SCHEMA,
    title: `Expertise (z-mean composite of six items), n = ${exp.length}`,
    data: { values: exp },
    mark: 'bar',
    encoding: { x: { field: 'expertise', bin: { maxbins: 25 }, title: 'expertise (z-mean)' }, y: { aggregate: 'count', title: 'participants', axis: INTEGER_AXIS } },
    width: 520,
    height: 200,
  };

  // 3. log-gap histogram with the fitted mixture and the threshold (binned here: gaps can number millions)
  // (into a typed array: a million gaps or more)
  const gapValues = result.gaps.gap;
  const logs = new Float64Array(gapValues.length);
  let positive = 0, lo = Infinity, hi = -Infinity;
  for (let k = 0; k < gapValues.length; k++) {
    const g = gapValues[k];
    if (!(g > 0)) continue;
    const x = Math.log(g);
    logs[positive++] = x;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  if (!positive) notes.gaps = 'no positive gaps between actions';
  if (positive) {
    const bins = 60;
    const width = (hi - lo) / bins || 1;
    const counts = new Array<number>(bins).fill(0);
    for (let k = 0; k < positive; k++) counts[Math.min(bins - 1, Math.floor((logs[k] - lo) / width))]++;
    const hist = counts.map((c, i) => ({ x0: lo + i * width, x1: lo + (i + 1) * width, density: c / (positive * width) }));
    const comps = result.pauses.components;
    const curve: { x: number; density: number; part: string }[] = [];
    for (let i = 0; i <= 200; i++) {
      const x = lo + ((hi - lo) * i) / 200;
      let total = 0;
      comps.forEach((c, k) => {
        const d = (c.weight / Math.sqrt(2 * Math.PI * c.variance)) * Math.exp(-((x - c.mean) ** 2) / (2 * c.variance));
        total += d;
        curve.push({ x, density: d, part: `component ${k + 1}` });
      });
      if (comps.length) curve.push({ x, density: total, part: 'mixture' });
    }
    const thr = Math.log(result.pauses.threshold_s);
    specs.gaps = {
      $schema: SCHEMA,
      title: `Log inter-action gaps (n = ${positive}); pause threshold ${result.pauses.threshold_s.toFixed(2)} s (${result.pauses.threshold_source})`,
      width: 560,
      height: 260,
      layer: [
        { data: { values: hist }, mark: { type: 'rect', color: '#c8d6e5' }, encoding: { x: { field: 'x0', type: 'quantitative', title: 'ln(gap in seconds)' }, x2: { field: 'x1' }, y: { field: 'density', type: 'quantitative', title: 'density' } } },
        {
          data: { values: curve },
          mark: { type: 'line', strokeWidth: 1.5 },
          encoding: {
            x: { field: 'x', type: 'quantitative' },
            y: { field: 'density', type: 'quantitative' },
            // The components in blue, orange, green, purple and the mixture in black: no red, which is the threshold's.
            color: { field: 'part', type: 'nominal', title: 'fit', scale: { domain: gapParts(comps.length), range: gapColours(comps.length) } },
            strokeDash: { condition: { test: "datum.part === 'mixture'", value: [1, 0] }, value: [4, 3] },
          },
        },
        { data: { values: [{ x: thr }] }, mark: { type: 'rule', color: THRESHOLD_RED, strokeWidth: 2 }, encoding: { x: { field: 'x', type: 'quantitative' } } },
      ],
    } as TopLevelSpec;
  }

  // 4. first cell acted on, per puzzle
  const firstCounts = new Map<string, { puzzle: string; row: number; col: number; count: number }>();
  for (const a of result.attempts) {
    if (a.first_row === null || a.first_col === null) continue;
    const key = `${a.puzzle_id}|${a.first_row}|${a.first_col}`;
    const e = firstCounts.get(key);
    // (a study with a kind other than Nonogram names each facet's kind: the board's rows are a Sudoku's or a Nonogram's)
    const label = a.kind === undefined ? (a.puzzle_id as string) : `${a.kind === 'sudoku' ? 'Sudoku' : 'Nonogram'} ${a.puzzle_id}`;
    if (e) e.count++;
    else firstCounts.set(key, { puzzle: label, row: a.first_row as number, col: a.first_col as number, count: 1 });
  }
  if (firstCounts.size === 0) notes.first_actions = 'no attempt has a first cell (no board action)';
  else specs.first_actions = {
    $schema: SCHEMA,
    title: 'First cell acted on, per puzzle',
    data: { values: [...firstCounts.values()] },
    facet: { field: 'puzzle', type: 'nominal', title: null },
    columns: 3,
    spec: {
      width: 150,
      height: 150,
      mark: 'rect',
      encoding: {
        x: { field: 'col', type: 'ordinal', title: 'column' },
        y: { field: 'row', type: 'ordinal', title: 'row' },
        color: { field: 'count', type: 'quantitative', scale: { scheme: 'blues' }, title: 'attempts' },
      },
    },
  } as TopLevelSpec;

  // 5. LMM coefficients with 95% intervals
  const coefs = result.lmm.filter((r) => r.term !== '(Intercept)' && Number.isFinite(r.estimate) && Number.isFinite(r.ci_low) && Number.isFinite(r.ci_high));
  const t2 = coefs.filter((r) => r.model === 'table2');
  if (!t2.length) notes.lmm_difficulty = `no difficulty model could be fitted${failed(result, 'difficulty ~')}`;
  if (t2.length)
    specs.lmm_difficulty = {
      $schema: SCHEMA,
      title: 'difficulty ~ metric * expertise + (1|participant) + (1|puzzle): fixed effects, 95% CI',
      data: { values: t2.map((r) => ({ ...r, label: `${r.metric.replace(/^sat_/, '')} · ${r.term.split(r.metric).join('metric')}` })) },
      width: 420,
      height: { step: 22 },
      layer: [
        { mark: { type: 'rule', color: '#999' }, encoding: { x: { datum: 0, type: 'quantitative' } } },
        { mark: 'rule', encoding: { y: { field: 'label', type: 'nominal', title: null, sort: null, axis: { labelLimit: 320 } }, x: { field: 'ci_low', type: 'quantitative', title: 'estimate (per SD of the metric)' }, x2: { field: 'ci_high' } } },
        { mark: { type: 'point', filled: true, size: 50 }, encoding: { y: { field: 'label', type: 'nominal', sort: null }, x: { field: 'estimate', type: 'quantitative' }, color: { field: 'metric', type: 'nominal' } } },
      ],
    } as TopLevelSpec;
  const f4 = coefs.filter((r) => r.model === 'figure4');
  if (!f4.length) notes.lmm_signals = `no signal model could be fitted${failed(result, ' ~ ')}`;
  if (f4.length)
    specs.lmm_signals = {
      $schema: SCHEMA,
      title: 'signal ~ metric + (1|participant) + (1|puzzle): metric effect (per SD of the metric), 95% CI',
      data: { values: f4 },
      facet: { field: 'response', type: 'nominal', title: null },
      columns: 2,
      resolve: { scale: { x: 'independent' } },
      spec: {
        width: 240,
        height: { step: 22 },
        layer: [
          { mark: { type: 'rule', color: '#999' }, encoding: { x: { datum: 0, type: 'quantitative' } } },
          { mark: 'rule', encoding: { y: { field: 'metric', type: 'nominal', title: null }, x: { field: 'ci_low', type: 'quantitative', title: 'estimate' }, x2: { field: 'ci_high' } } },
          { mark: { type: 'point', filled: true, size: 50 }, encoding: { y: { field: 'metric', type: 'nominal' }, x: { field: 'estimate', type: 'quantitative' } } },
        ],
      },
    } as TopLevelSpec;

  // 6. theme correlations
  const themeRows = (result.themes ?? []).filter((t) => t.r_rb !== null && Number.isFinite(t.r_rb));
  if (result.themes && !themeRows.length) notes.themes = 'no theme has both coded and uncoded answers';
  if (themeRows.length) {
    const rows = themeRows.map((t) => ({ ...t, label: t.level === 'participant' ? `${t.theme} (participant)` : t.theme }));
    specs.themes = {
      $schema: SCHEMA,
      title: 'Themes and rated difficulty: rank-biserial r (positive: theme comes with harder ratings)',
      data: { values: rows },
      mark: 'bar',
      width: 420,
      height: { step: 18 },
      encoding: {
        y: { field: 'label', type: 'nominal', sort: '-x', title: null },
        x: { field: 'r_rb', type: 'quantitative', title: 'rank-biserial r', scale: { domain: [-1, 1] } },
        color: { field: 'kind', type: 'nominal' },
        tooltip: [{ field: 'n_present' }, { field: 'n_absent' }],
      },
    } as TopLevelSpec;
  }
  return specs;
}

/** ': ' and the first LMM warning whose formula contains `needle`, or ''. */
function failed(result: AnalysisResult, needle: string): string {
  const w = result.warnings.find((x) => x.startsWith('LMM ') && x.includes(needle));
  return w ? `: ${w}` : '';
}

const CAPTIONS: Record<string, string> = {
  figure2: "Figure 2: conflicts over the candidate pool, the selected puzzles marked",
  conflicts: 'Puzzle metric over the puzzle set',
  expertise: 'Expertise distribution',
  gaps: 'Inter-action gaps and the pause threshold',
  first_actions: 'Where participants started',
  lmm_difficulty: 'Rated difficulty: metric × expertise (Table 2)',
  lmm_signals: 'Behavioural signals by metric (Figure 4)',
  themes: 'Theme correlations',
};

/** Why no mixed model is in the report: the number of participants and puzzles analysed, and the fits' own warnings. */
function noModelsMessage(result: AnalysisResult): string {
  const participants = result.participants.filter((p) => p.included).length;
  const puzzles = new Set(result.attempts.map((a) => a.puzzle_id)).size;
  const why = result.warnings.filter((w) => w.startsWith('LMM '));
  return `No mixed model could be fitted: ${participants} participant(s) and ${puzzles} puzzle(s) analysed; the models (random intercepts for participant and for puzzle) need ratings from several participants on several puzzles${why.length ? `. ${why.slice(0, 3).join('; ')}${why.length > 3 ? `; and ${why.length - 3} more` : ''}` : ''}.`;
}

/** One row per fitted model: its variance components and the singular flag. */
function varianceRows(result: AnalysisResult): Record<string, unknown>[] {
  const seen = new Map<string, Record<string, unknown>>();
  for (const r of result.lmm)
    if (!seen.has(r.formula))
      seen.set(r.formula, { kind: (r as { kind?: string }).kind, model: r.model, response: r.response, metric: r.metric, var_participant: r.var_participant, var_puzzle: r.var_puzzle, var_residual: r.var_residual, singular: r.singular ? 'singular' : '', n: r.n });
  return [...seen.values()];
}

/** One row per solver counter, one column per human measure: rho (p). */
function robustnessTable(result: AnalysisResult): string {
  const xs = [...new Set(result.robustness.map((r) => r.x))];
  const ys = [...new Set(result.robustness.map((r) => r.y))];
  const rows = xs.map((x) => {
    const row: Record<string, unknown> = { counter: x };
    for (const y of ys) {
      const c = result.robustness.find((r) => r.x === x && r.y === y);
      row[y] = c && Number.isFinite(c.rho) ? `${c.rho.toFixed(3)} (p ${fmt(c.p_exact ?? c.p)})` : '';
    }
    return row;
  });
  return table(rows, ['counter', ...ys]);
}

const RULE_NAMES: Record<string, string> = {
  gmm3: '3 components: crossing of 2 and 3 (the paper\'s rule)',
  gmm2: '2 components: crossing of 1 and 2',
  paper: 'the paper\'s fixed 2.36 s',
  given: '--pause-threshold',
};

/** The whole report page. `beforeMeasures` (runAnalysis: settle the measure comparison still on the worker) is awaited after the figures are drawn. */
export async function renderReport(result: AnalysisResult, meta: { title: string; logs: string; puzzles: string; generated: string }, beforeMeasures?: () => Promise<void>): Promise<{ html: string; figures: string[]; notes: Record<string, string> }> {
  const notes: Record<string, string> = {};
  const specs = figureSpecs(result, notes);
  const figures: string[] = [];
  const sections: string[] = [];
  for (const [name, why] of Object.entries(notes)) sections.push(`<p class="warn" id="fig-${name}-missing">${esc(CAPTIONS[name] ?? name)}: not drawn: ${esc(why)}.</p>`);
  for (const [name, spec] of Object.entries(specs)) {
    const svg = await renderSvg(spec);
    figures.push(name);
    sections.push(`<figure id="fig-${name}"><figcaption>${esc(CAPTIONS[name] ?? name)}</figcaption>${svg}</figure>`);
  }
  await beforeMeasures?.();
  const measures = result.measures ? await measuresSection(result.measures, renderSvg) : '';
  const strategy = result.strategy ? strategySection(result.strategy, result.kinds) : '';
  const s = result.sessions;
  const p = result.pauses;
  const o = result.outcomes;
  // A study with a kind other than Nonogram: each table names the kind of its rows, and every comparison is within one.
  const K = result.kinds.length === 1 && result.kinds[0] === 'nonogram' ? [] : ['kind'];
  const KINDS: Record<string, string> = { nonogram: 'Nonogram', sudoku: 'Sudoku' };
  const kindLine = K.length
    ? `<p id="kinds">Puzzle kinds: ${result.kinds.map((k) => KINDS[k] ?? k).join(', ')}. Every table names the kind of its rows; the Bradley-Terry scores, the pause threshold, the correlations and the mixed models are computed within a kind (a ${result.kinds.map((k) => KINDS[k] ?? k).join(' and a ')} are never compared with each other).${result.kinds.includes('sudoku') ? ' A Sudoku\'s metrics: MiniSat on the minimal and extended encodings (<code>minimal_</code>, <code>extended_</code>), the technique ladder (<code>human_level</code>) and the propagation ladder (<code>human_propagation_level</code>); its errors are digits entered that differ from the solution.' : ''}</p>\n`
    : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(meta.title)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem auto;padding:0 1rem;max-width:1100px;color:#222;line-height:1.4}
table{border-collapse:collapse;font-size:.8rem;margin:.5rem 0 1.5rem;max-width:100%}th,td{border:1px solid #ddd;padding:.2rem .4rem;text-align:right}td{overflow-wrap:anywhere}
th{font-weight:600}svg{max-width:100%;height:auto}code{overflow-wrap:anywhere}
th{background:#f4f6f8}td:first-child,th:first-child{text-align:left}figure{margin:1.5rem 0}figcaption{font-weight:600;margin-bottom:.5rem}
.warn{color:#a0522d}
</style></head><body>
<h1>${esc(meta.title)}</h1>
<p>Logs: <code>${esc(meta.logs)}</code> · puzzles: <code>${esc(meta.puzzles)}</code> · generated ${esc(meta.generated)}</p>
<p>${s.total} sessions read${result.skipped_sessions.length ? ` (${result.skipped_sessions.length} more skipped as unreadable)` : ''}; ${s.analysed} complete sessions analysed (${s.incomplete} incomplete, ${s.excluded_marked} marked pilot/test/excluded left out); ${result.attempts.length} attempts.</p>
${kindLine}${result.skipped_sessions.length ? `<h2>Sessions skipped as unreadable (--skip-bad-sessions)</h2><ul class="warn">${result.skipped_sessions.map((x) => `<li><code>${esc(x.file)}</code>: ${esc(x.error)}</li>`).join('')}</ul>` : ''}
<h2>Skips and time-outs</h2>
<p>${o.attempts} attempts: ${o.solved} solved, ${o.skipped} skipped, ${o.timeout} timed out, ${o.incomplete} incomplete; ${o.rated} rated.</p>
<ul>${o.statements.map((t) => `<li>${esc(t)}</li>`).join('')}</ul>
${result.warnings.length ? `<ul class="warn">${result.warnings.map((w) => `<li>${esc(w)}</li>`).join('')}</ul>` : ''}
<h2>Pauses</h2>
<p>Gaussian mixture on ${p.n} log gaps (${p.dropped_zero} zero gaps left out). Threshold <b>${p.threshold_s.toFixed(3)} s</b> (${esc(p.threshold_source)}); ΔBIC (1 vs 3 components) ${fmt(p.delta_bic)}; lowest BIC at ${p.best_components} components.</p>
${table(p.components.map((c, i) => ({ component: i + 1, ...c })), ['component', 'weight', 'mean', 'variance', 'median_s'])}
${table(Object.entries(p.bic).map(([k, v]) => ({ components: k, bic: v })), ['components', 'bic'])}
<p>Gaps at the <b>${esc(p.gap_level)}</b> level; ${result.kinds.includes('nonogram') ? `${p.drag_gaps} gaps inside drag strokes${p.drag_median_s !== null ? ` (median ${fmt(p.drag_median_s)} s)` : ''}; component 1 median ${p.component1_median_s !== null ? `${fmt(p.component1_median_s)} s` : 'n/a'} (the paper's drag-filling component: ~0.01 s)` : `no drag strokes (each move of a ${result.kinds.map((k) => KINDS[k] ?? k).join(' or ')} is one point in time); component 1 median ${p.component1_median_s !== null ? `${fmt(p.component1_median_s)} s` : 'n/a'}`}. The threshold's sensitivity (pauses: gaps longer than the threshold over all attempts):</p>
${table(p.sensitivity.map((r) => ({ ...r, rule: RULE_NAMES[r.rule], used: r.used ? 'yes' : '' })), ['rule', 'threshold_s', 'pauses', 'mean_pauses', 'used'])}
<h2>Puzzles</h2>
${table(result.puzzles, [...K, 'puzzle_id', 'bt_score', 'bt_se', 'bt_rank', ...(result.btSkipsHardest ? ['bt_skips_score', 'bt_skips_rank'] : []), 'attempts', 'solve_rate', 'mean_difficulty', 'mean_time_s', 'mean_pauses', 'mean_errors', 'mean_hints'])}
${table(result.puzzles, [...K, 'puzzle_id', ...result.metrics])}
<h2>Correlations (Spearman)</h2>
<p><b>Sign convention of Table 1</b> (rows <code>table1</code>): each metric is correlated with the Bradley-Terry <i>score</i> (higher = rated harder; rank 1 = hardest), so a positive ρ means puzzles with a higher metric were rated harder. The paper correlated with the BT <i>ranking</i> (rank 1 = hardest), which flips the sign: its ρ = −0.257 for decisions is +0.257 in this convention. That 0.257 is the paper's own result, from its participants and puzzles; the ρ in the table below are this study's, from these logs, and are a different estimate (of the same quantity, on other data), not a reproduction of that number.</p>
${table(result.correlations as unknown as Record<string, unknown>[], [...K, 'table', 'x', 'y', 'n', 'rho', 'p', 'p_exact'])}
${result.pca ? `<p>PCA of the six expertise items: PC1 explains ${(result.pca.explained[0] * 100).toFixed(1)}% (loadings ${Object.entries(result.pca.loadings).map(([k, v]) => `${esc(k)} ${v.toFixed(2)}`).join(', ')}).${result.pca.agreement ? ` PC1 scores and the z-mean composite agree: Pearson r = ${result.pca.agreement.pearson_r.toFixed(3)}, Spearman ρ = ${result.pca.agreement.spearman_rho.toFixed(3)} over ${result.pca.agreement.n} participants (the paper: they agree closely).` : ' PC1 and the z-mean could not be compared (fewer than 3 participants with both).'}</p>` : ''}
<h2>Robustness across solvers</h2>
<p>Spearman ρ of each solver's counters with the human measures over the puzzles (${result.solvers.length ? `MiniSat and ${result.solvers.map(esc).join(', ')}` : 'MiniSat only: run <code>nonolab measure --solvers cadical,cryptominisat,picosat</code> to add a second solver'}).</p>
${robustnessTable(result)}
<h2>Linear mixed models</h2>
${result.lmm.length ? `${table(result.lmm as unknown as Record<string, unknown>[], [...K, 'model', 'response', 'metric', 'term', 'estimate', 'se', 'df', 't', 'p', 'ci_low', 'ci_high'])}
<p>Variance components of each model (REML) and lme4's singular-fit flag (a random-effect SD below 10<sup>−4</sup> of the residual SD: that variance sits on its boundary at 0, and the model is over-specified for the data).</p>
${table(varianceRows(result), [...K, 'model', 'response', 'metric', 'var_participant', 'var_puzzle', 'var_residual', 'singular', 'n'])}` : `<p class="warn" id="lmm-none">${esc(noModelsMessage(result))}</p>`}
${result.survival ? `<h2>Solve time as right-censored (Cox, sensitivity)</h2><p>Hazard of solving per SD of the metric; skips, time-outs and unfinished attempts are censored at their time. Robust SEs clustered by participant; hazard ratio &gt; 1: faster solving.</p>${table(result.survival as unknown as Record<string, unknown>[], [...K, 'metric', 'coef', 'hazard_ratio', 'se', 'robust_se', 'z', 'p', 'n', 'events', 'censored'])}` : ''}
${result.themes ? `<h2>Themes</h2>${table(result.themes as unknown as Record<string, unknown>[], ['theme', 'kind', ...(K.length ? ['puzzle_kind'] : []), 'level', 'n_present', 'n_absent', 'mean_difficulty_present', 'mean_difficulty_absent', 'r_rb'])}` : ''}
${measures}${strategy}<h2>Figures</h2>
${sections.join('\n')}
</body></html>
`;
  return { html, figures, notes };
}
