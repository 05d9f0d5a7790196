// Bot participants for load and crash tests: they play a whole study through the real participant HTTP API.
//
// A bot speaks the API as the browser client does (client/src/outbox.ts): every event gets the session's next
// sequence number and goes into an outbox; the outbox sends the unacknowledged events from the front in batches
// (at most 200), drops what the server acknowledged, and on any failure (network error, 5xx, server gone) retries
// the same unacknowledged events after a backoff that doubles up to a cap. Check, complete and start requests are
// retried the same way. The token travels in the `nonolab_token` cookie. Randomness comes from a seeded rng.
import { Agent, request } from 'node:http';
import type { StudyConfig } from '../../shared/schema/config.ts';
import type { ClientEvent } from '../../shared/schema/event.ts';
import type { Move } from '../../shared/schema/move.ts';
import { expandSteps, type Step } from '../../shared/study/steps.ts';
import { createRng, type Rng } from '../../shared/random.ts';

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
  private sending = false;
  private backoff: number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private drainWaiters: (() => void)[] = [];
  private readonly rng: Rng;
  private readonly t0 = performance.now();

  constructor(readonly opts: BotOptions) {
    this.rng = createRng(opts.seed);
    this.backoff = opts.backoffMs ?? 500;
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

  // ---- the outbox, as in client/src/outbox.ts ----

  private push(step: Step, type: ClientEvent['type'], payload: unknown, source: ClientEvent['source'] = 'mouse'): void {
    this.seq += 1;
    const event = {
      session_id: this.sessionId,
      seq: this.seq,
      step: step.index,
      phase: step.phase_id,
      puzzle_id: step.puzzle_id,
      position: step.position,
      t_mono: performance.now() - this.t0,
      t_wall: Date.now(),
      source,
      type,
      payload,
    } as ClientEvent;
    this.events.push(event);
    this.schedule(0);
  }

  private schedule(delay: number): void {
    if (this.timer !== null || this.sending) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delay);
  }

  private async flush(): Promise<void> {
    if (this.sending) return;
    const unacked = this.events.length - this.ackedSeq;
    if (unacked <= 0) {
      this.drainWaiters.splice(0).forEach((w) => w());
      return;
    }
    this.sending = true;
    const batch = this.events.slice(this.ackedSeq, this.ackedSeq + 200);
    const body = JSON.stringify({ events: batch });
    const t = performance.now();
    let ok = false;
    try {
      const r = await this.http.call('POST', '/api/session/events', body, this.cookie);
      if (r.status === 200 && typeof r.json?.acked_seq === 'number') {
        ok = true;
        const ms = performance.now() - t;
        this.opts.stats?.acks.push({ ms, events: batch.length, bytes: body.length, at: performance.now(), serverMs: r.serverMs });
        if (r.json.acked_seq > this.events.length) throw new Error(`server acknowledged seq ${r.json.acked_seq} but only ${this.events.length} exist`);
        this.ackedSeq = Math.max(this.ackedSeq, r.json.acked_seq);
      } else if (r.status >= 400 && r.status < 500 && r.status !== 429) {
        throw new ApiFailure(r.status, `events: ${JSON.stringify(r.json)}`);
      }
    } catch (err) {
      if (err instanceof ApiFailure || (err instanceof Error && err.message.startsWith('server acknowledged'))) {
        this.sending = false;
        this.fatal = err;
        this.drainWaiters.splice(0).forEach((w) => w());
        return;
      }
    }
    this.sending = false;
    if (ok) {
      this.backoff = this.opts.backoffMs ?? 500;
      this.schedule(0);
    } else {
      if (this.opts.stats) this.opts.stats.failures++;
      const delay = this.backoff;
      this.backoff = Math.min(this.backoff * 2, this.opts.maxBackoffMs ?? 8_000);
      this.schedule(delay);
    }
  }

  /** A 4xx on an events request: the bot's script is wrong, not the network. */
  fatal: unknown = null;

  /** Resolves once the server acknowledged every event made so far. */
  drained(): Promise<void> {
    if (this.fatal) return Promise.reject(this.fatal);
    if (this.ackedSeq >= this.events.length) return Promise.resolve();
    this.schedule(0);
    return new Promise<void>((resolve) => this.drainWaiters.push(resolve)).then(() => {
      if (this.fatal) throw this.fatal;
      if (this.ackedSeq < this.events.length) return this.drained();
    });
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

  private surveyAnswers(phase: StudyConfig['phases'][number]): Record<string, unknown> {
    const answers: Record<string, unknown> = {};
    if (phase.kind !== 'survey' && phase.kind !== 'post_survey') return answers;
    for (const item of phase.items as any[]) {
      if (item.type === 'scale') answers[item.id] = item.min + this.rng.int(item.max - item.min + 1);
      else if (item.type === 'likert' || item.type === 'single') answers[item.id] = item.options[this.rng.int(item.options.length)];
      else if (item.type === 'multi') answers[item.id] = [item.options[0]];
      else if (item.type === 'number') answers[item.id] = item.min ?? 1;
      else answers[item.id] = 'bot answer: =HYPERLINK("x") <b>ok</b> é';
    }
    return answers;
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
          this.push(step, 'survey_submit', { survey_id: phase.id, answers: this.surveyAnswers(phase) });
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
