// Stamping records, one function per origin: `stampClient` (the participant's page, and every bot or simulator that
// plays one) makes a `ClientEvent`; `stampServer` (the server, the admin API, the simulator standing in for the server)
// makes a `LoggedServerEvent`; `receiveClient` is the server's stamp on a client event it takes into the log.
//
// It checks what it makes with the shared schema: an event the schema refuses would be refused by the server too
// (400) and every later event would wait behind it, so a `client_error` record takes its place under the same seq,
// saying what was wrong (the page keeps the original). `clientErrorFor` makes that record, also for an event the
// server refused. Pure: the clocks come in as values.
import { describeIssues } from './phase.ts';
import { ClientEvent, type ClientEventType, type LoggedClientEvent, type LoggedServerEvent, type ServerEvent, type ServerStamp } from './event.ts';
import type { InputSource } from './move.ts';
import { isValidMoveEvent } from '../log/record.ts';

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
  // Moves (most events) take the reader's measured fast path past zod; it is never looser than the schema.
  if (isValidMoveEvent(candidate)) return candidate as ClientEvent;
  const checked = ClientEvent.safeParse(candidate);
  return checked.success ? checked.data : clientErrorFor(candidate, `invalid event: ${describeIssues(checked.error.issues)}`, null, stamp);
}

/**
 * A server record, stamped: origin, the server's clock, the config hash and the app version. The event is typed
 * (ServerEvent), so it needs no check here; the admin API, the service and the simulator all write through this.
 */
export function stampServer(event: ServerEvent, stamp: ServerStamp): LoggedServerEvent {
  return { ...event, origin: 'server', t_server: stamp.t_server, config_hash: stamp.config_hash, app_version: stamp.app_version };
}

/**
 * A client event as the server logs it: the event as sent (already checked by the schema at the API boundary) with
 * the server's stamps. (Object.assign, not a spread: a spread of zod's output objects costs about 3 us an event,
 * Object.assign 0.2; the intake does this for every event.)
 */
export function receiveClient(event: ClientEvent, stamp: ServerStamp): LoggedClientEvent {
  return Object.assign({}, event, { origin: 'client' as const, t_server: stamp.t_server, config_hash: stamp.config_hash, app_version: stamp.app_version });
}
