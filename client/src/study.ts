// The participant's study controller: a zustand store plus the one dispatcher every action goes through.
import { create } from 'zustand';
import type { SessionState } from '../../shared/schema/api.ts';
import type { ClientEvent, ClientEventType } from '../../shared/schema/event.ts';
import type { InputSource, Move } from '../../shared/schema/move.ts';
import type { PuzzleClues } from '../../shared/schema/puzzle.ts';
import type { Phase } from '../../shared/schema/config.ts';
import { applyMove, boardRows, replayMoves, type BoardState } from '../../shared/game/board.ts';
import { expandSteps, type Step } from '../../shared/study/steps.ts';
import type { Outcome, RatingRecord } from '../../shared/study/progress.ts';
import { api, ApiError } from './api.ts';
import { Outbox, type SaveStatus } from './outbox.ts';

export interface StudyStore {
  phase: 'loading' | 'running' | 'error';
  error: string | null;
  session: SessionState | null;
  steps: Step[];
  step: number;
  board: BoardState | null;
  /** Moves by step index (the current step's grows as the participant plays). */
  movesByStep: Record<number, Move[]>;
  ratings: Record<string, RatingRecord>;
  outcomes: Record<string, Outcome>;
  saveStatus: SaveStatus;
  feedback: string | null;
  busy: boolean;
  completion: { code: string; redirect_url: string | null } | null;
  declined: boolean;
}

export const useStudy = create<StudyStore>(() => ({
  phase: 'loading',
  error: null,
  session: null,
  steps: [],
  step: 0,
  board: null,
  movesByStep: {},
  ratings: {},
  outcomes: {},
  saveStatus: 'saved',
  feedback: null,
  busy: false,
  completion: null,
  declined: false,
}));

let outbox: Outbox | null = null;
let seq = 0;

export function currentStep(): Step | undefined {
  const s = useStudy.getState();
  return s.steps[s.step];
}

export function phaseOf(step: Step | undefined): Phase | undefined {
  return useStudy.getState().session?.study.phases.find((p) => p.id === step?.phase_id);
}

export function puzzleOf(id: string | null | undefined): PuzzleClues | undefined {
  return useStudy.getState().session?.study.puzzles.find((p) => p.id === id);
}

type PayloadOf<T extends ClientEventType> = Extract<ClientEvent, { type: T }>['payload'];

/** Stamp an event with the session, the step and both client clocks, and put it in the persisted outbox. */
export function logEvent<T extends ClientEventType>(type: T, payload: PayloadOf<T>, source: InputSource = 'system'): void {
  const s = useStudy.getState();
  const step = s.steps[s.step];
  if (!s.session || !outbox || !step) return;
  seq += 1;
  const event = {
    session_id: s.session.session_id,
    seq,
    step: step.index,
    phase: step.phase_id,
    puzzle_id: step.puzzle_id,
    position: step.position,
    t_mono: performance.now(),
    t_wall: Date.now(),
    source,
    type,
    payload,
  } as ClientEvent;
  outbox.push(event);
}

/** The one dispatcher: log the move (stamped, persisted), then apply it. Components call nothing else for moves. */
export function dispatch(move: Move, source: InputSource): void {
  const s = useStudy.getState();
  if (!s.board || s.busy) return;
  logEvent('move', { move }, source);
  const moves = [...(s.movesByStep[s.step] ?? []), move];
  useStudy.setState({ board: applyMove(s.board, move), movesByStep: { ...s.movesByStep, [s.step]: moves }, feedback: null });
  if (move.type === 'submit') void submitBoard();
}

function boardFor(step: Step | undefined, moves: Move[]): BoardState | null {
  if (!step || !['puzzle', 'tutorial', 'warmup'].includes(step.kind)) return null;
  const puzzle = puzzleOf(step.puzzle_id);
  return puzzle ? replayMoves(puzzle.width, puzzle.height, moves) : null;
}

let stepTimer: ReturnType<typeof setTimeout> | null = null;

function enterStep(index: number): void {
  const s = useStudy.getState();
  const step = s.steps[index];
  useStudy.setState({ step: index, board: boardFor(step, s.movesByStep[index] ?? []), feedback: null });
  if (stepTimer) clearTimeout(stepTimer);
  stepTimer = null;
  if (!step) return;
  const key = `nonolab.${s.session!.session_id}.started.${index}`;
  if (!localStorage.getItem(key)) {
    localStorage.setItem(key, String(Date.now()));
    logEvent('step_start', { kind: step.kind });
  }
  const phase = phaseOf(step);
  if (phase?.kind === 'warmup') {
    // The warmup's cap counts from the step's first start, across reloads.
    stepTimer = setTimeout(() => {
      if (useStudy.getState().step === index) advance('timeout');
    }, Math.max(0, phase.cap_seconds * 1000 - stepElapsedMs()));
  }
}

/** Wall-clock ms since the current step started (kept across reloads). */
export function stepElapsedMs(): number {
  const s = useStudy.getState();
  const started = Number(localStorage.getItem(`nonolab.${s.session?.session_id}.started.${s.step}`) ?? Date.now());
  return Date.now() - started;
}

/** Finish the current step and move to the next one. */
export function advance(reason: 'done' | 'solved' | 'skipped' | 'timeout' = 'done'): void {
  const s = useStudy.getState();
  const step = s.steps[s.step];
  if (!step) return;
  logEvent('step_end', { kind: step.kind, reason });
  if (step.kind === 'puzzle' && step.puzzle_id) useStudy.setState({ outcomes: { ...s.outcomes, [step.puzzle_id]: reason } });
  enterStep(s.step + 1);
}

async function submitBoard(): Promise<void> {
  const s = useStudy.getState();
  const step = s.steps[s.step];
  if (!s.board || !step?.puzzle_id) return;
  useStudy.setState({ busy: true });
  try {
    const { solved } = await api.check({ puzzle_id: step.puzzle_id, position: step.position, rows: boardRows(s.board.grid) });
    logEvent('submit_result', { solved });
    useStudy.setState({ busy: false, feedback: solved ? null : 'Not solved yet: some cells are still wrong or missing. Keep going!' });
    if (solved) advance('solved');
  } catch (err) {
    useStudy.setState({ busy: false, feedback: `Could not check the puzzle right now (${(err as Error).message}). Try again in a moment.` });
  }
}

export function skipPuzzle(): void {
  dispatch({ type: 'skip' }, 'mouse');
  advance('skipped');
}

export function answerConsent(agreed: boolean): void {
  logEvent('consent', { agreed }, 'mouse');
  if (agreed) advance('done');
  else {
    logEvent('step_end', { kind: 'consent', reason: 'declined' });
    useStudy.setState({ declined: true });
  }
}

export function submitSurvey(surveyId: string, answers: Record<string, number | string | string[] | null>): void {
  logEvent('survey_submit', { survey_id: surveyId, answers }, 'mouse');
  advance('done');
}

export function submitRating(difficulty: number | null, guessing: string): void {
  const s = useStudy.getState();
  const step = s.steps[s.step];
  logEvent('rating', { difficulty, guessing }, 'mouse');
  if (step?.puzzle_id) useStudy.setState({ ratings: { ...s.ratings, [step.puzzle_id]: { difficulty, guessing } } });
  advance('done');
}

export function reviseRating(puzzleId: string, to: number | null): void {
  const s = useStudy.getState();
  const from = s.ratings[puzzleId]?.difficulty ?? null;
  if (from === to) return;
  logEvent('rating_revise', { rated_puzzle_id: puzzleId, from, to }, 'mouse');
  useStudy.setState({ ratings: { ...s.ratings, [puzzleId]: { ...(s.ratings[puzzleId] ?? { guessing: '' }), difficulty: to } } });
}

/** Wait until the server holds every event, then fetch the completion code. */
export async function finish(): Promise<void> {
  if (!outbox) return;
  useStudy.setState({ busy: true });
  for (;;) {
    await outbox.drained();
    try {
      const completion = await api.complete(seq);
      useStudy.setState({ completion, busy: false });
      return;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status >= 500) await new Promise((r) => setTimeout(r, 1_000));
      else if (err.status !== 409) {
        useStudy.setState({ busy: false, error: err.message });
        return;
      } else await new Promise((r) => setTimeout(r, 500));
    }
  }
}

function logEnvironment(): void {
  document.addEventListener('visibilitychange', () => logEvent('visibility', { state: document.visibilityState === 'hidden' ? 'hidden' : 'visible' }));
  window.addEventListener('focus', () => logEvent('focus', { focused: true }));
  window.addEventListener('blur', () => logEvent('focus', { focused: false }));
  let resizeTimer: ReturnType<typeof setTimeout> | null = null;
  window.addEventListener('resize', () => {
    if (resizeTimer) clearTimeout(resizeTimer);
    resizeTimer = setTimeout(
      () => logEvent('resize', { width: window.innerWidth, height: window.innerHeight, orientation: screen.orientation?.type ?? 'unknown' }),
      300,
    );
  });
}

/** Resume the session this browser holds (cookie), or start a new one; then rebuild the board and timers. */
export async function boot(): Promise<void> {
  try {
    let session: SessionState;
    try {
      session = await api.resume();
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
      const params = new URLSearchParams(location.search);
      session = await api.start({ mode: params.get('mode') === 'kiosk' ? 'kiosk' : 'general', label: params.get('label') ?? undefined });
    }
    outbox = new Outbox(session.session_id, session.acked_seq, async (events) => (await api.sendEvents(events)).acked_seq);
    outbox.subscribe((saveStatus) => useStudy.setState({ saveStatus }));
    seq = outbox.lastSeq();
    const steps = expandSteps(session.study.phases, session.sequence);
    // Events still in the outbox (not yet acknowledged) may be ahead of the server's view: replay them too.
    const local = JSON.parse(localStorage.getItem(`nonolab.${session.session_id}.queue`) ?? '[]') as ClientEvent[];
    const movesByStep: Record<number, Move[]> = { ...session.moves_by_step };
    let step = session.step;
    for (const e of local) {
      if (e.type === 'move') (movesByStep[e.step] ??= []).push(e.payload.move);
      if (e.type === 'step_end') step = Math.max(step, e.step + 1);
    }
    const firstRun = seq === 0;
    useStudy.setState({
      phase: 'running',
      session,
      steps,
      movesByStep,
      ratings: session.ratings,
      outcomes: session.outcomes,
      completion: session.completion_code ? { code: session.completion_code, redirect_url: null } : null,
      declined: session.status === 'declined',
    });
    logEnvironment();
    if (firstRun) logEvent('client_start', { user_agent: navigator.userAgent, width: window.innerWidth, height: window.innerHeight, page_id: crypto.randomUUID() });
    enterStep(step);
  } catch (err) {
    useStudy.setState({ phase: 'error', error: (err as Error).message });
  }
}
