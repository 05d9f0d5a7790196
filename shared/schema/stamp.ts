// Stamping a client record: the one function the participant client uses to turn an action into a `ClientEvent`.
//
// It checks what it makes with the shared schema: an event the schema refuses would be refused by the server too
// (400) and every later event would wait behind it, so a `client_error` record takes its place under the same seq,
// saying what was wrong (the page keeps the original). `clientErrorFor` makes that record, also for an event the
// server refused. Pure: the clocks come in as values.
import { describeIssues } from './config.ts';
import { ClientEvent, type ClientEventType } from './event.ts';
import type { InputSource } from './move.ts';

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Where and when a record is made: the session, its seq, the step it belongs to, both client clocks. */
export interface ClientStamp {
  session_id: string;
  seq: number;
  step: number;
  phase: string;
  puzzle_id: string | null;
  position: number | null;
  t_mono: number;
  t_wall: number;
  source: InputSource;
}

/**
 * The `client_error` record standing in for `original` under its seq: at the original's step (if it has a usable
 * one, else `fallback`'s), saying what was wrong; `status` is the server's answer (400), or null when the client
 * itself found the event invalid.
 */
export function clientErrorFor(
  original: { seq: number; step?: unknown; phase?: unknown; type?: unknown },
  error: string,
  status: number | null,
  fallback: Omit<ClientStamp, 'seq' | 'source'>,
): ClientEvent {
  const usableStep = typeof original.step === 'number' && Number.isInteger(original.step) && original.step >= 0;
  return {
    session_id: fallback.session_id,
    seq: original.seq,
    step: usableStep ? (original.step as number) : fallback.step,
    phase: typeof original.phase === 'string' && ID.test(original.phase) ? original.phase : fallback.phase,
    puzzle_id: null,
    position: null,
    t_mono: fallback.t_mono,
    t_wall: fallback.t_wall,
    source: 'system',
    type: 'client_error',
    payload: { refused_type: String(original.type ?? '').slice(0, 32), error: error.slice(0, 2_000), status },
  };
}

/** The stamped record of an action: the event itself when the schema takes it, else its `client_error` stand-in. */
export function stampClient(stamp: ClientStamp, type: ClientEventType, payload: unknown): ClientEvent {
  const candidate = { ...stamp, type, payload };
  const checked = ClientEvent.safeParse(candidate);
  return checked.success ? checked.data : clientErrorFor(candidate, `invalid event: ${describeIssues(checked.error.issues)}`, null, stamp);
}
