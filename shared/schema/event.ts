// Logged events: what the client sends (ClientEvent) and the NDJSON record the server writes (LoggedEvent).
import { z } from 'zod';
import { InputSource, Move } from './move.ts';
import { SessionFlag } from './session.ts';

const Id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);

/** Plausible client clocks: a page open at most a year; a wall clock between 2000 and 2100. */
export const T_MONO_MAX = 365 * 24 * 60 * 60 * 1000;
export const T_WALL_MIN = 946_684_800_000; // 2000-01-01T00:00:00Z
export const T_WALL_MAX = 4_102_444_800_000; // 2100-01-01T00:00:00Z

/** Stamps every client record carries (jsPsych-style): where in the study, and when by the client's clocks. */
const Envelope = {
  session_id: Id,
  /** The session's own sequence number: 1, 2, 3, ... without gaps. */
  seq: z.number().int().positive(),
  /** Index of the step in the expanded study timeline. */
  step: z.number().int().nonnegative(),
  phase: Id,
  puzzle_id: Id.nullable(),
  position: z.number().int().positive().nullable(),
  /** performance.now() in ms since the page loaded (monotonic within one page; at most a year). */
  t_mono: z.number().nonnegative().max(T_MONO_MAX),
  /** Client wall clock, ms since the epoch (2000 to 2100; the server also refuses one over a day ahead of its own). */
  t_wall: z.number().min(T_WALL_MIN).max(T_WALL_MAX),
  source: InputSource,
};

/**
 * Bounds of what a participant can send, shared with the config schema (config.ts): a valid config can only make
 * events within them (survey options, text lengths, guessing options).
 */
export const MAX_ANSWER_TEXT = 20_000;
export const MAX_OPTION_TEXT = 500;
export const MAX_CHOICES = 50;
export const MAX_GUESSING_TEXT = 200;

/** An answer's key: a config item id, or `why_<puzzle id>` for the post-survey's per-puzzle question. */
export const AnswerKey = z.string().min(1).max(80).regex(/^[A-Za-z0-9_-]+$/);

export const SurveyValue = z.union([z.number(), z.string().max(MAX_ANSWER_TEXT), z.array(z.string().max(MAX_OPTION_TEXT)).max(MAX_CHOICES), z.null()]);
export type SurveyValue = z.infer<typeof SurveyValue>;

export const Difficulty = z.number().int().min(1).max(5).nullable();

export const ClientEvent = z.discriminatedUnion('type', [
  z.object({ ...Envelope, type: z.literal('client_start'), payload: z.object({ user_agent: z.string().max(1_000), width: z.number(), height: z.number(), page_id: z.string().max(64) }) }),
  z.object({ ...Envelope, type: z.literal('step_start'), payload: z.object({ kind: z.string().max(32) }) }),
  z.object({
    ...Envelope,
    type: z.literal('step_end'),
    payload: z.object({ kind: z.string().max(32), reason: z.enum(['done', 'solved', 'skipped', 'timeout', 'declined', 'screened_out']) }),
  }),
  z.object({ ...Envelope, type: z.literal('consent'), payload: z.object({ agreed: z.boolean() }) }),
  z.object({ ...Envelope, type: z.literal('move'), payload: z.object({ move: Move }) }),
  z.object({ ...Envelope, type: z.literal('survey_submit'), payload: z.object({ survey_id: Id, answers: z.record(AnswerKey, SurveyValue) }) }),
  z.object({ ...Envelope, type: z.literal('rating'), payload: z.object({ difficulty: Difficulty, guessing: z.string().max(MAX_GUESSING_TEXT) }) }),
  z.object({ ...Envelope, type: z.literal('rating_revise'), payload: z.object({ rated_puzzle_id: Id, from: Difficulty, to: Difficulty }) }),
  z.object({ ...Envelope, type: z.literal('submit_result'), payload: z.object({ solved: z.boolean() }) }),
  z.object({
    ...Envelope,
    type: z.literal('hint_shown'),
    payload: z.object({ row: z.number().int().nonnegative(), col: z.number().int().nonnegative(), explanation: z.string().max(2_000) }),
  }),
  z.object({ ...Envelope, type: z.literal('visibility'), payload: z.object({ state: z.enum(['visible', 'hidden']) }) }),
  z.object({ ...Envelope, type: z.literal('focus'), payload: z.object({ focused: z.boolean() }) }),
  z.object({ ...Envelope, type: z.literal('resize'), payload: z.object({ width: z.number(), height: z.number(), orientation: z.string().max(40) }) }),
  /** An event the client could not send (invalid, or refused with 400) stands here instead, under its seq; the page keeps the original. */
  z.object({
    ...Envelope,
    type: z.literal('client_error'),
    payload: z.object({ refused_type: z.string().max(32), error: z.string().max(2_000), status: z.number().int().nullable() }),
  }),
]);
export type ClientEvent = z.infer<typeof ClientEvent>;
export type ClientEventType = ClientEvent['type'];

/** Events the server writes itself (no client sequence number). */
export const ServerEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('session_start'),
    session_id: Id,
    /** `lang`: the language the participant's page speaks, in a study that declares languages (config `languages`). */
    payload: z.object({ mode: z.string(), sequence: z.array(Id), sequence_id: z.number().int(), round: z.number().int(), lang: z.string().max(35).optional() }),
  }),
  z.object({
    type: z.literal('check'),
    session_id: Id,
    payload: z.object({ puzzle_id: Id, position: z.number().int().nullable(), solved: z.boolean(), wrong_cells: z.number().int().nonnegative() }),
  }),
  z.object({
    type: z.literal('hint'),
    session_id: Id,
    payload: z.object({ puzzle_id: Id, row: z.number().int(), col: z.number().int(), kind: z.string(), reasoning: z.string() }),
  }),
  /** The session's ordered puzzles, leased when the participant consented (session_start then names none). */
  z.object({
    type: z.literal('sequence_assigned'),
    session_id: Id,
    payload: z.object({ sequence: z.array(Id), sequence_id: z.number().int(), round: z.number().int() }),
  }),
  z.object({ type: z.literal('session_complete'), session_id: Id, payload: z.object({ code: z.string() }) }),
  /** The experimenter marked the session (null: the mark taken off); the last one holds. Written by the admin API. */
  z.object({
    type: z.literal('session_mark'),
    session_id: Id,
    payload: z.object({ mark: SessionFlag.nullable(), by: z.string().max(64).optional() }),
  }),
]);
export type ServerEventType = ServerEvent['type'];
export type ServerEvent = z.infer<typeof ServerEvent>;

export const ServerStamps = {
  origin: z.literal('server'),
  t_server: z.number(),
  config_hash: z.string(),
  app_version: z.string(),
};
export const ClientStamps = {
  origin: z.literal('client'),
  t_server: z.number(),
  config_hash: z.string(),
  app_version: z.string(),
};

/** The stamps the server puts on every record it writes: its receive time, the study config's hash, the app's version. */
export const ServerStamp = z.object({ t_server: z.number(), config_hash: z.string(), app_version: z.string() });
export type ServerStamp = z.infer<typeof ServerStamp>;

export const LoggedClientEvent = z.intersection(ClientEvent, z.object(ClientStamps));
export const LoggedServerEvent = z.intersection(ServerEvent, z.object(ServerStamps));
export type LoggedClientEvent = ClientEvent & { origin: 'client' } & ServerStamp;
export type LoggedServerEvent = ServerEvent & { origin: 'server' } & ServerStamp;

/**
 * One NDJSON line. Read one back with `parseRecord` (shared/log/record.ts), which gives this type; write one with
 * the stamping function of its origin (shared/schema/stamp.ts).
 */
export const LoggedEvent = z.union([LoggedClientEvent, LoggedServerEvent]);
export type LoggedEvent = LoggedClientEvent | LoggedServerEvent;
