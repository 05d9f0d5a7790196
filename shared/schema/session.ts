// A session's status and the experimenter's marks: declared once, used by the store, the service, the dashboard and the analysis.
import { z } from 'zod';

/**
 * Where a session stands on the server. `active` until it ends: `complete` (the code went out), `declined` or
 * `screened_out` (the progression ended it at that step_end), `abandoned` (silent too long, or ended by hand; it can
 * come back), `withdrawn` (the participant's data is gone).
 */
export const SessionStatus = z.enum(['active', 'complete', 'declined', 'screened_out', 'withdrawn', 'abandoned']);
export type SessionStatus = z.infer<typeof SessionStatus>;

/** What the store may hold: also `withdrawing`, a withdrawal under way (its intent committed first; start-up finishes it). */
export const StoredSessionStatus = z.enum([...SessionStatus.options, 'withdrawing']);
export type StoredSessionStatus = z.infer<typeof StoredSessionStatus>;

/** How the log alone tells a session ended (the analysis has no store): `incomplete` is active or abandoned. */
export const LoggedSessionStatus = z.enum(['complete', 'incomplete', 'declined', 'screened_out']);
export type LoggedSessionStatus = z.infer<typeof LoggedSessionStatus>;

/** The experimenter's mark on a session: its attempts are kept but left out of the balance and flagged in exports. */
export const SessionFlag = z.enum(['pilot', 'test', 'excluded']);
export type SessionFlag = z.infer<typeof SessionFlag>;
