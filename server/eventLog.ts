// The durable NDJSON event log: one append-only file per session, fsync'd before anything is acknowledged.
import { closeSync, existsSync, fdatasyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const SESSION_FILE = /^[A-Za-z0-9_-]+\.ndjson$/;

export interface RecoveryReport {
  file: string;
  cut_bytes: number;
  lines: number;
}

export class EventLog {
  private fds = new Map<string, number>();

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

  /** Append records as NDJSON lines and make them durable before returning. */
  append(sessionId: string, records: readonly object[]): void {
    if (records.length === 0) return;
    const fd = this.fd(sessionId);
    const text = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    writeSync(fd, text);
    fdatasyncSync(fd);
  }

  /** Every record of a session, parsed. */
  read(sessionId: string): Record<string, unknown>[] {
    const path = this.pathOf(sessionId);
    if (!existsSync(path)) return [];
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  sessionIds(): string[] {
    return readdirSync(this.dir)
      .filter((f) => SESSION_FILE.test(f))
      .map((f) => f.slice(0, -'.ndjson'.length));
  }

  remove(sessionId: string): void {
    const fd = this.fds.get(sessionId);
    if (fd !== undefined) {
      closeSync(fd);
      this.fds.delete(sessionId);
    }
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
