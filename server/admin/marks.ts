// The experimenter's marks on sessions (pilot/test/excluded flags, extensions, ends by hand), in their own SQLite table.
import type Database from 'better-sqlite3';
import type { SessionFlag } from '../../shared/study/summary.ts';

export interface SessionMarks {
  flag: SessionFlag | null;
  extended_until: number | null;
  ended_at: number | null;
}

const NONE: SessionMarks = { flag: null, extended_until: null, ended_at: null };

export class AdminMarks {
  constructor(private readonly db: Database.Database) {
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS admin_marks (
        session_id TEXT PRIMARY KEY,
        flag TEXT,
        extended_until INTEGER,
        ended_at INTEGER,
        updated_at INTEGER NOT NULL
      );
    `);
  }

  of(sessionId: string): SessionMarks {
    const row = this.db.prepare('SELECT flag, extended_until, ended_at FROM admin_marks WHERE session_id = ?').get(sessionId) as SessionMarks | undefined;
    return row ?? NONE;
  }

  all(): Map<string, SessionMarks> {
    const rows = this.db.prepare('SELECT session_id, flag, extended_until, ended_at FROM admin_marks').all() as (SessionMarks & { session_id: string })[];
    return new Map(rows.map(({ session_id, ...m }) => [session_id, m]));
  }

  /** Session ids flagged pilot, test or excluded: kept, but out of the pool balance and of exports by default. */
  flagged(): Set<string> {
    return new Set((this.db.prepare('SELECT session_id FROM admin_marks WHERE flag IS NOT NULL').all() as { session_id: string }[]).map((r) => r.session_id));
  }

  set(sessionId: string, change: Partial<SessionMarks>, now: number): SessionMarks {
    const next = { ...this.of(sessionId), ...change };
    this.db
      .prepare(
        `INSERT INTO admin_marks (session_id, flag, extended_until, ended_at, updated_at) VALUES (@session_id, @flag, @extended_until, @ended_at, @now)
         ON CONFLICT(session_id) DO UPDATE SET flag = excluded.flag, extended_until = excluded.extended_until, ended_at = excluded.ended_at, updated_at = excluded.updated_at`,
      )
      .run({ session_id: sessionId, ...next, now });
    return next;
  }

  /** Forget a session (withdrawal). */
  remove(sessionId: string): void {
    this.db.prepare('DELETE FROM admin_marks WHERE session_id = ?').run(sessionId);
  }
}
