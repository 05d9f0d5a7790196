// The outbox: events persisted (localStorage) before anything else happens, sent in order, retried with backoff.
import type { ClientEvent } from '../../shared/schema/event.ts';

/** At most this many events per request (the API takes up to 500). */
const BATCH_SIZE = 200;

/** 'ended': the session is over on the server, which takes nothing more; the page sends nothing and waits for nothing. */
export type SaveStatus = 'saved' | 'saving' | 'offline' | 'ended';

/** Where the outbox keeps its queue: the browser's localStorage, or any store of strings by key (the test bots). */
export type OutboxStorage = Pick<Storage, 'getItem' | 'setItem'>;

export interface OutboxOptions {
  /** Default: the browser's localStorage. */
  storage?: OutboxStorage;
  /** Retry delays double from `backoffMs` (500) up to `maxBackoffMs` (8000). */
  backoffMs?: number;
  maxBackoffMs?: number;
}

export class Outbox {
  private queue: ClientEvent[];
  private acked: number;
  private sending = false;
  private backoffMs: number;
  private readonly firstBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly storage: OutboxStorage;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private listeners = new Set<(s: SaveStatus) => void>();
  private waiters: (() => void)[] = [];
  status: SaveStatus = 'saved';
  private stopped = false;

  constructor(
    private readonly sessionId: string,
    serverAcked: number,
    private readonly send: (events: ClientEvent[]) => Promise<number>,
    /**
     * Called with a send error; true when the error is permanent (stop retrying, stay offline); 'ended' when the
     * session has ended on the server (drop the queue, send nothing more, status 'ended').
     */
    private readonly isFatal: (err: unknown) => boolean | 'ended' = () => false,
    /**
     * Called with a send error: when the server refused one event of the batch for good (400 naming its seq), the
     * record to send in its place under the same seq (a `client_error`); null otherwise. The refused event is kept
     * in this browser (`refused()`), and the rest goes on instead of waiting behind it forever.
     */
    private readonly setAside: (err: unknown, batch: readonly ClientEvent[]) => ClientEvent | null = () => null,
    options: OutboxOptions = {},
  ) {
    this.storage = options.storage ?? localStorage;
    this.firstBackoffMs = options.backoffMs ?? 500;
    this.maxBackoffMs = options.maxBackoffMs ?? 8_000;
    this.backoffMs = this.firstBackoffMs;
    const stored = this.storage.getItem(this.key('queue'));
    this.queue = stored ? (JSON.parse(stored) as ClientEvent[]) : [];
    this.acked = serverAcked;
    this.queue = this.queue.filter((e) => e.seq > this.acked);
    this.persist();
    if (this.queue.length > 0) this.schedule(0);
  }

  private key(what: string): string {
    return `nonolab.${this.sessionId}.${what}`;
  }

  /**
   * What this browser holds for a session before any outbox of this page exists: its queue (events not yet
   * acknowledged, as another window's outbox may be sending them right now) and the last seq used.
   */
  static stored(sessionId: string, storage: OutboxStorage = localStorage): { queue: ClientEvent[]; lastSeq: number } {
    const queue = storage.getItem(`nonolab.${sessionId}.queue`);
    return { queue: queue ? (JSON.parse(queue) as ClientEvent[]) : [], lastSeq: Number(storage.getItem(`nonolab.${sessionId}.seq`) ?? 0) };
  }

  /** The last sequence number used: local events may be ahead of the server's acknowledgement. */
  lastSeq(): number {
    return Math.max(this.acked, Number(this.storage.getItem(this.key('seq')) ?? 0), this.queue.at(-1)?.seq ?? 0);
  }

  /** Another window took over this session: write and send nothing more (its outbox holds our events). */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The session is over on the server, which takes nothing more: drop the queue, send nothing more, status 'ended'. */
  end(): void {
    this.queue = [];
    this.persist();
    this.stop();
    this.setStatus('ended');
    this.waiters.splice(0).forEach((w) => w());
  }

  push(event: ClientEvent): void {
    if (this.stopped) return;
    this.queue.push(event);
    this.storage.setItem(this.key('seq'), String(event.seq));
    this.persist();
    // Say "saving" at once: the indicator never claims "saved" while an event waits to be sent.
    if (this.status === 'saved') this.setStatus('saving');
    this.schedule(0);
  }

  private persist(): void {
    if (this.stopped) return;
    this.storage.setItem(this.key('queue'), JSON.stringify(this.queue));
  }

  private setStatus(s: SaveStatus): void {
    if (this.status === s) return;
    this.status = s;
    for (const l of this.listeners) l(s);
  }

  subscribe(listener: (s: SaveStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private schedule(delay: number): void {
    if (this.timer !== null || this.sending || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, delay);
  }

  private async flush(): Promise<void> {
    if (this.sending) return;
    if (this.queue.length === 0) {
      this.setStatus('saved');
      this.waiters.splice(0).forEach((w) => w());
      return;
    }
    this.sending = true;
    this.setStatus(this.status === 'offline' ? 'offline' : 'saving');
    const batch = this.queue.slice(0, BATCH_SIZE);
    try {
      const acked = await this.send(batch);
      this.acked = Math.max(this.acked, acked);
      this.queue = this.queue.filter((e) => e.seq > this.acked);
      this.persist();
      this.backoffMs = this.firstBackoffMs;
      this.sending = false;
      if (this.queue.length > 0) this.schedule(0);
      else {
        this.setStatus('saved');
        this.waiters.splice(0).forEach((w) => w());
      }
    } catch (err) {
      this.sending = false;
      const replacement = this.setAside(err, batch);
      const at = replacement ? this.queue.findIndex((e) => e.seq === replacement.seq) : -1;
      if (replacement && at >= 0) {
        this.storage.setItem(this.key('refused'), JSON.stringify([...this.refused(), this.queue[at]]));
        this.queue[at] = replacement;
        this.persist();
        this.schedule(0);
        return;
      }
      const fatal = this.isFatal(err);
      if (fatal === 'ended') {
        this.end();
        return;
      }
      this.setStatus('offline');
      if (fatal) return;
      const delay = this.backoffMs;
      this.backoffMs = Math.min(this.backoffMs * 2, this.maxBackoffMs);
      this.schedule(delay);
    }
  }

  /** Events the server refused for good and that were replaced by a `client_error` record (kept in this browser). */
  refused(): unknown[] {
    return JSON.parse(this.storage.getItem(this.key('refused')) ?? '[]') as unknown[];
  }

  /** Events persisted here that the server has not acknowledged yet, in order. */
  pending(): ClientEvent[] {
    return [...this.queue];
  }

  /** The browser says it is back online: try now instead of waiting out the backoff. */
  retryNow(): void {
    if (this.queue.length === 0 || this.sending) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.backoffMs = this.firstBackoffMs;
    this.schedule(0);
  }

  /** Resolves once the server has acknowledged every event pushed so far. */
  drained(): Promise<void> {
    if (this.queue.length === 0) return Promise.resolve();
    this.schedule(0);
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
