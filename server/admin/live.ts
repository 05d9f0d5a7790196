// The live picture for the dashboard: session summaries kept current from the service's feed, fanned out to listeners.
//
// Summaries are built lazily (the first dashboard request reads each session's log once, in slices) and then folded forward with
// each appended batch, so a busy study costs one fold per batch, not a re-read. Summary pushes are coalesced: a
// session that logs twenty events in a second is sent once per flush interval, so many participants cannot make a
// storm on the experimenter's connection. Record pushes for a watched session (the live mirror) go out at once.
import type { EventStore } from '../../store/eventLog.ts';
import type { StudyService } from '../studyService.ts';
import type { StudyStore } from '../../store/store.ts';
import type { LoadedStudy } from '../../shared/study/config.ts';
import type { AdminMarks } from './marks.ts';
import { expandSteps } from '../../shared/study/steps.ts';
import { foldRecords, summarizeSession, type SessionSummary } from '../../shared/study/summary.ts';
import type { LoggedEvent } from '../../shared/schema/event.ts';
import type { StoredSessionStatus } from '../../shared/schema/session.ts';

export type LiveMessage = { type: 'summary'; summary: SessionSummary } | { type: 'removed'; session_id: string };
export type RecordListener = (records: readonly LoggedEvent[]) => void;

export interface LiveOptions {
  service: StudyService;
  store: StudyStore;
  study: LoadedStudy;
  log: EventStore;
  marks: AdminMarks;
  flushMs?: number;
  clock?: () => number;
}

export class LiveSummaries {
  private cache: Map<string, SessionSummary> | null = null;
  private loading: Promise<void> | null = null;
  private readonly listeners = new Set<(messages: LiveMessage[]) => void>();
  private readonly watchers = new Map<string, Set<RecordListener>>();
  private readonly dirty = new Set<string>();
  private readonly removed = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private readonly flushMs: number;
  private readonly onAppended = (sessionId: string, records: readonly LoggedEvent[]) => {
    for (const w of this.watchers.get(sessionId) ?? []) w(records);
    if (!this.cache) return;
    const s = this.cache.get(sessionId);
    if (s) {
      const folded = foldRecords(s, records);
      // The sequence leased at consent: the timeline (and its length) now has the puzzles.
      if (folded.sequence.length > 0 && s.sequence.length === 0) folded.total_steps = this.totalSteps(folded.sequence);
      this.cache.set(sessionId, folded);
      this.markDirty(sessionId);
    } else void this.load(sessionId).then(() => this.markDirty(sessionId)); // new session: its log already holds these records
  };
  private readonly onSession = (sessionId: string, status: StoredSessionStatus) => {
    if (status === 'withdrawn') {
      this.cache?.delete(sessionId);
      this.dirty.delete(sessionId);
      this.removed.add(sessionId);
      for (const w of this.watchers.get(sessionId) ?? []) w([]);
      this.schedule();
      return;
    }
    void this.refresh(sessionId).catch(() => {});
  };

  /**
   * A session's marks, read with its row: a participant coming back to a session ended by hand (active again, its
   * end still marked) makes it live again, and the mark goes.
   */
  private async marksOf(sessionId: string, status: StoredSessionStatus) {
    const marks = await this.opts.marks.of(sessionId);
    if (status !== 'active' || marks.ended_at === null) return marks;
    return (await this.opts.marks.set(sessionId, { ended_at: null }, (this.opts.clock ?? Date.now)())) ?? marks;
  }

  constructor(private readonly opts: LiveOptions) {
    this.flushMs = opts.flushMs ?? 250;
    opts.service.feed.on('appended', this.onAppended);
    opts.service.feed.on('session', this.onSession);
  }

  private totalSteps(sequence: readonly string[]): number {
    return expandSteps(this.opts.study.config.phases, sequence).length;
  }

  /** Build one session's summary from its SQLite row, marks and NDJSON log. */
  private async load(sessionId: string): Promise<SessionSummary | undefined> {
    const row = await this.opts.store.session(sessionId);
    if (!row) return undefined;
    const seq = await this.opts.store.sequence(row.sequence_id);
    const sequence = seq ? seq.puzzle_ids : [];
    const records = await this.opts.log.read(sessionId);
    const marks = await this.marksOf(sessionId, row.status);
    const summary = summarizeSession(
      { session_id: row.id, mode: row.mode, label: row.label, status: row.status, created_at: row.created_at, sequence, total_steps: this.totalSteps(sequence), ...marks },
      records,
    );
    summary.status = row.status;
    this.cache?.set(sessionId, summary);
    return summary;
  }

  /**
   * Build every summary, a hundred sessions per turn of the event loop, so that opening the dashboard on a large
   * study never stalls participants' requests. Batches appended meanwhile fold into summaries already built; the
   * others are read from their files, which already hold them.
   */
  ready(): Promise<void> {
    if (!this.loading) {
      const cache = (this.cache = new Map());
      this.loading = (async () => {
        const ids = (await this.opts.store.sessions()).map((r) => r.id);
        for (let i = 0; i < ids.length; i++) {
          if (!cache.has(ids[i])) await this.load(ids[i]);
          if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
        }
      })();
    }
    return this.loading;
  }

  /** Every summary built so far (all of them once `ready()` has resolved), oldest first. */
  all(): SessionSummary[] {
    return [...(this.cache?.values() ?? [])].sort((a, b) => a.created_at - b.created_at);
  }

  async get(sessionId: string): Promise<SessionSummary | undefined> {
    return this.cache?.get(sessionId) ?? this.load(sessionId);
  }

  /**
   * Re-read a session's row and marks (status changes, flags; made here or by another process on the same database)
   * and push the result.
   */
  async refresh(sessionId: string): Promise<void> {
    if (!this.cache) return;
    const row = await this.opts.store.session(sessionId);
    if (!row) return;
    const s = this.cache.get(sessionId);
    if (!s) await this.load(sessionId);
    else {
      const marks = await this.marksOf(sessionId, row.status);
      const now = this.cache.get(sessionId) ?? s; // folded meanwhile
      this.cache.set(sessionId, { ...now, status: row.status, label: row.label, ...marks });
    }
    this.markDirty(sessionId);
  }

  private markDirty(sessionId: string): void {
    this.dirty.add(sessionId);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.listeners.size === 0) return;
    this.timer = setTimeout(() => this.flush(), this.flushMs);
    this.timer.unref();
  }

  private flush(): void {
    this.timer = null;
    const messages: LiveMessage[] = [];
    for (const id of this.removed) messages.push({ type: 'removed', session_id: id });
    for (const id of this.dirty) {
      const summary = this.cache?.get(id);
      if (summary) messages.push({ type: 'summary', summary });
    }
    this.removed.clear();
    this.dirty.clear();
    if (messages.length) for (const l of this.listeners) l(messages);
  }

  /** Listen for summary changes (coalesced); returns the unsubscribe function. */
  subscribe(listener: (messages: LiveMessage[]) => void): () => void {
    this.listeners.add(listener);
    if (this.dirty.size || this.removed.size) this.schedule();
    return () => this.listeners.delete(listener);
  }

  /** Listen for one session's records as they are made durable; an empty list means the session is gone. */
  watch(sessionId: string, listener: RecordListener): () => void {
    let set = this.watchers.get(sessionId);
    if (!set) this.watchers.set(sessionId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.watchers.delete(sessionId);
    };
  }

  close(): void {
    this.opts.service.feed.off('appended', this.onAppended);
    this.opts.service.feed.off('session', this.onSession);
    if (this.timer) clearTimeout(this.timer);
    this.listeners.clear();
    this.watchers.clear();
  }
}

/** The open SSE streams of each login token, so that a logout can end them. */
export class StreamsByToken {
  private readonly byToken = new Map<string, Set<() => void>>();
  /** Register a stream's `end`; returns the function that forgets it. */
  add(token: string, end: () => void): () => void {
    let set = this.byToken.get(token);
    if (!set) this.byToken.set(token, (set = new Set()));
    set.add(end);
    return () => {
      set.delete(end);
      if (set.size === 0 && this.byToken.get(token) === set) this.byToken.delete(token);
    };
  }
  closeAll(token: string | undefined): void {
    if (token === undefined) return;
    const set = this.byToken.get(token);
    this.byToken.delete(token);
    for (const end of set ?? []) end();
  }
}
