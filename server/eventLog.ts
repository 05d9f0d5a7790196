// The durable NDJSON event log: one append-only file per session, fsync'd before anything is acknowledged.
//
// Group commit. Client events arrive in many small requests; an fsync on this kind of disk costs milliseconds, so
// one fsync per request on the event loop caps the server at a few hundred requests per second. `appendDurable`
// instead queues a request's records and returns a promise. One flush at a time runs: it takes everything queued so
// far, writes each session's queued records as one chunk to that session's file and fdatasyncs every touched file in
// parallel on the libuv thread pool (the file system's journal merges concurrent fsyncs into few commits), then runs
// the callers' after-sync work in one go (the StudyService updates SQLite in one transaction) and only then
// resolves the promises, which is when the HTTP answers go out. Requests that arrive while a flush is in flight wait
// for the next one, so a busy server does fewer, larger flushes instead of queueing fsyncs.
//
// Why order and durability hold: flushes never overlap, a session's records are queued in arrival order and written
// as one chunk per flush, so a file only ever grows by whole records in the order they were accepted; a promise is
// resolved only after the fdatasync that covers its bytes has returned. If a write or fsync fails, that chunk and
// everything queued behind it for the same session are rejected (never written after a hole) and the file is cut
// back to where the failed chunk began, so the caller can take the retries from its last durable point.
// What it cannot do: survive a disk that lies about fsync, or make the synchronous `append` (used for the server's
// own records: session start, checks, hints, completion) cheaper: that one still writes and fsyncs on the event
// loop, so it stays durable before the caller answers.
import { closeSync, existsSync, fdatasync, fdatasyncSync, fstatSync, ftruncateSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, write, writeSync } from 'node:fs';
import { join } from 'node:path';

const SESSION_FILE = /^[A-Za-z0-9_-]+\.ndjson$/;

export interface RecoveryReport {
  file: string;
  cut_bytes: number;
  lines: number;
}

/** The session's file was removed (withdrawal) before its queued records could be written. */
export class SessionRemovedError extends Error {}

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
  afterSync?: () => void;
}

interface Queued {
  chunks: string[];
  waiters: Waiter[];
}

const writeChunk = (fd: number, buf: Buffer, offset: number): Promise<number> =>
  new Promise((resolve, reject) => write(fd, buf, offset, buf.length - offset, null, (err, n) => (err ? reject(err) : resolve(n))));
const syncFd = (fd: number): Promise<void> => new Promise((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve())));

export class EventLog {
  private fds = new Map<string, number>();
  /** Records waiting for the next flush, per session, in arrival order. */
  private queue = new Map<string, Queued>();
  private flushing = false;
  /** Sessions whose file descriptor a running flush is using (a removal then closes it after the flush). */
  private busy = new Set<string>();
  private closeAfterFlush = new Set<string>();
  /** Bytes of each file known to be durable: reads stop there, so nothing not yet fsync'd is ever served. */
  private durable = new Map<string, number>();
  /**
   * Wraps the after-sync work of one flush (all its callers' callbacks), e.g. in one SQLite transaction.
   * Set by the owner; the default just runs it.
   */
  afterSyncGroup: (run: () => void) => void = (run) => run();

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  pathOf(sessionId: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(sessionId)) throw new Error(`bad session id '${sessionId}'`);
    return join(this.dir, `${sessionId}.ndjson`);
  }

  private fd(sessionId: string): number {
    let fd = this.fds.get(sessionId);
    if (fd === undefined) {
      fd = openSync(this.pathOf(sessionId), 'a');
      this.fds.set(sessionId, fd);
    }
    return fd;
  }

  /** Append records as NDJSON lines and make them durable before returning (blocks the event loop for one fsync). */
  append(sessionId: string, records: readonly object[]): void {
    if (records.length === 0) return;
    const fd = this.fd(sessionId);
    const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    writeSync(fd, text);
    const size = fstatSync(fd).size;
    fdatasyncSync(fd);
    this.durable.set(sessionId, Math.max(this.durable.get(sessionId) ?? 0, size));
  }

  /**
   * Queue records for the next group commit. Resolves once they are written and fsync'd (and `afterSync` has run);
   * rejects if the write failed, in which case nothing queued after them for this session was written either.
   */
  appendDurable(sessionId: string, records: readonly object[], afterSync?: () => void): Promise<void> {
    this.pathOf(sessionId);
    return new Promise<void>((resolve, reject) => {
      let q = this.queue.get(sessionId);
      if (!q) this.queue.set(sessionId, (q = { chunks: [], waiters: [] }));
      if (records.length > 0) q.chunks.push(records.map((r) => JSON.stringify(r)).join('\n') + '\n');
      q.waiters.push({ resolve, reject, afterSync });
      if (!this.flushing) {
        this.flushing = true;
        // Let the requests already parsed in this turn of the event loop join the first flush.
        setImmediate(() => void this.flushLoop());
      }
    });
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.queue.size > 0) {
        const group = this.queue;
        this.queue = new Map();
        await this.flushGroup(group);
      }
    } finally {
      this.flushing = false;
    }
  }

  private async flushGroup(group: Map<string, Queued>): Promise<void> {
    const entries = [...group];
    for (const [id] of entries) this.busy.add(id);
    const outcomes = await Promise.all(entries.map(([id, q]) => this.writeAndSync(id, q.chunks.join(''))));
    for (const [id] of entries) this.busy.delete(id);
    const ok: Queued[] = [];
    entries.forEach(([id, q], i) => {
      const outcome = outcomes[i];
      if (outcome.error === undefined) {
        ok.push(q);
        if (outcome.size !== undefined) this.durable.set(id, Math.max(this.durable.get(id) ?? 0, outcome.size));
        return;
      }
      for (const w of q.waiters) w.reject(outcome.error);
      // Never write later records of this session after a hole: reject what queued up behind the failed chunk.
      const behind = this.queue.get(id);
      if (behind) {
        this.queue.delete(id);
        for (const w of behind.waiters) w.reject(outcome.error);
      }
    });
    for (const id of this.closeAfterFlush) this.closeFd(id);
    this.closeAfterFlush.clear();
    let afterError: unknown;
    try {
      if (ok.some((q) => q.waiters.some((w) => w.afterSync)))
        this.afterSyncGroup(() => {
          for (const q of ok) for (const w of q.waiters) w.afterSync?.();
        });
    } catch (err) {
      afterError = err;
    }
    for (const q of ok) for (const w of q.waiters) (afterError === undefined ? w.resolve() : w.reject(afterError));
  }

  /** Write one chunk (all of it, looping over short writes) and fdatasync; on failure cut the file back. */
  private async writeAndSync(sessionId: string, text: string): Promise<{ error?: unknown; size?: number }> {
    if (text.length === 0) return {};
    let fd: number;
    let start: number;
    try {
      fd = this.fd(sessionId);
      start = fstatSync(fd).size;
    } catch (error) {
      return { error };
    }
    const buf = Buffer.from(text, 'utf8');
    try {
      let done = 0;
      while (done < buf.length) done += await writeChunk(fd, buf, done);
      // Every byte in the file now (ours and any written before) is covered by the fdatasync that follows.
      const size = fstatSync(fd).size;
      await syncFd(fd);
      return { size };
    } catch (error) {
      try {
        ftruncateSync(fd, start);
      } catch {
        // the file is cut again at start-up recovery if it still ends in a torn line
      }
      return { error };
    }
  }

  /**
   * Every durable record of a session, parsed. Records still being written (past the last fsync this process made)
   * and a trailing partial line are left out.
   */
  read(sessionId: string): Record<string, unknown>[] {
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
      .map((l) => JSON.parse(l) as Record<string, unknown>);
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
    }
  }

  /** Delete a session's file; records still queued for it are rejected with SessionRemovedError. */
  remove(sessionId: string): void {
    const queued = this.queue.get(sessionId);
    if (queued) {
      this.queue.delete(sessionId);
      for (const w of queued.waiters) w.reject(new SessionRemovedError(`session ${sessionId} was removed`));
    }
    // A running flush may still be writing through this descriptor: close it when the flush is over, so the number
    // cannot be reused by another session's file in the meantime.
    if (this.busy.has(sessionId)) this.closeAfterFlush.add(sessionId);
    else this.closeFd(sessionId);
    this.durable.delete(sessionId);
    rmSync(this.pathOf(sessionId), { force: true });
  }

  /**
   * Cut a torn last line (a crash in the middle of a write) from every file. A line is whole only when it ends
   * in a newline and parses as JSON; everything from the first bad line on is cut.
   */
  recover(): RecoveryReport[] {
    const reports: RecoveryReport[] = [];
    for (const id of this.sessionIds()) {
      const path = this.pathOf(id);
      const buf = readFileSync(path);
      let good = 0;
      let lines = 0;
      let start = 0;
      while (start < buf.length) {
        const nl = buf.indexOf(10, start);
        if (nl < 0) break;
        try {
          JSON.parse(buf.subarray(start, nl).toString('utf8'));
        } catch {
          break;
        }
        lines++;
        good = nl + 1;
        start = nl + 1;
      }
      if (good < buf.length) {
        const fd = openSync(path, 'r+');
        ftruncateSync(fd, good);
        fdatasyncSync(fd);
        closeSync(fd);
        reports.push({ file: path, cut_bytes: buf.length - good, lines });
      }
    }
    return reports;
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }
}
