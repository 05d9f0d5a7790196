// Bot participants for load and crash tests: they play a whole study through the real participant HTTP API.
//
// A bot speaks the API as the browser client does: every event is stamped by the client's stampClient with the
// session's next sequence number and goes into the client's own Outbox (client/src/outbox.ts, its storage an in-memory
// map instead of localStorage), which sends the unacknowledged events from the front in batches (at most 200), drops
// what the server acknowledged, and on any failure (network error, 5xx, server gone) retries the same unacknowledged
// events after a backoff that doubles up to a cap; a 4xx stops the bot (its script is wrong, not the network). Check,
// complete and start requests are retried the same way. Survey answers come from surveyAnswers
// (shared/study/phases/simulate.ts). The token travels in the `nonolab_token` cookie. Randomness comes from a seeded rng.
import { Agent, request } from 'node:http';
import type { StudyConfig } from '../../shared/schema/config.ts';
import type { ClientEvent } from '../../shared/schema/event.ts';
import type { Move } from '../../shared/schema/move.ts';
import { expandSteps, type Step } from '../../shared/study/steps.ts';
import { createRng, type Rng } from '../../shared/random.ts';
import { stampClient } from '../../shared/schema/stamp.ts';
import { randomChoice, surveyAnswers } from '../../shared/study/phases/simulate.ts';
import { Outbox, type OutboxStorage } from '../../client/src/outbox.ts';

/** A browser's localStorage for one bot: strings by key, in memory. */
export function memoryStorage(): OutboxStorage & { readonly items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

export interface HttpAnswer {
  status: number;
  json: any;
  /** The server's own time for the request (ms), from its Server-Timing header, when it sends one. */
  serverMs?: number;
}

/** Plain node:http with keep-alive (cheaper than fetch when one process runs hundreds of bots). */
export class HttpClient {
  readonly agent: Agent;
  constructor(
    readonly base: string,
    opts: { maxSockets?: number; timeoutMs?: number } = {},
  ) {
    // Every idle connection is kept (Node keeps only 256 by default): each participant's browser holds its own, and
    // closing and reopening hundreds of connections a second measured the kernel's accept queue, not the server.
    this.agent = new Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 1024, maxFreeSockets: opts.maxSockets ?? 1024 });
    this.url = new URL(base);
    this.timeoutMs = opts.timeoutMs ?? 15_000;
  }
  private readonly timeoutMs: number;
  private readonly url: URL;

  call(method: string, path: string, body: unknown, cookie: string, contentType = 'application/json'): Promise<HttpAnswer & { setCookie?: string }> {
    const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    return new Promise((resolve, reject) => {
      // The path goes out exactly as given (no URL normalisation of '..'), as a hostile client would send it.
      const req = request(
        {
          host: this.url.hostname,
          port: this.url.port,
          path,
          method,
          agent: this.agent,
          headers: {
            ...(payload ? { 'content-type': contentType, 'content-length': payload.length } : {}),
            ...(cookie ? { cookie } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json: any = text;
            try {
              json = JSON.parse(text);
            } catch {
              // not JSON: keep the text
            }
            const sc = res.headers['set-cookie'];
            const timing = /(?:^|,)\s*app;dur=([\d.]+)/.exec(String(res.headers['server-timing'] ?? ''));
            resolve({ status: res.statusCode ?? 0, json, setCookie: sc ? sc[0].split(';')[0] : undefined, serverMs: timing ? Number(timing[1]) : undefined });
          });
        },
      );
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error('request timed out')));
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface BotStats {
  /** One entry per acknowledged events request: latency (ms), events in the batch, bytes of the body, server's own time. */
  acks: { ms: number; events: number; bytes: number; at: number; serverMs?: number }[];
  failures: number;
}

export interface BotOptions {
  http: HttpClient;
  config: StudyConfig;
  seed: number;
  /** Mean pause between the bot's actions (ms); each action makes `burst` events at once, as a gesture does. */
  thinkMs?: number;
  burst?: number;
  /**
   * Instead of pausing between actions, wait until the server acknowledged everything sent: each request then carries
   * one action's `burst` events, and the bot acts again as soon as the server answers (the most requests per second
   * this server takes at that batch size).
   */
  lockstep?: boolean;
  /** Extra noise moves (cross/clear/undo) per puzzle, besides the fills of the solution. */
  noiseMoves?: number;
  /** Retry backoff: first delay and cap (the browser client uses 500 and 8000). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Record per-request figures (the benchmark). */
  stats?: BotStats;
  /** Stop playing (but keep flushing) when this returns true. */
  stopped?: () => boolean;
  startBody?: unknown;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** One bot participant. `play()` walks the whole study; `events` is every event it made, `ackedSeq` what it saw acknowledged. */
export class Bot {
  cookie = '';
  sessionId = '';
  sequence: string[] = [];
  /** Every event this bot made, in order (events[i].seq === i + 1). */
  readonly events: ClientEvent[] = [];
  /** Highest sequence number the server acknowledged to this bot. */
  ackedSeq = 0;
  completionCode: string | null = null;
  private seq = 0;
  private outbox: Outbox | null = null;
  /** Settles when the outbox stops for good (a 4xx): `drained()` then rejects with `fatal`. */
  private stop!: () => void;
  private readonly stoppedForGood = new Promise<void>((resolve) => (this.stop = resolve));
  private readonly rng: Rng;
  private readonly t0 = performance.now();

  constructor(readonly opts: BotOptions) {
    this.rng = createRng(opts.seed);
  }

  private get http() {
    return this.opts.http;
  }

  /** A request retried with backoff until the server answers with something other than a 5xx / network error. */
  private async call(method: string, path: string, body?: unknown): Promise<HttpAnswer> {
    let delay = this.opts.backoffMs ?? 500;
    for (;;) {
      try {
        const answer = await this.http.call(method, path, body, this.cookie);
        if (answer.setCookie) this.cookie = answer.setCookie;
        if (answer.status < 500 && answer.status !== 429) return answer;
      } catch {
        // network error: the server is gone or restarting
      }
      if (this.opts.stats) this.opts.stats.failures++;
      await sleep(delay);
      delay = Math.min(delay * 2, this.opts.maxBackoffMs ?? 8_000);
    }
  }

  async start(): Promise<void> {
    const r = await this.call('POST', '/api/sessions', this.opts.startBody ?? {});
    if (r.status !== 201) throw new ApiFailure(r.status, `start: ${JSON.stringify(r.json)}`);
    this.sessionId = r.json.session_id;
    this.sequence = r.json.sequence;
  }

  /** The session's sequence as the server has it now (leased at consent). */
  private async sequenceNow(): Promise<string[]> {
    const r = await this.call('GET', '/api/session');
    if (r.status !== 200) throw new ApiFailure(r.status, `resume: ${JSON.stringify(r.json)}`);
    return r.json.sequence as string[];
  }

  // ---- the client's outbox ----

  /** The client's Outbox for this session, sending through this bot's connection and recording its figures. */
  private openOutbox(): Outbox {
    const send = async (batch: ClientEvent[]): Promise<number> => {
      const body = JSON.stringify({ events: batch });
      const t = performance.now();
      let r: HttpAnswer;
      try {
        r = await this.http.call('POST', '/api/session/events', body, this.cookie);
      } catch (err) {
        if (this.opts.stats) this.opts.stats.failures++;
        throw err;
      }
      if (r.status === 200 && typeof r.json?.acked_seq === 'number') {
        this.opts.stats?.acks.push({ ms: performance.now() - t, events: batch.length, bytes: body.length, at: performance.now(), serverMs: r.serverMs });
        if (r.json.acked_seq > this.events.length) throw new ApiFailure(200, `server acknowledged seq ${r.json.acked_seq} but only ${this.events.length} exist`);
        this.ackedSeq = Math.max(this.ackedSeq, r.json.acked_seq);
        return r.json.acked_seq;
      }
      if (r.status >= 400 && r.status < 500 && r.status !== 429) throw new ApiFailure(r.status, `events: ${JSON.stringify(r.json)}`);
      if (this.opts.stats) this.opts.stats.failures++;
      throw new Error(`events: ${r.status}`);
    };
    const isFatal = (err: unknown) => {
      if (!(err instanceof ApiFailure)) return false;
      this.fatal = err;
      this.stop();
      return true;
    };
    return new Outbox(this.sessionId, 0, send, isFatal, undefined, { storage: memoryStorage(), backoffMs: this.opts.backoffMs, maxBackoffMs: this.opts.maxBackoffMs });
  }

  /** Stamp an event at a step, as the client does, and hand it to the outbox. */
  private push(step: Step, type: ClientEvent['type'], payload: unknown, source: ClientEvent['source'] = 'mouse'): void {
    this.seq += 1;
    const stamp = { session_id: this.sessionId, seq: this.seq, step: step.index, phase: step.phase_id, puzzle_id: step.puzzle_id, position: step.position, t_mono: performance.now() - this.t0, t_wall: Date.now(), source };
    const event = stampClient(stamp, type, payload);
    this.events.push(event);
    (this.outbox ??= this.openOutbox()).push(event);
  }

  /** A 4xx on an events request: the bot's script is wrong, not the network. */
  fatal: unknown = null;

  /** Resolves once the server acknowledged every event made so far; rejects once the outbox stopped for good. */
  async drained(): Promise<void> {
    if (this.fatal) throw this.fatal;
    if (this.outbox) await Promise.race([this.outbox.drained(), this.stoppedForGood]);
    if (this.fatal) throw this.fatal;
  }

  // ---- the study script ----

  private async think(): Promise<void> {
    if (this.opts.lockstep) return this.drained();
    const mean = this.opts.thinkMs ?? 0;
    await sleep(mean <= 0 ? 0 : Math.round(mean * (0.5 + this.rng.next())));
    if (this.fatal) throw this.fatal;
  }

  private solutionOf(puzzleId: string): string[] {
    const p = [...this.opts.config.puzzles, ...this.opts.config.practice_puzzles].find((q) => q.id === puzzleId);
    if (!p?.solution) throw new Error(`bot: no solution for ${puzzleId}`);
    return p.solution;
  }

  /** Moves that solve the puzzle, with some noise (crosses, clears, undos) mixed in, grouped into gestures. */
  private puzzleMoves(solution: string[]): Move[] {
    const moves: Move[] = [];
    const h = solution.length;
    const w = solution[0].length;
    for (let r = 0; r < h; r++) for (let c = 0; c < w; c++) if (solution[r][c] === '#') moves.push({ type: 'fill', row: r, col: c });
    for (let k = 0; k < (this.opts.noiseMoves ?? 10); k++) {
      const at = this.rng.int(moves.length + 1);
      const r = this.rng.int(h);
      const c = this.rng.int(w);
      const roll = this.rng.int(3);
      const noise: Move[] =
        solution[r][c] === '.' ? [{ type: 'cross', row: r, col: c }] : roll === 0 ? [{ type: 'cross', row: r, col: c }, { type: 'undo' }] : [{ type: 'clear', row: r, col: c }, { type: 'fill', row: r, col: c }];
      moves.splice(at, 0, ...noise);
    }
    return moves;
  }

  private async playBoard(step: Step): Promise<void> {
    const solution = this.solutionOf(step.puzzle_id!);
    const moves = this.puzzleMoves(solution);
    const burst = Math.max(1, this.opts.burst ?? 1);
    for (let i = 0; i < moves.length; i += burst) {
      if (this.opts.stopped?.()) return;
      for (const move of moves.slice(i, i + burst)) this.push(step, 'move', { move });
      await this.think();
    }
    this.push(step, 'move', { move: { type: 'submit' } });
    const rows = solution.map((r) => r.replaceAll('.', 'x'));
    const check = await this.call('POST', '/api/session/check', { puzzle_id: step.puzzle_id, position: step.position, rows });
    if (check.status !== 200) throw new ApiFailure(check.status, `check: ${JSON.stringify(check.json)}`);
    this.push(step, 'submit_result', { solved: check.json.solved === true });
    this.push(step, 'step_end', { kind: step.kind, reason: 'solved' });
  }

  /** Play every step of the study, then ask for the completion code once every event is acknowledged. */
  async play(): Promise<void> {
    if (!this.sessionId) await this.start();
    let steps = expandSteps(this.opts.config.phases, this.sequence);
    const first = steps[0];
    this.push(first, 'client_start', { user_agent: 'nonolab-bot', width: 1280, height: 800, page_id: `bot${this.opts.seed}` }, 'system');
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      if (this.opts.stopped?.()) break;
      const phase = this.opts.config.phases.find((p) => p.id === step.phase_id)!;
      this.push(step, 'step_start', { kind: step.kind }, 'system');
      await this.think();
      switch (step.kind) {
        case 'consent':
          this.push(step, 'consent', { agreed: true });
          this.push(step, 'step_end', { kind: step.kind, reason: 'done' });
          // The sequence is leased at consent: ask for it, as the client does, and lay out the steps again.
          if (this.sequence.length === 0) {
            await this.drained();
            this.sequence = await this.sequenceNow();
            steps = expandSteps(this.opts.config.phases, this.sequence);
          }
          break;
        case 'tutorial':
        case 'warmup':
        case 'puzzle':
          await this.playBoard(step);
          break;
        case 'survey':
        case 'post_survey':
          this.push(step, 'survey_submit', { survey_id: phase.id, answers: surveyAnswers(phase, randomChoice(this.rng, 'bot answer: =HYPERLINK("x") <b>ok</b> é')) });
          this.push(step, 'step_end', { kind: step.kind, reason: 'done' });
          break;
        case 'rating':
          this.push(step, 'rating', { difficulty: 1 + this.rng.int(5), guessing: 'no' });
          this.push(step, 'step_end', { kind: step.kind, reason: 'done' });
          break;
        case 'complete': {
          await this.drained();
          const done = await this.call('POST', '/api/session/complete', { last_seq: this.events.length });
          if (done.status !== 200) throw new ApiFailure(done.status, `complete: ${JSON.stringify(done.json)}`);
          this.completionCode = done.json.code;
          break;
        }
        default:
          this.push(step, 'step_end', { kind: step.kind, reason: 'done' });
      }
      await this.think();
    }
    await this.drained();
  }
}
