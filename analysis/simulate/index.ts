// Simulated studies: bot participants played straight to NDJSON files in the server's record format, or through the real HTTP API.
import { mkdirSync, writeFileSync } from 'node:fs';
import { appVersion } from '../../node/version.ts';
import { join } from 'node:path';
import { createRng, type Rng } from '../../shared/random.ts';
import { botSession, drawSkill, standardiseMetric, DEFAULT_EFFECT, type BotSession, type PlantedEffect } from './bot.ts';
import { orderedSequences, chooseBalanced } from '../../shared/study/sequences.ts';
import { sequenceLength } from '../../shared/study/steps.ts';
import type { LoadedStudy } from '../../shared/study/config.ts';
import type { StudyPuzzle } from '../../shared/schema/config.ts';
import type { Puzzle } from '../../shared/schema/puzzle.ts';
import { metricOf, metricValueOf } from '../metric.ts';
import type { LoggedEvent } from '../../shared/schema/event.ts';
import { receiveClient, stampServer } from '../../shared/schema/stamp.ts';
import { withSatMetrics } from '../pipeline/puzzles.ts';
import { withEveryEncoding } from '../pipeline/measures.ts';
import { KIND_PROFILES, kindOfPuzzle, kindsOf } from '../pipeline/kinds.ts';
import { toCsv } from '../csv.ts';

export interface SimulateOptions {
  participants: number;
  seed: number;
  study: LoadedStudy;
  /** The puzzle metric the ratings depend on: any metric name (sat_conflicts, gac_conflicts, human_level, ...; analysis/metric.ts); default: each kind's (sat_conflicts, minimal_conflicts). */
  metric?: string;
  effect?: Partial<Omit<PlantedEffect, 'metric'>>;
  onProgress?: (done: number, total: number) => void;
}

export interface SimulationTruth {
  seed: number;
  participants: number;
  metric: string;
  metric_values: Record<string, number>;
  effect: PlantedEffect;
  skills: Record<string, number>;
}

/** The raw value of a metric for one puzzle (any spelling metricOf accepts: sat_conflicts, human_level, conflicts, ...). */
export function metricValue(p: Puzzle, name: string): number | null {
  return metricValueOf(p, metricOf(name));
}

/**
 * The planted effect: the standardised metric over the pool plus the coefficients. Without a metric each puzzle kind
 * plants on its own (sat_conflicts for Nonograms, minimal_conflicts for Sudoku), standardised within the kind, so a
 * study mixing kinds plants the same effect within each.
 */
export function plantedEffect(puzzles: readonly (Puzzle | StudyPuzzle)[], metric: string | undefined, effect: Partial<Omit<PlantedEffect, 'metric'>> = {}): { effect: PlantedEffect; raw: Record<string, number> } {
  // (withSatMetrics fills each kind's SAT blocks: a Sudoku's through its kind module)
  // every encoding's statistics too (a Nonogram's line-GAC ones computed where missing), so any measure can drive the bots
  const filled = withEveryEncoding(withSatMetrics(puzzles as readonly Puzzle[]).puzzles).puzzles as readonly (Puzzle & { kind?: string })[];
  const raw: Record<string, number> = {};
  const z: Record<string, number> = {};
  for (const kind of kindsOf(filled)) {
    const name = metric ?? KIND_PROFILES[kind].plantMetric;
    const values: Record<string, number> = {};
    for (const p of filled.filter((q) => kindOfPuzzle(q) === kind)) {
      const v = metricValue(p, name);
      if (v === null) throw new Error(`puzzle '${p.id}' has no metric '${name}' (${metricOf(name).field})`);
      raw[p.id] = values[p.id] = v;
    }
    Object.assign(z, standardiseMetric(values));
  }
  return { effect: { ...DEFAULT_EFFECT, ...effect, metric: Object.fromEntries(filled.map((p) => [p.id, z[p.id]])) }, raw };
}

/** The planted metric's name as truth.json states it: the one named, or each kind's (joined by ',' for a mixed study). */
export function plantedMetricName(puzzles: readonly { kind?: string }[], metric: string | undefined): string {
  return metric ? metricOf(metric).name : kindsOf(puzzles).map((k) => KIND_PROFILES[k].plantMetric).join(',');
}

/** The server's assignment, emulated: rounds of the ordered sequences, balanced draw among the free ones. */
class SequencePool {
  private free: string[][] = [];
  private taken: string[][] = [];
  round = 0;
  private nextId = 1;
  constructor(
    private readonly ids: string[],
    private readonly k: number,
    private readonly rng: Rng,
  ) {}
  lease(): { sequence: string[]; id: number; round: number } {
    if (this.free.length === 0) {
      this.round += 1;
      this.free = orderedSequences(this.ids, this.k);
      this.taken = [];
    }
    const i = chooseBalanced(this.free, this.taken, this.ids, this.rng);
    const [seq] = this.free.splice(i, 1);
    this.taken.push(seq);
    return { sequence: seq, id: this.nextId++, round: this.round };
  }
}

const BASE_MS = Date.UTC(2026, 2, 2, 9, 0, 0);

interface Participant {
  index: number;
  /** The participant's own seed: `rng` is createRng(seed) after drawing the skill (see `participantRng`). */
  seed: number;
  rng: Rng;
  skill: number;
  start_ms: number;
  session_id: string;
}

function participants(n: number, seed: number): Participant[] {
  const master = createRng(seed);
  const out: Participant[] = [];
  let t = BASE_MS;
  for (let i = 0; i < n; i++) {
    const pseed = Math.floor(master.next() * 2 ** 32);
    const rng = createRng(pseed);
    t += 60_000 + master.int(20 * 60_000);
    const hex = Array.from({ length: 16 }, () => master.int(16).toString(16)).join('');
    out.push({ index: i, seed: pseed, rng, skill: drawSkill(rng), start_ms: t, session_id: `s${hex}` });
  }
  return out;
}

/** A bot session written as the server would have written it: server records and stamped client records, in time order. */
export function sessionRecords(bot: BotSession, lease: { sequence: string[]; id: number; round: number }, study: LoadedStudy, version: string, rng: Rng): LoggedEvent[] {
  // The server's stamps, through the same functions the server uses (shared/schema/stamp.ts).
  const at = (t_server: number) => ({ t_server, config_hash: study.hash, app_version: version });
  const timed: { t: number; order: number; record: LoggedEvent }[] = [];
  let order = 0;
  const first = bot.events[0]?.t_wall ?? 0;
  timed.push({
    t: first - 400,
    order: order++,
    record: stampServer({ type: 'session_start', session_id: bot.session_id, payload: { mode: 'general', sequence: lease.sequence, sequence_id: lease.id, round: lease.round } }, at(first - 400)),
  });
  // Client events arrive in batches: the outbox flushes every few hundred ms.
  let flushAt = 0;
  for (const e of bot.events) {
    if (e.t_wall > flushAt) flushAt = e.t_wall + 150 + rng.int(350);
    timed.push({ t: flushAt, order: order++, record: receiveClient(e, at(flushAt)) });
  }
  for (const call of bot.calls) {
    const t = call.t_wall + 40 + rng.int(60);
    if (call.type === 'check')
      timed.push({
        t,
        order: order++,
        record: stampServer({ type: 'check', session_id: bot.session_id, payload: { puzzle_id: call.request.puzzle_id, position: call.request.position, solved: call.solved, wrong_cells: call.wrong_cells } }, at(t)),
      });
    else if (call.type === 'hint' && call.hint)
      timed.push({
        t,
        order: order++,
        record: stampServer({ type: 'hint', session_id: bot.session_id, payload: { puzzle_id: call.request.puzzle_id, row: call.hint.row, col: call.hint.col, kind: call.hint.kind, reasoning: call.hint.reasoning } }, at(t)),
      });
    else if (call.type === 'complete')
      timed.push({ t: t + 1_000, order: order++, record: stampServer({ type: 'session_complete', session_id: bot.session_id, payload: { code: study.config.completion.code ?? `SIM-${bot.session_id}` } }, at(t + 1_000)) });
  }
  timed.sort((a, b) => a.t - b.t || a.order - b.order);
  return timed.map((x) => x.record);
}

export interface SimulatedSession {
  bot: BotSession;
  records: LoggedEvent[];
}

/** Generate sessions in memory (NDJSON mode), one at a time. */
export function* simulateSessions(opts: SimulateOptions): Generator<SimulatedSession> {
  const { study } = opts;
  const metric = opts.metric === undefined ? undefined : metricOf(opts.metric).name;
  const { effect } = plantedEffect(study.config.puzzles, metric, opts.effect);
  const pool = new SequencePool(
    study.config.puzzles.map((p) => p.id),
    sequenceLength(study.config.phases),
    createRng(opts.seed ^ 0x5eed),
  );
  const version = appVersion();
  const people = participants(opts.participants, opts.seed);
  for (const p of people) {
    const lease = pool.lease();
    const bot = botSession({ config: study.config, session_id: p.session_id, sequence: lease.sequence, skill: p.skill, rng: p.rng, start_ms: p.start_ms, effect });
    yield { bot, records: sessionRecords(bot, lease, study, version, p.rng) };
    opts.onProgress?.(p.index + 1, people.length);
  }
}

function writeExtras(dir: string, opts: SimulateOptions, bots: { session_id: string; skill: number; codes: BotSession['codes'] }[]): SimulationTruth {
  const metric = opts.metric === undefined ? undefined : metricOf(opts.metric).name;
  const { effect, raw } = plantedEffect(opts.study.config.puzzles, metric, opts.effect);
  const truth: SimulationTruth = {
    seed: opts.seed,
    participants: opts.participants,
    metric: plantedMetricName(opts.study.config.puzzles, metric),
    metric_values: raw,
    effect,
    skills: Object.fromEntries(bots.map((b) => [b.session_id, Math.round(b.skill * 1e6) / 1e6])),
  };
  writeFileSync(join(dir, 'truth.json'), JSON.stringify(truth, null, 1) + '\n');
  const codeRows = bots.flatMap((b) => b.codes.map((c) => ({ participant_id: b.session_id, puzzle_id: c.puzzle_id, codes: c.codes.join(';') })));
  writeFileSync(join(dir, 'codes.csv'), toCsv(codeRows, ['participant_id', 'puzzle_id', 'codes']));
  return truth;
}

/** Write DIR/sessions/<id>.ndjson (the server's layout), DIR/codes.csv (simulated theme coding) and DIR/truth.json. */
export function simulateToDir(opts: SimulateOptions, dir: string): SimulationTruth {
  const sessions = join(dir, 'sessions');
  mkdirSync(sessions, { recursive: true });
  const bots: { session_id: string; skill: number; codes: BotSession['codes'] }[] = [];
  for (const s of simulateSessions(opts)) {
    writeFileSync(join(sessions, `${s.bot.session_id}.ndjson`), s.records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    bots.push({ session_id: s.bot.session_id, skill: s.bot.skill, codes: s.bot.codes });
  }
  return writeExtras(dir, opts, bots);
}

class HttpClient {
  cookie = '';
  constructor(readonly base: string) {}
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.base.replace(/\/$/, '') + path, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(this.cookie ? { cookie: this.cookie } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      // fetch says only "fetch failed": the reason (refused, unknown host, reset) is its cause.
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code === 'ECONNREFUSED' ? 'connection refused (is the server running, on that port?)' : cause?.code === 'ENOTFOUND' ? 'unknown host' : (cause?.code ?? cause?.message ?? (err as Error).message);
      throw new Error(`--server ${this.base}: cannot reach the server: ${why} (${method} ${path})`);
    }
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0];
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  }
}

/** A fresh copy of a participant's generator, in the state `p.rng` was in before its session was drawn. */
function participantRng(p: Participant): Rng {
  const rng = createRng(p.seed);
  drawSkill(rng);
  return rng;
}

/** Play one bot through the participant API (cookie session, batched events, check/hint/complete calls). */
async function playOverHttp(base: string, opts: SimulateOptions, p: Participant, effect: PlantedEffect): Promise<BotSession> {
  const http = new HttpClient(base);
  const state = await http.call<{ session_id: string; sequence: string[]; study: { config_hash: string } }>('POST', '/api/sessions', { mode: 'general' });
  if (state.study.config_hash !== opts.study.hash)
    throw new Error(`the server runs config ${state.study.config_hash}, the simulator has ${opts.study.hash}: pass the server's study config with --config`);
  let sequence = state.sequence;
  let sent = 0;
  if (sequence.length === 0) {
    // The server leases the sequence when the participant consents: play up to the consent's end with a stand-in
    // sequence (nothing before the puzzles depends on it), then ask for the real one.
    const k = sequenceLength(opts.study.config.phases);
    const standIn = botSession({ config: opts.study.config, session_id: state.session_id, sequence: opts.study.config.puzzles.slice(0, k).map((q) => q.id), skill: p.skill, rng: participantRng(p), start_ms: p.start_ms, effect });
    const consented = standIn.events.findIndex((e) => e.type === 'step_end' && e.payload.kind === 'consent') + 1;
    if (consented === 0) throw new Error(`session ${state.session_id}: the server named no sequence and the bot never consents`);
    const ack = await http.call<{ acked_seq: number }>('POST', '/api/session/events', { events: standIn.events.slice(0, consented) });
    if (ack.acked_seq < consented) throw new Error(`session ${state.session_id}: server acked ${ack.acked_seq} of the consent's ${consented} events`);
    sent = consented;
    sequence = (await http.call<{ sequence: string[] }>('GET', '/api/session')).sequence;
    const again = botSession({ config: opts.study.config, session_id: state.session_id, sequence, skill: p.skill, rng: participantRng(p), start_ms: p.start_ms, effect });
    if (JSON.stringify(again.events.slice(0, consented)) !== JSON.stringify(standIn.events.slice(0, consented)))
      throw new Error(`session ${state.session_id}: the bot's events up to consent depend on its sequence`);
  }
  const bot = botSession({ config: opts.study.config, session_id: state.session_id, sequence, skill: p.skill, rng: p.rng, start_ms: p.start_ms, effect });
  const sendUpTo = async (seq: number) => {
    while (sent < seq) {
      const batch = bot.events.slice(sent, Math.min(seq, sent + 200));
      const ack = await http.call<{ acked_seq: number }>('POST', '/api/session/events', { events: batch });
      if (ack.acked_seq < batch[batch.length - 1].seq) throw new Error(`session ${bot.session_id}: server acked ${ack.acked_seq}, sent up to ${batch[batch.length - 1].seq}`);
      sent += batch.length;
    }
  };
  for (const call of bot.calls) {
    await sendUpTo(call.after_seq);
    if (call.type === 'check') {
      const r = await http.call<{ solved: boolean }>('POST', '/api/session/check', call.request);
      if (r.solved !== call.solved) throw new Error(`session ${bot.session_id}: the server says solved=${r.solved} for ${call.request.puzzle_id}, the bot expected ${call.solved}`);
    } else if (call.type === 'hint') {
      const r = await http.call<{ hint: { row: number; col: number } | null }>('POST', '/api/session/hint', call.request);
      if ((r.hint === null) !== (call.hint === null) || (r.hint && call.hint && (r.hint.row !== call.hint.row || r.hint.col !== call.hint.col)))
        throw new Error(`session ${bot.session_id}: the server's hint differs from the bot's`);
    } else {
      await sendUpTo(bot.events.length);
      await http.call('POST', '/api/session/complete', { last_seq: call.last_seq });
    }
  }
  await sendUpTo(bot.events.length);
  return bot;
}

/** Play every bot through a running server (a few at a time); optionally write codes.csv and truth.json to `dir`. */
export async function simulateToServer(opts: SimulateOptions, url: string, dir?: string, concurrency = 4): Promise<SimulationTruth | null> {
  if (!opts.study.config.timing.trust_client_clock)
    throw new Error(
      'simulate --server replays simulated time faster than real time, and the server refuses skips and time-outs claimed before that time has passed: give the server (and --config) a study config with "timing": {"trust_client_clock": true}',
    );
  const metric = opts.metric === undefined ? undefined : metricOf(opts.metric).name;
  const { effect } = plantedEffect(opts.study.config.puzzles, metric, opts.effect);
  const people = participants(opts.participants, opts.seed);
  const bots: BotSession[] = new Array(people.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < people.length) {
      const p = people[next++];
      bots[p.index] = await playOverHttp(url, opts, p, effect);
      opts.onProgress?.(++done, people.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, people.length) }, worker));
  if (!dir) return null;
  mkdirSync(dir, { recursive: true });
  return writeExtras(dir, opts, bots);
}
