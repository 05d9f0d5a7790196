// The experimenter's marks on sessions (pilot/test/excluded flags, extensions, ends by hand), kept in the study's store.
import type { SessionMarks, StoreOps } from '../../store/store.ts';

export type { SessionMarks };

const NONE: SessionMarks = { flag: null, extended_until: null, ended_at: null };

/** The marks over the store (SQLite or PostgreSQL: every process on one database sees the same marks). */
export class AdminMarks {
  constructor(private readonly store: StoreOps) {}

  async of(sessionId: string): Promise<SessionMarks> {
    return (await this.store.marksOf(sessionId)) ?? NONE;
  }

  async all(): Promise<Map<string, SessionMarks>> {
    return new Map((await this.store.allMarks()).map(({ session_id, ...m }) => [session_id, m]));
  }

  /** Session ids flagged pilot, test or excluded: kept, but out of the pool balance and of exports by default. */
  async flagged(): Promise<Set<string>> {
    return new Set(await this.store.flaggedSessions());
  }

  /** Change some marks; the session's marks after it, or undefined when the session is gone (withdrawn meanwhile). */
  set(sessionId: string, change: Partial<SessionMarks>, now: number): Promise<SessionMarks | undefined> {
    return this.store.setMarks(sessionId, change, now);
  }
}
