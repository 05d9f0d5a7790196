// The server's view of where a session is: which step it is on, and whether the next client event may be taken.
//
// The client proposes, the server decides (DESIGN.md). A session walks the steps of its timeline (steps.ts) in order;
// the server keeps the current step and takes a client event only if it belongs there:
// - an event names the current step (the page's visibility, focus, resize and start records may name an earlier one:
//   they are about the page, not the step); an event for a later step is a jump; the phase, puzzle and position it
//   names are that step's, and a move's cells lie on that puzzle's board,
// - its type is one the step's phase kind records (phases/<kind>.ts), and a survey's answers are valid for the config,
// - a `step_end` ends the current step only when the phase kind's rule is met: consent given, valid answers (and the
//   screening decided by them), the puzzle solved by the server's own check (a `check` record), skipped once the
//   allowed time has passed, past its time limit, a rating given,
// - nothing after the session ended (declined, screened out; completion is the last step, which never ends). The
//   session ends at the step_end that declines or screens out (shared/log/rules.ts `sessionEndOf`), not at the
//   consent record: the progression alone decides it, and the intake sets the session's status from it.
// Completion is then earned: POST /api/session/complete needs the session at its last step.
//
// Time rules (skip after N s, a time limit, the warmup's cap) measure the step on the client's wall clock, from the
// end of the previous step: a participant who was offline sends the whole stretch at once, so the server cannot time
// steps by arrival. A client cannot claim more time than has passed, though: the client's clock since its first event
// must not run ahead of the server's own time since the session was created (plus `CLOCK_SLACK_MS`), so a dishonest
// client that skips everything at once waits as long as an honest one would. The client's clock may not run backwards
// either: each record counts as stamped no earlier than the latest record before it (`lastWall`), so backdating a
// step_end cannot start the next step in the past and skip it at once. (Per step, the server has no time of its own to
// hold a step to: a participant who was offline sends a whole stretch, several steps, in one request.)
// `serverElapsedMs: null` trusts the client
// clock (a simulation replayed faster than real time, with `timing.trust_client_clock`).
//
// `foldProgression` rebuilds the state from a session's log without judging it (the log holds what was accepted);
// `admit` judges one event and, when it is taken, applies it.
import type { Phase } from '../schema/config.ts';
import type { ClientEvent, ClientEventType, LoggedEvent, LoggedServerEvent } from '../schema/event.ts';
import { moveOffBoard, sessionEndOf, stepAfter, type MoveBoard } from '../log/rules.ts';
import type { Step } from './steps.ts';
import { validateAnswers } from './survey.ts';
import { phaseRules, type StepFacts } from './phases/index.ts';

/** Events about the page, not the step (and an event the client set aside): they may name any step up to the current one. */
const PAGE_RECORDS: ReadonlySet<ClientEventType> = new Set(['client_start', 'visibility', 'focus', 'resize', 'client_error']);
/** How far a client clock may run ahead of the server's (clock drift, an adjustment). */
export const CLOCK_SLACK_MS = 5_000;

export interface Progression {
  /** The current step's index. */
  step: number;
  /** Why the session ended early (no event is taken after it), or null. */
  ended: 'declined' | 'screened_out' | null;
  facts: StepFacts;
  /** Puzzles the server's check found solved, as `puzzle_id@position`. */
  solved: Set<string>;
  /** The client wall clock of the session's first event, and of the current step's beginning (the last step_end). */
  firstWall: number | null;
  stepWall: number | null;
  /**
   * The latest client wall clock seen so far. A clock that runs backwards between records buys no time: a record
   * stamped earlier than one before it counts as stamped at this moment (so a backdated step_end cannot start the
   * next step in the past).
   */
  lastWall: number | null;
  /** The log names the session's sequence (in session_start, or a sequence_assigned record at consent). */
  assigned: boolean;
}

export interface Refusal {
  seq: number;
  message: string;
  expected_step: number;
}

const noFacts = (): StepFacts => ({ consent: null, survey: null, rated: false });

export function newProgression(): Progression {
  return { step: 0, ended: null, facts: noFacts(), solved: new Set(), firstWall: null, stepWall: null, lastWall: null, assigned: false };
}

export function copyProgression(p: Progression): Progression {
  return { ...p, facts: { ...p.facts }, solved: new Set(p.solved) };
}

const solvedKey = (puzzleId: string, position: number | null) => `${puzzleId}@${position ?? ''}`;

/** A server record's part in progression: a check that found a puzzle solved; the sequence named. */
export function noteServerRecord(p: Progression, record: LoggedServerEvent): void {
  if (record.type === 'session_start' || record.type === 'sequence_assigned') {
    if (record.payload.sequence.length > 0) p.assigned = true;
    return;
  }
  if (record.type === 'check' && record.payload.solved) p.solved.add(solvedKey(record.payload.puzzle_id, record.payload.position));
}

/** An event's client wall clock, never earlier than one already seen (a clock running backwards buys no time). */
const wallOf = (p: Progression, e: ClientEvent): number => Math.max(e.t_wall, p.lastWall ?? e.t_wall);

/** The boards of the study's puzzles, by id: a move must be one its puzzle's board takes (shared/log/rules.ts moveOffBoard). */
export type BoardOf = (puzzleId: string) => MoveBoard | undefined;

/** What an event names of its step (phase, puzzle, position) against the step it names: null if they agree. */
function namesOtherThan(e: ClientEvent, step: Step, page: boolean): string | null {
  if (e.phase !== step.phase_id) return `names phase '${e.phase}', but step ${step.index} belongs to phase '${step.phase_id}'`;
  // The page's records (and a client_error standing in for a refused event) may leave the puzzle out.
  if (page && e.puzzle_id === null && e.position === null) return null;
  if (e.puzzle_id !== step.puzzle_id) return `names puzzle ${e.puzzle_id === null ? 'none' : `'${e.puzzle_id}'`}, but step ${step.index} shows ${step.puzzle_id === null ? 'no puzzle' : `puzzle '${step.puzzle_id}'`}`;
  if (e.position !== step.position) return `names position ${e.position ?? 'none'}, but step ${step.index} is at position ${step.position ?? 'none'}`;
  return null;
}

/** Apply an accepted client event. */
function apply(p: Progression, e: ClientEvent): void {
  const wall = wallOf(p, e);
  p.lastWall = wall;
  p.firstWall ??= wall;
  p.stepWall ??= wall;
  switch (e.type) {
    case 'consent':
      p.facts.consent = e.payload.agreed;
      break;
    case 'survey_submit':
      p.facts.survey = e.payload.answers;
      break;
    case 'rating':
      p.facts.rated = true;
      break;
    case 'step_end':
      if (e.step < p.step) break;
      p.step = stepAfter(p.step, e);
      p.facts = noFacts();
      p.stepWall = wall;
      // The progression owns how a session ends early (the intake's status and every fold follow it).
      p.ended = sessionEndOf(e) ?? p.ended;
      break;
  }
}

/** The state a session's log leads to (client events in sequence order, server checks). */
export function foldProgression(records: Iterable<LoggedEvent>): Progression {
  const p = newProgression();
  let seq = 0;
  for (const r of records) {
    if (r.origin === 'server') noteServerRecord(p, r);
    else if (r.seq === seq + 1) {
      seq += 1;
      apply(p, r);
    }
  }
  return p;
}

/**
 * Judge the next client event against the session's state; when it is taken, apply it and return null.
 * `serverElapsedMs`: the server's time since the session was created (null: trust the client's clock).
 */
export function admit(
  p: Progression,
  steps: readonly Step[],
  phases: readonly Phase[],
  e: ClientEvent,
  serverElapsedMs: number | null,
  boardOf?: BoardOf,
): Refusal | null {
  const refuse = (message: string): Refusal => ({ seq: e.seq, message: `event seq ${e.seq} (${e.type}): ${message}`, expected_step: p.step });
  if (p.ended) return refuse(`the session has ended (${p.ended.replace('_', ' ')})`);
  const step = steps[p.step];
  if (!step) return refuse('the session has no step left');
  if (PAGE_RECORDS.has(e.type)) {
    if (e.step > p.step) return refuse(`names step ${e.step}, but the session is at step ${p.step} (${step.kind})`);
    const named = steps[e.step];
    const other = named ? namesOtherThan(e, named, true) : null;
    if (other) return refuse(other);
    apply(p, e);
    return null;
  }
  if (e.step !== p.step) return refuse(`names step ${e.step}, but the session is at step ${p.step} (${step.kind})`);
  const other = namesOtherThan(e, step, false);
  if (other) return refuse(other);
  if (e.type === 'move' && step.puzzle_id !== null && boardOf) {
    const board = boardOf(step.puzzle_id);
    const why = board ? moveOffBoard(e.payload.move, board, step.puzzle_id) : null;
    if (why) return refuse(why);
  }
  const phase = phases.find((ph) => ph.id === step.phase_id);
  if (!phase) return refuse(`no phase '${step.phase_id}'`);
  const rules = phaseRules[phase.kind];
  if (e.type === 'step_start') {
    apply(p, e);
    return null;
  }
  if (e.type !== 'step_end') {
    if (!(rules.records[step.kind] ?? []).includes(e.type)) return refuse(`a ${step.kind} step does not record '${e.type}'`);
    if (e.type === 'survey_submit') {
      if (e.payload.survey_id !== phase.id) return refuse(`answers survey '${e.payload.survey_id}', but this step is '${phase.id}'`);
      const items = phase.kind === 'survey' || phase.kind === 'post_survey' ? phase.items : [];
      const problems = Object.entries(validateAnswers(items, e.payload.answers));
      if (problems.length > 0) return refuse(`the answers do not fit the survey: ${problems.map(([id, m]) => `${id}: ${m}`).join('; ')}`);
    }
    apply(p, e);
    return null;
  }
  if (e.payload.kind !== step.kind) return refuse(`ends a '${e.payload.kind}' step, but step ${p.step} is a ${step.kind} step`);
  const wall = wallOf(p, e);
  const elapsedMs = wall - (p.stepWall ?? wall);
  const why = (rules.end as (ctx: unknown) => string | null)({
    phase,
    step,
    reason: e.payload.reason,
    facts: p.facts,
    solved: step.puzzle_id !== null && p.solved.has(solvedKey(step.puzzle_id, step.position)),
    elapsedMs,
  });
  if (why) return refuse(`step ${p.step} (${step.kind}) cannot end '${e.payload.reason}': ${why}`);
  if (serverElapsedMs !== null && (rules.timed as readonly string[]).includes(e.payload.reason)) {
    const claimed = wall - (p.firstWall ?? wall);
    if (claimed > serverElapsedMs + CLOCK_SLACK_MS)
      return refuse(`the client's clock says ${Math.round(claimed / 1000)} s have passed since the session's first event, the server's ${Math.round(serverElapsedMs / 1000)} s since it started`);
  }
  apply(p, e);
  return null;
}
