// Reading a study's logs and coding file from disk, and writing the analysis tables (CSV via papaparse, JSON).
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseSessionNdjson, type SessionLog } from '../../shared/signals/index.ts';
import { parseCsv, safeCell, toCsv } from '../csv.ts';
import { MEASURE_COLUMNS } from './measures.ts';
import type { AnalysisResult, CodedAnswer } from './analyze.ts';
import { ACTIONS, TRAJECTORY_HEADER, type GapColumns } from './extract.ts';
import { strategyColumns, type StrategyKind } from '../../shared/signals/index.ts';

/** The NDJSON files of a logs directory: DIR/sessions/*.ndjson (the server's data dir) or DIR/*.ndjson. */
export function sessionFiles(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${dir}: not a directory`);
  const sub = join(dir, 'sessions');
  const base = existsSync(sub) && statSync(sub).isDirectory() ? sub : dir;
  const files = readdirSync(base)
    .filter((f) => f.endsWith('.ndjson'))
    .sort()
    .map((f) => join(base, f));
  if (files.length === 0) throw new Error(`${dir}: no .ndjson session logs (looked in ${base})`);
  return files;
}

/** Read and validate session logs one by one (errors name the file and line). */
export function* readSessions(files: readonly string[], validate = true): Generator<SessionLog> {
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    if (text.trim() === '') continue;
    yield parseSessionNdjson(text, f, { validate });
  }
}

/** A coding file: CSV with participant_id, puzzle_id (empty for strategy answers) and codes (separated by ; , or space). */
export function readCodes(file: string): CodedAnswer[] {
  const rows = parseCsv(readFileSync(file, 'utf8'), file);
  if (rows.length && !('participant_id' in rows[0] && 'codes' in rows[0])) throw new Error(`${file}: needs columns participant_id, puzzle_id and codes`);
  return rows.map((r) => ({
    participant_id: r.participant_id,
    puzzle_id: r.puzzle_id ? r.puzzle_id : null,
    codes: (r.codes ?? '')
      .split(/[;,\s]+/)
      .map((c) => c.trim().toUpperCase())
      .filter(Boolean),
  }));
}

export const ATTEMPT_COLUMNS = [
  'participant_id', 'puzzle_id', 'position', 'step', 'outcome', 'solved', 'skipped', 'time_s', 'first_action_s', 'actions', 'moves', 'strokes',
  'cells_filled', 'errors', 'error_cells', 'hints', 'undos', 'resets', 'submissions', 'wrong_submissions', 'gaps', 'median_gap_s', 'pauses', 'pause_time_s',
  'pause_threshold_s', 'first_row', 'first_col', 'final_wrong_cells', 'difficulty_initial', 'difficulty', 'guessing', 'guessing_level', 'expertise',
];
const PARTICIPANT_COLUMNS = [
  'participant_id', 'included', 'status', 'marks', 'config_hash', 'app_version', 'started_at', 'language', 'attempts',
  'nonogram_skill', 'puzzle_skill', 'nonogram_frequency', 'logic_frequency', 'nonogram_sizes', 'logic_types',
  'z_nonogram_skill', 'z_puzzle_skill', 'z_nonogram_frequency', 'z_logic_frequency', 'z_nonogram_sizes', 'z_logic_types',
  'expertise', 'pc1', 'mean_difficulty', 'mean_time_s', 'mean_pauses', 'mean_errors', 'mean_hints', 'mean_undos', 'solved', 'skipped',
];
const PUZZLE_COLUMNS = ['puzzle_id', 'bt_score', 'bt_se', 'bt_rank', 'attempts', 'solve_rate', 'skip_rate', 'mean_difficulty', 'mean_time_s', 'mean_pauses', 'mean_errors', 'mean_hints', 'mean_undos'];


/** Each attempt's "participant,puzzle,position," prefix of its rows in gaps.csv (gap k's attempt is gaps.attempt[k]). */
export function gapRowKeys(attempts: readonly Record<string, unknown>[]): string[] {
  // (an attempt that names its kind, in a study with a kind other than Nonogram, names it in gaps.csv too)
  return attempts.map((a) => `${safeCell(String(a.participant_id))},${safeCell(String(a.puzzle_id))},${a.kind === undefined ? '' : `${a.kind},`}${a.position},`);
}

/**
 * gaps.csv from the gap columns, as UTF-8 bytes written straight into one buffer (a large study has
 * millions of gaps, and building then encoding a 100 MB string costs more than the rest of the
 * tables). Each attempt's "participant,puzzle,position," prefix and each distinct gap's
 * "gap,log_gap,pause" tail (gaps are whole milliseconds, so few distinct values) are encoded once.
 */
export function gapsCsvBytes(rowKeys: readonly string[], g: GapColumns, threshold: number, withKind = false): Buffer {
  const enc = new TextEncoder();
  const header = enc.encode(`participant_id,puzzle_id,${withKind ? 'kind,' : ''}position,index,cell,action,gap_s,log_gap,pause\n`);
  const keys = rowKeys.map((k) => enc.encode(k));
  const keyLength = Int32Array.from(keys, (k) => k.length);
  const actions = Array.from({ length: 256 }, (_, i) => enc.encode(`,${ACTIONS[i] ?? ''},`));
  const actionLength = Int32Array.from(actions, (a) => a.length);
  const digitsOf = (v: number) => (v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10_000 ? 4 : v < 100_000 ? 5 : String(v).length);
  const tailIndex = new Map<number, number>();
  const tails: Uint8Array[] = [];
  const tailOf = new Int32Array(g.length);
  let size = header.length;
  for (let k = 0; k < g.length; k++) {
    const gap = g.gap[k];
    let t = tailIndex.get(gap);
    if (t === undefined) {
      const log = gap > 0 ? String(Number(Math.log(gap).toPrecision(10))) : '';
      tailIndex.set(gap, (t = tails.length));
      tails.push(enc.encode(`${gap},${log},${gap > threshold}\n`));
    }
    tailOf[k] = t;
    const v = g.index[k];
    if (v < 0) throw new Error(`gap ${k}: negative index ${v}`);
    const c = g.cell[k];
    // key, index digits, ',' and the cell's digits (none when it ends a whole action), the action, the tail
    size += keyLength[g.attempt[k]] + digitsOf(v) + 1 + (c >= 0 ? digitsOf(c) : 0) + actionLength[g.action[k]] + tails[t].length;
  }
  const out = Buffer.allocUnsafe(size);
  out.set(header, 0);
  let pos = header.length;
  const digits = new Uint8Array(11);
  const copy = (src: Uint8Array) => {
    const n = src.length;
    if (n > 24) out.set(src, pos); // (a native copy pays off on longer runs)
    else for (let i = 0; i < n; i++) out[pos + i] = src[i];
    pos += n;
  };
  const number = (v: number) => {
    let d = 0;
    do { digits[d++] = 48 + (v % 10); v = Math.floor(v / 10); } while (v > 0);
    while (d > 0) out[pos++] = digits[--d];
  };
  for (let k = 0; k < g.length; k++) {
    copy(keys[g.attempt[k]]);
    number(g.index[k]);
    const c = g.cell[k];
    out[pos++] = 44; // ','
    if (c >= 0) number(c);
    copy(actions[g.action[k]]);
    copy(tails[tailOf[k]]);
  }
  if (pos !== size) throw new Error(`gaps.csv: wrote ${pos} bytes of ${size}`);
  return out;
}

/** strategy.csv's columns attempts.csv does not repeat: the keys it has itself, and the first change's cell. */
const STRATEGY_KEYS: ReadonlySet<string> = new Set(['participant_id', 'puzzle_id', 'kind', 'position', 'attempt', 'first_row', 'first_col']);

/** Each attempt row with its strategy row's values (joined on participant, puzzle and position; none: empty cells). */
function withStrategy(attempts: readonly object[], strategy: readonly object[]): Record<string, unknown>[] {
  const key = (r: Record<string, unknown>) => `${r.participant_id}\u0000${r.puzzle_id}\u0000${r.position}`;
  const byAttempt = new Map(strategy.map((r) => [key(r as Record<string, unknown>), r as Record<string, unknown>]));
  return attempts.map((a) => {
    const row = a as Record<string, unknown>;
    const s = byAttempt.get(key(row));
    if (!s) return row;
    const merged: Record<string, unknown> = { ...row };
    for (const [c, v] of Object.entries(s)) if (!STRATEGY_KEYS.has(c)) merged[c] = v;
    return merged;
  });
}

/** Write every table of the analysis to `dir`; returns the file names written (gapsWrittenElsewhere: gaps.csv is another thread's, see startGmmWorker). */
export function writeTables(result: AnalysisResult, dir: string, options: { gapsWrittenElsewhere?: boolean; trajectories?: boolean } = {}): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  const put = (name: string, text: string | Buffer) => {
    writeFileSync(join(dir, name), text);
    written.push(name);
  };
  // A study with a kind other than Nonogram: every table names the kind (after its first column, or its id column),
  // and attempts.csv adds the pencil-mark columns; a Nonogram study's tables keep their bytes.
  const kinded = !(result.kinds.length === 1 && result.kinds[0] === 'nonogram');
  const withKind = (columns: readonly string[], after: string) => (kinded ? columns.flatMap((c) => (c === after ? [c, 'kind'] : [c])) : [...columns]);
  const attemptColumns = withKind(ATTEMPT_COLUMNS, 'puzzle_id').flatMap((c) => (kinded && c === 'resets' ? [c, 'pencil_marks', 'pencil_cells'] : [c]));
  // With the trajectories, attempts.csv ends with each attempt's strategy: strategy.csv's columns but its keys and
  // its first change's cell (attempts.csv's first_row and first_col are the first action's), joined on the attempt.
  const strategyKinds = result.kinds.filter((k): k is StrategyKind => k === 'nonogram' || k === 'sudoku');
  const strategyExtra = result.strategy ? strategyColumns(strategyKinds).filter((c) => !STRATEGY_KEYS.has(c)) : [];
  put('attempts.csv', toCsv(result.strategy ? withStrategy(result.attempts, result.strategy.rows) : result.attempts, [...attemptColumns, ...result.metrics, ...strategyExtra]));
  put('participants.csv', toCsv(result.participants, withKind(PARTICIPANT_COLUMNS, 'participant_id')));
  put('puzzles.csv', toCsv(result.puzzles, [...withKind(PUZZLE_COLUMNS, 'puzzle_id'), ...(result.btSkipsHardest ? ['bt_skips_score', 'bt_skips_rank'] : []), ...result.metrics]));
  const threshold = result.pauses.threshold_s;
  if (options.gapsWrittenElsewhere) written.push('gaps.csv');
  else put('gaps.csv', gapsCsvBytes(gapRowKeys(result.attempts), result.gaps, threshold, kinded));
  if (options.trajectories ?? true) {
    // Each session's text written as it is: a large study's trajectories are hundreds of MB, and joining them into one
    // string first (then one buffer) took about four times as long.
    const fd = openSync(join(dir, 'trajectories.csv'), 'w');
    try {
      writeSync(fd, TRAJECTORY_HEADER);
      for (const text of result.trajectories) if (text) writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    written.push('trajectories.csv');
  }
  if (result.strategy) {
    // strategy.csv: attempts.csv's attempts, one row each, joined on participant_id, puzzle_id, position (docs/analysis.md says why it is its own table)
    put('strategy.csv', toCsv(result.strategy.rows as unknown as Record<string, unknown>[], strategyColumns(strategyKinds)));
    put('strategy_correlations.csv', toCsv(result.strategy.correlations as unknown as Record<string, unknown>[], withKind(['table', 'level', 'x', 'y', 'n', 'rho', 'p', 'p_exact'], 'table')));
  }
  put('pauses.json', JSON.stringify(result.pauses, null, 1) + '\n');
  put('correlations.csv', toCsv(result.correlations as unknown as Record<string, unknown>[], withKind(['table', 'level', 'x', 'y', 'n', 'rho', 'p', 'p_exact'], 'table')));
  put(
    'lmm.csv',
    toCsv(result.lmm as unknown as Record<string, unknown>[], withKind([
      'model', 'response', 'metric', 'term', 'estimate', 'se', 'df', 't', 'p', 'ci_low', 'ci_high', 'var_participant', 'var_puzzle', 'var_residual', 'singular', 'reml_criterion', 'n', 'formula',
    ], 'model')),
  );
  put('robustness.csv', toCsv(result.robustness as unknown as Record<string, unknown>[], withKind(['x', 'y', 'n', 'rho', 'p', 'p_exact'], 'x')));
  if (result.measures) put('measures.csv', toCsv(result.measures.rows as unknown as Record<string, unknown>[], MEASURE_COLUMNS));
  if (result.survival)
    put(
      'survival.csv',
      toCsv(result.survival as unknown as Record<string, unknown>[], withKind(['model', 'metric', 'term', 'coef', 'hazard_ratio', 'se', 'robust_se', 'z', 'p', 'n', 'events', 'censored', 'clusters'], 'model')),
    );
  if (result.themes)
    put('themes.csv', toCsv(result.themes as unknown as Record<string, unknown>[], kinded ? ['theme', 'kind', 'puzzle_kind', 'level', 'n_present', 'n_absent', 'mean_difficulty_present', 'mean_difficulty_absent', 'r_rb'] : ['theme', 'kind', 'level', 'n_present', 'n_absent', 'mean_difficulty_present', 'mean_difficulty_absent', 'r_rb']));
  if (result.answers.length) put('answers.csv', toCsv(result.answers as unknown as Record<string, unknown>[], ['participant_id', 'item', 'puzzle_id', 'text']));
  return written;
}
