// The durable NDJSON event log: one append-only file per session, fsync'd before anything is acknowledged.
//
// Group commit. Client events arrive in many small requests; an fsync on this kind of disk costs milliseconds, so
// one fsync per request on the event loop (what this file did first) caps the server at a few hundred requests per
// second and stalls every other request meanwhile. `appendDurable` instead queues a request's records and returns a
// promise. Each session has at most one write in flight: when records arrive for an idle session, a write of
// everything queued for it starts on the next turn of the event loop (so the requests parsed in this turn join it);
// records arriving while it runs wait and go out together in the session's next write. A write is one `write` of
// whole NDJSON lines (looping over short writes) and one `fdatasync`, both on the libuv thread pool, so many
// sessions' fsyncs run at once and the file system's journal merges them into few commits (UV_THREADPOOL_SIZE
// bounds how many; the benchmark uses 64). Writes that finish in the same turn are committed together: the owner's
// after-sync work runs in one wrapper (StudyService: one SQLite transaction for every session's acked_seq), then the
// promises resolve, which is when the HTTP answers go out.
//
// Why order and durability hold: a session's records are queued in arrival order and its writes never overlap, so a
// file only ever grows by whole records in the order they were accepted; a promise resolves only after the fdatasync
// covering its bytes returned. If a write or fsync fails, that chunk and everything queued behind it for the session
// are rejected (never written after a hole) and the file is cut back to where the chunk began, so the caller can take
// the retries from its last durable point. Reads (`read`) stop at the last byte known durable, so nothing that might
// still vanish is served. A crash can leave only a torn tail (the last write), which `recover` cuts at start-up; any
// other damage (a bad line in the middle, a whole line that does not parse) is not ours to cut: every valid line is
// kept, the original goes to `quarantine/`, and the session is reported.
// The server's own records (session start, checks, hints, completion) take the same path (StudyService.appendRecords),
// so they are ordered with the session's client events and their answers wait for the same fsync.
// What it cannot do: survive a disk that lies about fsync.
import { createInterface } from 'node:readline';
import { closeSync, createReadStream, existsSync, fdatasync, fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, write, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { LoggedEvent } from '../shared/schema/event.ts';
import { completeLines } from '../shared/log/index.ts';
import type { StoreOps } from './store.ts';

/** A session's acknowledged seq and step after a batch, stored with it (the store's `updateProgress`). */
export interface Progress {
  acked: number;
  step: number;
  now: number;
}

/**
 * Where a session's records are kept, whichever store: NDJSON files here (EventLog), rows in PostgreSQL (pgStore.ts).
 * `appendDurable` resolves once the records are durable and `progress` (the acked seq and step they bring) is stored:
 * after the fsync, in the group's SQLite transaction, here; in the same transaction as the rows on PostgreSQL.
 */
export interface EventStore {
  /**
   * `inSeqOrder`: the records fill a gap that start-up left in a repaired log (valid lines kept after a damaged one):
   * each client record goes before the first logged client record with a higher seq, a server record right after the
   * record before it, so the file stays in seq order (the file store rewrites the file atomically; PostgreSQL never
   * has such a gap).
   */
  appendDurable(sessionId: string, records: readonly LoggedEvent[], progress?: Progress, inSeqOrder?: boolean): Promise<void>;
  /** Every durable record of a session, in order. */
  read(sessionId: string): LoggedEvent[] | Promise<LoggedEvent[]>;
  /** The records of a session, one at a time (exports). */
  stream(sessionId: string): AsyncIterable<Record<string, unknown>>;
  sessionIds(): string[] | Promise<string[]>;
  /**
   * How many records a session's log holds, when other processes may append to it too (PostgreSQL): a process checks
   * its cached view of a session against it. Absent when this process is the only writer (the files).
   */
  count?(sessionId: string): Promise<number>;
  /** Delete every record of a session (withdrawal); records still queued for it are rejected with SessionRemovedError. */
  remove(sessionId: string): void | Promise<void>;
  close(): void | Promise<void>;
}

const SESSION_FILE = /^[A-Za-z0-9_-]+\.ndjson$/;

/** Write a whole file and fdatasync it before returning (start-up repairs; not the hot path). */
function writeFileDurably(path: string, content: Buffer, flags: 'w' | 'wx'): void {
  const fd = openSync(path, flags);
  try {
    writeSync(fd, content);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface RecoveryReport {
  /** 'torn': an unterminated last line was cut (a crash mid-write); 'quarantined': damaged lines were left out. */
  kind: 'torn' | 'quarantined';
  session_id: string;
  file: string;
  cut_bytes: number;
  lines: number;
  /** 1-based numbers of the lines left out (quarantined), and where the original was copied. */
  bad_lines?: number[];
  quarantine?: string;
}

/** The session's file was removed (withdrawal) before its queued records could be written. */
export class SessionRemovedError extends Error {}

/** The records are durable, but the owner's after-sync work (its SQLite update) failed. */
export class AfterSyncError extends Error {
  constructor(readonly reason: unknown) {
    super(`after-sync work failed: ${String((reason as Error)?.message ?? reason)}`);
  }
}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
  progress?: Progress;
}

/** Queued bytes to append, or records to put in seq order among those already logged (a repaired gap). */
type Chunk = string | { inSeqOrder: readonly LoggedEvent[] };

interface SessionQueue {
  chunks: Chunk[];
  waiters: Waiter[];
  writing: boolean;
  scheduled: boolean;
}

/**
 * Put records among a log's lines in seq order: a client record before the first logged client record with a higher
 * seq (or at the end), a server record right after the record placed before it.
 */
function placeInSeqOrder(lines: string[], records: readonly LoggedEvent[]): void {
  // Each logged line's client seq, read once (0 for a server record).
  const seqs = lines.map((l) => {
    const o = JSON.parse(l) as { origin?: string; seq?: number };
    return o.origin === 'client' ? (o.seq ?? 0) : 0;
  });
  let at = lines.length;
  for (const r of records) {
    if (r.origin === 'client') {
      at = seqs.findIndex((seq) => seq > r.seq);
      if (at < 0) at = lines.length;
    }
    lines.splice(at, 0, JSON.stringify(r));
    seqs.splice(at, 0, r.origin === 'client' ? r.seq : 0);
    at += 1;
  }
}

const writeChunk = (fd: number, buf: Buffer, offset: number): Promise<number> =>
  new Promise((resolve, reject) => write(fd, buf, offset, buf.length - offset, null, (err, n) => (err ? reject(err) : resolve(n))));
const syncFd = (fd: number): Promise<void> => new Promise((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())));

export class EventLog implements EventStore {
  private fds = new Map<string, number>();
  /** Bytes in each open file (read once when it is opened, then counted as this process writes): no fstat per write. */
  private sizes = new Map<string, number>();
  /** Per session with records queued or in flight: what waits for its next write, and whether one is running. */
  private sessions = new Map<string, SessionQueue>();
  /** Writes that are durable and wait for the next commit (after-sync work, then acknowledgement), in order. */
  private synced: { sessionId: string; size: number; waiters: Waiter[] }[] = [];
  private commitScheduled = false;
  private closeAfterWrite = new Set<string>();
  /** Bytes of each file known to be durable: reads stop there, so nothing not yet fsync'd is ever served. */
  private durable = new Map<string, number>();
  /**
   * Wraps the after-sync work of one commit (all its callers' callbacks), e.g. in one SQLite transaction.
   * Set by the owner; the default just runs it.
   */
  afterSyncGroup: (run: () => void) => void = (run) => run();
  /** The store operations the after-sync work runs on (synchronously, inside `afterSyncGroup`): SQLite's `direct`. */
  afterSyncOps: StoreOps | null = null;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  pathOf(sessionId: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) throw new Error(`bad session id '${sessionId}'`);
    return join(this.dir, `${sessionId}.ndjson`);
  }

  private fd(sessionId: string): number {
    let fd = this.fds.get(sessionId);
    if (fd === undefined) this.adopt(sessionId, (fd = openSync(this.pathOf(sessionId), 'a')));
    return fd;
  }

  private adopt(sessionId: string, fd: number): void {
    this.fds.set(sessionId, fd);
    this.sizes.set(sessionId, fstatSync(fd).size);
  }

  /**
   * Queue records for the session's next write. Resolves once they are written and fsync'd (and `afterSync` has run);
   * rejects if the write failed, in which case nothing queued after them for this session was written either, or with
   * AfterSyncError if they are durable but the after-sync work of their commit threw.
   */
  appendDurable(sessionId: string, records: readonly LoggedEvent[], progress?: Progress, inSeqOrder = false): Promise<void> {
    this.pathOf(sessionId);
    return new Promise<void>((resolve, reject) => {
      let q = this.sessions.get(sessionId);
      if (!q) this.sessions.set(sessionId, (q = { chunks: [], waiters: [], writing: false, scheduled: false }));
      if (records.length > 0) q.chunks.push(inSeqOrder ? { inSeqOrder: records } : records.map((r) => JSON.stringify(r)).join('\n') + '\n');
      q.waiters.push({ resolve, reject, progress });
      if (!q.writing && !q.scheduled) {
        q.scheduled = true;
        // Let the requests already parsed in this turn of the event loop join this write.
        setImmediate(() => this.startWrite(sessionId));
      }
    });
  }

  private startWrite(sessionId: string): void {
    const q = this.sessions.get(sessionId);
    if (!q) return;
    q.scheduled = false;
    if (q.writing) return;
    if (q.waiters.length === 0) {
      this.sessions.delete(sessionId);
      return;
    }
    const chunks = q.chunks;
    const waiters = q.waiters;
    q.chunks = [];
    q.waiters = [];
    q.writing = true;
    const write = chunks.every((c) => typeof c === 'string') ? this.writeAndSync(sessionId, chunks.join('')) : this.rewriteInOrder(sessionId, chunks);
    void write.then((outcome) => {
      q.writing = false;
      if (this.closeAfterWrite.delete(sessionId)) this.closeFd(sessionId);
      if (outcome.error !== undefined) {
        for (const w of waiters) w.reject(outcome.error);
        // Never write later records of this session after a hole: reject what queued up behind the failed chunk.
        for (const w of q.waiters) w.reject(outcome.error);
        q.chunks = [];
        q.waiters = [];
      } else {
        this.synced.push({ sessionId, size: outcome.size ?? 0, waiters });
        if (!this.commitScheduled) {
          this.commitScheduled = true;
          setImmediate(() => this.commit());
        }
      }
      if (q.waiters.length > 0) this.startWrite(sessionId);
      else if (this.sessions.get(sessionId) === q) this.sessions.delete(sessionId);
    });
  }

  /** Run the after-sync work of every write that became durable since the last commit in one go, then acknowledge. */
  private commit(): void {
    this.commitScheduled = false;
    const done = this.synced;
    this.synced = [];
    let afterError: unknown;
    try {
      if (done.some((d) => d.waiters.some((w) => w.progress)))
        this.afterSyncGroup(() => {
          for (const d of done) for (const w of d.waiters) if (w.progress) void this.afterSyncOps!.updateProgress(d.sessionId, w.progress.acked, w.progress.step, w.progress.now);
        });
    } catch (err) {
      afterError = err;
    }
    for (const d of done) {
      if (d.size > 0 && this.fds.has(d.sessionId)) this.durable.set(d.sessionId, Math.max(this.durable.get(d.sessionId) ?? 0, d.size));
      for (const w of d.waiters) (afterError === undefined ? w.resolve() : w.reject(new AfterSyncError(afterError)));
    }
  }

  /** Write one chunk (all of it, looping over short writes) and fdatasync; on failure cut the file back. */
  private async writeAndSync(sessionId: string, text: string): Promise<{ error?: unknown; size?: number }> {
    if (text.length === 0) return {};
    let fd: number;
    let start: number;
    try {
      fd = this.fd(sessionId);
      start = this.sizes.get(sessionId) ?? fstatSync(fd).size;
    } catch (error) {
      return { error };
    }
    const buf = Buffer.from(text, 'utf8');
    try {
      let done = 0;
      while (done < buf.length) done += await writeChunk(fd, buf, done);
      // Every byte in the file now (ours and any written before) is covered by the fdatasync that follows.
      const size = start + buf.length;
      this.sizes.set(sessionId, size);
      await syncFd(fd);
      return { size };
    } catch (error) {
      try {
        ftruncateSync(fd, start);
        this.sizes.set(sessionId, start);
      } catch {
        // the file is cut again at start-up recovery if it still ends in a torn line
      }
      return { error };
    }
  }

  /**
   * A write that fills a repaired log's gap (rare: only after start-up kept valid lines past a damaged one): the file
   * with every chunk applied in order (appended, or put in seq order) is written beside it, fsync'd, and renamed over
   * it, then the directory is fsync'd; a failure leaves the old file as it was.
   */
  private async rewriteInOrder(sessionId: string, chunks: readonly Chunk[]): Promise<{ error?: unknown; size?: number }> {
    const path = this.pathOf(sessionId);
    try {
      const lines = existsSync(path) ? completeLines(readFileSync(path, 'utf8')) : [];
      for (const chunk of chunks) {
        if (typeof chunk === 'string') lines.push(...completeLines(chunk));
        else placeInSeqOrder(lines, chunk.inSeqOrder);
      }
      const content = Buffer.from(lines.map((l) => `${l}\n`).join(''), 'utf8');
      const tmp = `${path}.fill`;
      writeFileDurably(tmp, content, 'w');
      this.closeFd(sessionId);
      renameSync(tmp, path);
      this.syncDir();
      // The whole new file is durable (the bound of the old one would cut it).
      this.durable.delete(sessionId);
      return { size: content.length };
    } catch (error) {
      rmSync(`${path}.fill`, { force: true });
      return { error };
    }
  }

  /**
   * Every durable record of a session, parsed. Records still being written (past the last fsync this process made)
   * and a trailing partial line are left out. Typed without a second check: this process wrote them, each one checked
   * at intake (a file from elsewhere is read with shared/log's parseRecord, as the analysis does).
   */
  read(sessionId: string): LoggedEvent[] {
    const path = this.pathOf(sessionId);
    if (!existsSync(path)) return [];
    let buf = readFileSync(path);
    const durable = this.durable.get(sessionId);
    if (durable !== undefined && durable < buf.length) buf = buf.subarray(0, durable);
    const end = buf.lastIndexOf(10) + 1;
    return buf
      .subarray(0, end)
      .toString('utf8')
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as LoggedEvent);
  }

  async *stream(sessionId: string): AsyncGenerator<Record<string, unknown>> {
    const path = this.pathOf(sessionId);
    if (!existsSync(path)) return;
    const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
    for await (const line of lines) if (line.length > 0) yield JSON.parse(line) as Record<string, unknown>;
  }

  sessionIds(): string[] {
    return readdirSync(this.dir)
      .filter((f) => SESSION_FILE.test(f))
      .map((f) => f.slice(0, -'.ndjson'.length));
  }

  private closeFd(sessionId: string): void {
    const fd = this.fds.get(sessionId);
    if (fd !== undefined) {
      closeSync(fd);
      this.fds.delete(sessionId);
      this.sizes.delete(sessionId);
    }
  }

  /** Delete a session's file; records still queued for it are rejected with SessionRemovedError. */
  remove(sessionId: string): void {
    const q = this.sessions.get(sessionId);
    if (q) {
      for (const w of q.waiters) w.reject(new SessionRemovedError(`session ${sessionId} was removed`));
      q.chunks = [];
      q.waiters = [];
    }
    // A running write may still use this descriptor: close it when the write is over, so the number cannot be
    // reused by another session's file in the meantime.
    if (q?.writing) this.closeAfterWrite.add(sessionId);
    else this.closeFd(sessionId);
    this.durable.delete(sessionId);
    rmSync(this.pathOf(sessionId), { force: true });
    // Copies of a damaged file kept aside at start-up are the participant's data too.
    const quarantine = join(this.dir, 'quarantine');
    if (existsSync(quarantine))
      for (const f of readdirSync(quarantine)) if (f.startsWith(`${sessionId}.`) && f.endsWith('.ndjson')) rmSync(join(quarantine, f), { force: true });
    // The unlink is durable only once the directory is: a withdrawal must not come back after a crash.
    this.syncDir();
  }

  private syncDir(): void {
    const fd = openSync(this.dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Start-up: check every file. An unterminated last line is a write torn by a crash, and is cut. Any other line that
   * does not parse (in the middle, or a whole last line) is damage from elsewhere: every valid line is kept (the file
   * is rewritten with them, atomically), the original is copied to `quarantine/<session>.<n>.ndjson`, and the report
   * says which lines were left out, so the caller can flag the session and log it loudly. `visit` gets each file's
   * valid records as they were parsed here, so start-up reads and parses every log once.
   */
  recover(visit?: (sessionId: string, records: LoggedEvent[]) => void): RecoveryReport[] {
    const reports: RecoveryReport[] = [];
    for (const id of this.sessionIds()) {
      const path = this.pathOf(id);
      const buf = readFileSync(path);
      const records: LoggedEvent[] = [];
      const kept: Buffer[] = [];
      const bad: number[] = [];
      let start = 0;
      let line = 0;
      while (start < buf.length) {
        const nl = buf.indexOf(10, start);
        if (nl < 0) break;
        line += 1;
        const bytes = buf.subarray(start, nl + 1);
        try {
          const text = bytes.toString('utf8', 0, bytes.length - 1);
          if (text.length > 0) records.push(JSON.parse(text) as LoggedEvent);
          kept.push(bytes);
        } catch {
          bad.push(line);
        }
        start = nl + 1;
      }
      const torn = buf.length - start;
      if (bad.length > 0) {
        const quarantine = this.quarantine(id, buf);
        const good = Buffer.concat(kept);
        const tmp = `${path}.repair`;
        writeFileDurably(tmp, good, 'w');
        renameSync(tmp, path);
        this.syncDir();
        reports.push({ kind: 'quarantined', session_id: id, file: path, cut_bytes: buf.length - good.length, lines: records.length, bad_lines: bad, quarantine });
      } else if (torn > 0) {
        const fd = openSync(path, 'r+');
        ftruncateSync(fd, start);
        fdatasyncSync(fd);
        closeSync(fd);
        reports.push({ kind: 'torn', session_id: id, file: path, cut_bytes: torn, lines: records.length });
      }
      visit?.(id, records);
    }
    return reports;
  }

  /** Copy a damaged file aside, untouched (`quarantine/<session>.<n>.ndjson`), and return its path. */
  private quarantine(sessionId: string, content: Buffer): string {
    const dir = join(this.dir, 'quarantine');
    mkdirSync(dir, { recursive: true });
    let n = 1;
    while (existsSync(join(dir, `${sessionId}.${n}.ndjson`))) n += 1;
    const path = join(dir, `${sessionId}.${n}.ndjson`);
    writeFileDurably(path, content, 'wx');
    return path;
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
    this.sizes.clear();
  }
}
