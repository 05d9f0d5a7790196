// The participant's study controller: a zustand store, the one dispatcher every action goes through, and step clocks.
import { create } from 'zustand';
import { StartSessionRequest, isSudokuClues, type NonogramHintBody, type SessionState, type SudokuClues, type SudokuHintBody } from '../../shared/schema/api.ts';
import type { SudokuState } from '../../shared/sudoku/board.ts';
import type { ClientEvent, ClientEventType } from '../../shared/schema/event.ts';
import { clientErrorFor as stampedClientError, stampClient } from '../../shared/schema/stamp.ts';
import type { InputSource, Move } from '../../shared/schema/move.ts';
import type { PuzzleClues } from '../../shared/schema/puzzle.ts';
import type { InputKind, InputText, Phase } from '../../shared/schema/config.ts';
import { textFor } from '../../shared/study/inputText.ts';
import type { Tool } from '../../shared/game/input.ts';
import { applyMove, replayMoves, type BoardState } from '../../shared/game/board.ts';
import { expandSteps, type Step } from '../../shared/study/steps.ts';
import { showsBoard } from '../../shared/study/phases/index.ts';
import { sessionProgress, type Outcome, type RatingRecord } from '../../shared/study/progress.ts';
import { sessionEndOf, stepAfter } from '../../shared/log/rules.ts';
import { secondsLeft, skipAfterSeconds, skipWaitSeconds, stepCapSeconds } from '../../shared/study/timing.ts';
import { api, ApiError } from './api.ts';
import { Outbox, type SaveStatus } from './outbox.ts';
import { catalogueOf, linkLanguage, loadStepWords, setLanguage, t } from './i18n.ts';
import type { MessageKey } from '../../shared/i18n/en.ts';

/** The hint on display; `fixOffered`: a mistake explained, whose fix waits for the participant's go-ahead. */
export type Hint = (NonogramHintBody | SudokuHintBody) & { fixOffered?: boolean };
/** A Nonogram's hint on display (the Sudoku board reads its own kind's). */
export const nonogramHint = (h: Hint | null): (NonogramHintBody & { fixOffered?: boolean }) | null => (h && !('puzzle' in h) ? h : null);
export const sudokuHint = (h: Hint | null): (SudokuHintBody & { fixOffered?: boolean }) | null => (h && 'puzzle' in h ? h : null);
export interface Feedback {
  tone: 'info' | 'success' | 'warn';
  text: string;
}

export interface StudyStore {
  /**
   * 'elsewhere': the study was opened in another window, which now owns the session. 'closed': recruitment is closed
   * (or its target reached) and this visitor has no session to return to. 'bad-link': the link's kiosk label or panel
   * id cannot start a session (the page names the field).
   */
  status: 'loading' | 'running' | 'error' | 'kiosk-label' | 'elsewhere' | 'closed' | 'bad-link';
  /** The page a new visitor sees while recruitment is closed (config text). */
  closed: { title: string; message: string } | null;
  error: string | null;
  /** Why the link (or the kiosk label typed in) cannot start a session: the field, the value, what is allowed. */
  linkProblem: string | null;
  session: SessionState | null;
  steps: Step[];
  step: number;
  /** The undoable board of the current Nonogram step (null on other steps). */
  board: BoardState | null;
  /** The undoable board of the current Sudoku step (null on other steps). */
  sudoku: SudokuState | null;
  /** Sudoku: whether a digit pencils a mark (notes) rather than writing the digit. */
  pencil: boolean;
  /** Whether the Sudoku rules have arrived with the puzzle screen's chunk (registerSudokuEngine). */
  sudokuReady: boolean;
  /** Moves by step index (the current step's grows as the participant plays). */
  movesByStep: Record<number, Move[]>;
  ratings: Record<string, RatingRecord>;
  outcomes: Record<string, Outcome>;
  saveStatus: SaveStatus;
  feedback: Feedback | null;
  /** The hint on display: its line is highlighted and its explanation shown. */
  hint: Hint | null;
  /** 'sequence': the puzzles come next and their sequence (leased at consent) is still being fetched. */
  busy: 'check' | 'hint' | 'finish' | 'sequence' | null;
  /** Touch mode: what a tap does. */
  tool: Tool;
  /** Countdown of a capped step (warmup, time-limited puzzle), in whole seconds; null when uncapped. */
  secondsLeft: number | null;
  skipAllowed: boolean;
  /** Whole seconds until Skip is allowed (the note counts down); null once it is, or when the step has no wait. */
  skipIn: number | null;
  completion: { code: string; redirect_url: string | null } | null;
  declined: boolean;
  /** Set when eligibility screening ended the study: the message to show. */
  screenedOut: string | null;
  /** The input the participant is using, for texts with per-input variants (a guess from the device until used). */
  inputKind: InputKind;
}

const coarse = typeof window !== 'undefined' && (window.matchMedia?.('(pointer: coarse)').matches || navigator.maxTouchPoints > 0);

const initial: StudyStore = {
  status: 'loading',
  closed: null,
  error: null,
  linkProblem: null,
  session: null,
  steps: [],
  step: 0,
  board: null,
  sudoku: null,
  pencil: false,
  sudokuReady: false,
  movesByStep: {},
  ratings: {},
  outcomes: {},
  saveStatus: 'saved',
  feedback: null,
  hint: null,
  busy: null,
  tool: 'fill',
  secondsLeft: null,
  skipAllowed: false,
  skipIn: null,
  completion: null,
  declined: false,
  screenedOut: null,
  inputKind: coarse ? 'touch' : 'pointer',
};

export const useStudy = create<StudyStore>(() => ({ ...initial }));

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
  const p = useStudy.getState().session?.study.puzzles.find((q) => q.id === id);
  return p && !isSudokuClues(p) ? p : undefined;
}

/** The Sudoku a step shows, if it shows one. */
export function sudokuOf(id: string | null | undefined): SudokuClues | undefined {
  const p = useStudy.getState().session?.study.puzzles.find((q) => q.id === id);
  return p && isSudokuClues(p) ? p : undefined;
}

type PayloadOf<T extends ClientEventType> = Extract<ClientEvent, { type: T }>['payload'];

/** The stand-in `client_error` for an event the server refused for good (shared/schema/stamp.ts). */
export function clientErrorFor(original: { seq: number; step?: unknown; phase?: unknown; type?: unknown }, error: string, status: number | null): ClientEvent {
  const s = useStudy.getState();
  return stampedClientError(original, error, status, {
    session_id: s.session!.session_id,
    step: s.step,
    phase: s.steps[s.step]?.phase_id ?? 'unknown',
    puzzle_id: null,
    position: null,
    t_mono: performance.now(),
    t_wall: Date.now(),
  });
}

/**
 * Stamp an event with the session, the step and both client clocks, check it with the shared schema, and put it in
 * the persisted outbox. An event the schema refuses would be refused by the server too and block every later one:
 * a `client_error` record goes in its place.
 */
export function logEvent<T extends ClientEventType>(type: T, payload: PayloadOf<T>, source: InputSource = 'system'): void {
  const s = useStudy.getState();
  const step = s.steps[s.step];
  if (!s.session || !outbox || !step) return;
  seq += 1;
  const stamp = {
    session_id: s.session.session_id,
    seq,
    step: step.index,
    phase: step.phase_id,
    puzzle_id: step.puzzle_id,
    position: step.position,
    t_mono: performance.now(),
    t_wall: Date.now(),
    source,
  };
  outbox.push(stampClient(stamp, type, payload));
}

/**
 * The one dispatcher: log the move (stamped, persisted in the outbox), then apply it. Components call nothing else
 * for moves; hint and submit moves then ask the server.
 */
export function dispatch(move: Move, source: InputSource): void {
  const s = useStudy.getState();
  if ((!s.board && !s.sudoku) || s.busy) return;
  const input = INPUT_OF[source];
  if (input) noteInput(input);
  logEvent('move', { move }, source);
  const moves = [...(s.movesByStep[s.step] ?? []), move];
  // The step's board, of its kind, takes the move (shared/game/board.ts, shared/sudoku/board.ts).
  const board = s.board ? applyMove(s.board, move) : null;
  const sudoku = s.sudoku && sudokuEngine ? sudokuEngine.applySudokuMove(s.sudoku, move) : null;
  // Feedback from the last check and the hint on display go with the next move of the participant's own: a hint
  // belongs to the board it was given for (its own reveal, or asking for the next one, keeps it).
  const keepFeedback = move.type === 'hint' || move.type === 'reveal' || move.type === 'reveal_digit';
  useStudy.setState({ board, sudoku, movesByStep: { ...s.movesByStep, [s.step]: moves }, feedback: keepFeedback ? s.feedback : null, hint: hintAfterMove(s.hint, move) });
  // Asking the server (check, hint) comes with the puzzle screen's chunk (board/requests.ts), as the board does.
  if (move.type === 'submit') void boardRequests?.submit();
  if (move.type === 'hint') void boardRequests?.hint();
}

/**
 * The hint still on display after a move: only the hint's own reveal (or a Hint press, which replaces it) keeps it;
 * any other move (a mark, undo, reset, submit) changes the board it was given for, so it goes, highlight and panel.
 */
export function hintAfterMove<H>(hint: H | null, move: Move): H | null {
  return move.type === 'reveal' || move.type === 'reveal_digit' || move.type === 'hint' ? hint : null;
}

/** The participant used this kind of input: texts with per-input variants follow it. */
export function noteInput(kind: InputKind): void {
  if (useStudy.getState().inputKind !== kind) useStudy.setState({ inputKind: kind });
}

const INPUT_OF: Partial<Record<InputSource, InputKind>> = { mouse: 'pointer', touch: 'touch', keyboard: 'keyboard' };

/** A config text in the variant for the input in use (a plain string as it is). */
export function useInputText(text: InputText): string {
  const input = useStudy((s) => s.inputKind);
  return textFor(text, input);
}

export function setTool(tool: Tool): void {
  useStudy.setState({ tool });
}

/** Sudoku: switch between writing digits and pencilling marks (notes). UI only: not a move, not logged. */
export function setPencil(pencil: boolean): void {
  useStudy.setState({ pencil });
}

/** Apply the fix an error hint offered: a reveal move like a hint's own (logged, undoable). */
export function fixHint(source: InputSource): void {
  const hint = useStudy.getState().hint;
  if (!hint?.fixOffered) return;
  // The participant asked for it: the reveal carries their input source.
  dispatch(revealOf(hint)!, source);
  useStudy.setState({ hint: { ...hint, fixOffered: false } });
}

export function dismissHint(): void {
  useStudy.setState({ hint: null });
}

/** The move a hint's reveal makes: a Nonogram cell's state, or a Sudoku digit (null when the hint reveals nothing). */
export function revealOf(hint: Hint): Move | null {
  if (!('puzzle' in hint)) return { type: 'reveal', row: hint.row, col: hint.col, state: hint.value === 'filled' ? 'filled' : 'crossed' };
  return hint.digit !== null && (hint.kind === 'cell' || hint.kind === 'error') ? { type: 'reveal_digit', row: hint.row, col: hint.col, digit: hint.digit } : null;
}

function boardFor(step: Step | undefined, moves: Move[]): BoardState | null {
  if (!step || !showsBoard(step.kind)) return null;
  const puzzle = puzzleOf(step.puzzle_id);
  return puzzle ? replayMoves(puzzle.width, puzzle.height, moves) : null;
}

function sudokuFor(step: Step | undefined, moves: Move[]): SudokuState | null {
  if (!step || !showsBoard(step.kind)) return null;
  const puzzle = sudokuOf(step.puzzle_id);
  return puzzle && sudokuEngine ? sudokuEngine.replaySudoku(puzzle.givens, moves) : null;
}

type SudokuEngine = typeof import('../../shared/sudoku/board.ts');
/**
 * The Sudoku board's rules (shared/sudoku/board.ts), handed over by the puzzle screen's chunk when it loads
 * (board/PuzzleView.tsx), so the first load does not carry them; until then a Sudoku step shows "Loading the puzzle…".
 */
let sudokuEngine: SudokuEngine | null = null;
export function registerSudokuEngine(engine: SudokuEngine): void {
  if (sudokuEngine) return;
  sudokuEngine = engine;
  const s = useStudy.getState();
  const step = s.steps[s.step];
  if (step && !s.sudoku) useStudy.setState({ sudoku: sudokuFor(step, s.movesByStep[s.step] ?? []) });
  useStudy.setState({ sudokuReady: true });
}
/** The Sudoku rules, once the puzzle screen's chunk has handed them over. */
export const sudokuRules = (): SudokuEngine | null => sudokuEngine;

/** What the puzzle screen's chunk hands over: its check and hint requests (board/requests.ts), not in the first load. */
export interface BoardRequests {
  submit(): Promise<void>;
  hint(): Promise<void>;
}
let boardRequests: BoardRequests | null = null;
export function registerBoardRequests(requests: BoardRequests): void {
  boardRequests = requests;
}

// ---- step clocks: the controller owns every timer; components only read secondsLeft/skipAllowed ----

let clock: ReturnType<typeof setInterval> | null = null;

function startedKey(index: number): string {
  return `nonolab.${useStudy.getState().session?.session_id}.started.${index}`;
}

/** Wall-clock ms since the current step first started (kept across reloads). */
export function stepElapsedMs(): number {
  const s = useStudy.getState();
  const started = Number(localStorage.getItem(startedKey(s.step)) ?? Date.now());
  return Math.max(0, Date.now() - started);
}

function tick(index: number): void {
  const s = useStudy.getState();
  if (s.step !== index) return;
  const step = s.steps[index];
  const phase = phaseOf(step);
  const elapsed = stepElapsedMs();
  const cap = stepCapSeconds(phase, step);
  const skipAfter = skipAfterSeconds(phase, step);
  const left = cap === null ? null : secondsLeft(cap, elapsed);
  const skipAllowed = skipAfter !== null && elapsed >= skipAfter * 1000;
  const skipIn = skipWaitSeconds(skipAfter, elapsed);
  if (left !== s.secondsLeft || skipAllowed !== s.skipAllowed || skipIn !== s.skipIn) useStudy.setState({ secondsLeft: left, skipAllowed, skipIn });
  if (left === 0 && !s.busy) advance('timeout');
}

function startClock(index: number): void {
  if (clock) clearInterval(clock);
  clock = null;
  const s = useStudy.getState();
  const step = s.steps[index];
  const phase = phaseOf(step);
  useStudy.setState({ secondsLeft: null, skipAllowed: false, skipIn: null });
  if (stepCapSeconds(phase, step) === null && skipAfterSeconds(phase, step) === null) return;
  tick(index);
  clock = setInterval(() => tick(index), 250);
}

function enterStep(index: number): void {
  const s = useStudy.getState();
  const step = s.steps[index];
  useStudy.setState({ step: index, board: boardFor(step, s.movesByStep[index] ?? []), sudoku: sudokuFor(step, s.movesByStep[index] ?? []), pencil: false, feedback: null, hint: null });
  if (!step) return;
  const key = startedKey(index);
  if (!localStorage.getItem(key)) {
    localStorage.setItem(key, String(Date.now()));
    logEvent('step_start', { kind: step.kind });
  }
  startClock(index);
  window.scrollTo?.(0, 0);
}

/** Finish the current step and move to the next one. */
export function advance(reason: 'done' | 'solved' | 'skipped' | 'timeout' = 'done'): void {
  const s = useStudy.getState();
  const step = s.steps[s.step];
  if (!step) return;
  logEvent('step_end', { kind: step.kind, reason });
  if (step.kind === 'puzzle' && step.puzzle_id) useStudy.setState({ outcomes: { ...s.outcomes, [step.puzzle_id]: reason } });
  const next = s.step + 1;
  if (!awaitingSequence(next)) {
    enterStep(next);
    return;
  }
  // The puzzles come next, and the sequence leased at consent has not arrived yet (offline since): wait for it.
  useStudy.setState({ busy: 'sequence' });
  void waitForSequence().then(() => {
    useStudy.setState({ busy: null });
    enterStep(next);
  });
}

/** Whether step `index` lies at or after the puzzles while the session has no sequence yet. */
function awaitingSequence(index: number): boolean {
  const s = useStudy.getState();
  if (!s.session || s.session.sequence.length > 0) return false;
  const phases = s.session.study.phases;
  const puzzlesAt = phases.findIndex((p) => p.kind === 'puzzles');
  if (puzzlesAt < 0) return false;
  const step = s.steps[index];
  return (step ? phases.findIndex((p) => p.id === step.phase_id) : phases.length) >= puzzlesAt;
}

let sequenceWait: Promise<void> | null = null;

/**
 * The server leases the session's sequence when the participant consents: once the consent is acknowledged, ask for
 * it (retrying while offline) and lay out the steps again. The steps before the puzzles do not depend on it.
 */
function waitForSequence(): Promise<void> {
  sequenceWait ??= (async () => {
    let delay = 500;
    for (;;) {
      await outbox?.drained();
      try {
        const state = await api.resume();
        if (state.sequence.length > 0) {
          const s = useStudy.getState();
          if (s.session) useStudy.setState({ session: { ...s.session, sequence: state.sequence }, steps: expandSteps(s.session.study.phases, state.sequence) });
          return;
        }
      } catch {
        // offline or the server restarting: ask again
      }
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 8_000);
    }
  })().finally(() => {
    sequenceWait = null;
  });
  return sequenceWait;
}

/**
 * Why a request failed, in the page's words: a session gone from the server (410, 401), the server unable to store,
 * another refusal by its status (the server's English `error` only on an English page whose steps' words have not
 * come yet), or no connection.
 */
export function networkMessage(err: unknown): string {
  if (!(err instanceof ApiError)) return t('app.noConnection');
  if (err.status === 410 || err.status === 401) return t('app.sessionGone');
  return (err.details.code === 'store_unavailable' ? t('refusal.storeUnavailable') : t('refusal.status', { status: err.status })) || err.message;
}

export function skipPuzzle(source: InputSource = 'mouse'): void {
  if (!useStudy.getState().skipAllowed) return;
  dispatch({ type: 'skip' }, source);
  advance('skipped');
}

export function answerConsent(agreed: boolean, source: InputSource = 'mouse'): void {
  logEvent('consent', { agreed }, source);
  if (agreed) {
    advance('done');
    if (useStudy.getState().session?.sequence.length === 0) void waitForSequence();
  } else {
    logEvent('step_end', { kind: 'consent', reason: 'declined' });
    useStudy.setState({ declined: true });
  }
}

export function submitSurvey(surveyId: string, answers: Record<string, number | string | string[] | null>, source: InputSource = 'mouse'): void {
  logEvent('survey_submit', { survey_id: surveyId, answers }, source);
  advance('done');
}

/** Eligibility screening failed: log the answers and the end of the step, then stop here for good (kept across reloads). */
export function screenOut(surveyId: string, answers: Record<string, number | string | string[] | null>, message: string, source: InputSource = 'mouse'): void {
  const s = useStudy.getState();
  const step = s.steps[s.step];
  logEvent('survey_submit', { survey_id: surveyId, answers }, source);
  if (step) logEvent('step_end', { kind: step.kind, reason: 'screened_out' });
  if (s.session) localStorage.setItem(`nonolab.${s.session.session_id}.screened_out`, message);
  if (clock) clearInterval(clock);
  useStudy.setState({ screenedOut: message });
  void screenedOutCode();
}

/** Once the server holds every event, ask for the code the study gives participants who are not eligible (if any). */
async function screenedOutCode(): Promise<void> {
  if (!outbox) return;
  await outbox.drained();
  try {
    useStudy.setState({ completion: await api.complete(seq) });
  } catch {
    // No code configured (404), or offline: the screen says thank you without one.
  }
}

export function submitRating(difficulty: number | null, guessing: string, source: InputSource = 'mouse'): void {
  const s = useStudy.getState();
  const step = s.steps[s.step];
  logEvent('rating', { difficulty, guessing }, source);
  if (step?.puzzle_id) useStudy.setState({ ratings: { ...s.ratings, [step.puzzle_id]: { difficulty, guessing } } });
  advance('done');
}

export function reviseRating(puzzleId: string, to: number | null, source: InputSource = 'mouse'): void {
  const s = useStudy.getState();
  const from = s.ratings[puzzleId]?.difficulty ?? null;
  if (from === to) return;
  logEvent('rating_revise', { rated_puzzle_id: puzzleId, from, to }, source);
  useStudy.setState({ ratings: { ...s.ratings, [puzzleId]: { ...(s.ratings[puzzleId] ?? { guessing: '' }), difficulty: to } } });
}

/** Wait until the server holds every event, then fetch the completion code. */
export async function finish(): Promise<void> {
  if (!outbox || useStudy.getState().busy === 'finish') return;
  useStudy.setState({ busy: 'finish' });
  for (;;) {
    await outbox.drained();
    try {
      const completion = await api.complete(seq);
      useStudy.setState({ completion, busy: null });
      return;
    } catch (err) {
      if (err instanceof ApiError && err.status < 500 && err.status !== 409) {
        useStudy.setState({ busy: null, error: networkMessage(err), status: 'error' });
        return;
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}

function logEnvironment(): void {
  document.addEventListener('visibilitychange', () => logEvent('visibility', { state: document.visibilityState === 'hidden' ? 'hidden' : 'visible' }));
  window.addEventListener('focus', () => logEvent('focus', { focused: true }));
  window.addEventListener('blur', () => logEvent('focus', { focused: false }));
  let resizeTimer: ReturnType<typeof setTimeout> | null = null;
  const onResize = () => {
    if (resizeTimer) clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => logEvent('resize', { width: window.innerWidth, height: window.innerHeight, orientation: screen.orientation?.type ?? 'unknown' }), 300);
  };
  window.addEventListener('resize', onResize);
  screen.orientation?.addEventListener?.('change', onResize);
  window.addEventListener('online', () => outbox?.retryNow());
  window.addEventListener('pointerdown', (e) => noteInput(e.pointerType === 'mouse' ? 'pointer' : 'touch'), { capture: true, passive: true });
}

/**
 * One window per session: two windows would number their events independently and the server would keep only one of
 * each number. The newest window announces itself; an older one stops logging and sending (the newer one's outbox
 * already holds everything the older one persisted) and offers to continue here, which reloads and claims it back.
 */
function claimSession(sessionId: string, pageId: string): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(`nonolab.${sessionId}`);
  channel.onmessage = (m: MessageEvent<{ type: string; page: string }>) => {
    if (m.data?.type !== 'hello' || m.data.page === pageId) return;
    outbox?.stop();
    outbox = null;
    if (clock) clearInterval(clock);
    clock = null;
    channel.close();
    useStudy.setState({ status: 'elsewhere' });
  };
  channel.postMessage({ type: 'hello', page: pageId });
}

/**
 * How this participant arrived, from the link: a recruitment panel (Prolific's PROLIFIC_PID, STUDY_ID, SESSION_ID;
 * SONA's sona_id), the lab's kiosk (?mode=kiosk&label=P07), or a general link.
 */
export function startRequest(params: URLSearchParams): StartSessionRequest {
  const lang = params.get('lang');
  const request = startRequestOf(params);
  return lang ? { ...request, lang } : request;
}

function startRequestOf(params: URLSearchParams): StartSessionRequest {
  const pid = params.get('PROLIFIC_PID');
  if (pid) return { mode: 'panel', panel: { provider: 'prolific', participant_id: pid, study_id: params.get('STUDY_ID') ?? undefined, session_id: params.get('SESSION_ID') ?? undefined } };
  const sona = params.get('sona_id') ?? params.get('SONA_ID');
  if (sona) return { mode: 'panel', panel: { provider: 'sona', participant_id: sona } };
  if (params.get('mode') === 'kiosk') return { mode: 'kiosk', label: params.get('label') ?? undefined };
  return { mode: 'general' };
}

/** The link's parameter that carries each start field, to name it to whoever made the link. */
const LINK_FIELDS: Record<string, MessageKey> = {
  label: 'link.paramLabel',
  'panel.participant_id': 'link.paramParticipant',
  'panel.study_id': 'link.paramStudy',
  'panel.session_id': 'link.paramSession',
};

/**
 * What is wrong with a start request, said for a person (the experimenter at a kiosk, or a participant whose panel
 * link is broken): the field, the value, and what is allowed; null when the request is valid.
 */
export function startProblem(request: StartSessionRequest): string | null {
  const checked = StartSessionRequest.safeParse(request);
  if (checked.success) return null;
  const issue = checked.error.issues[0];
  const path = issue.path.map(String).join('.');
  // Said in the page's language (the check's own words are English): by the issue's code and the field.
  const problem = t('link.problem', { issue: issue.code, field: path.split('.')[0] });
  if (path === 'label') {
    const shown = request.label === undefined ? '' : ` "${request.label.slice(0, 120)}"`;
    return t('link.label', { shown, problem });
  }
  if (path.startsWith('panel.')) {
    const key = path.slice('panel.'.length) as 'participant_id' | 'study_id' | 'session_id';
    const value = request.panel?.[key];
    const param = t(key === 'participant_id' ? (request.panel?.provider === 'sona' ? 'link.paramSona' : 'link.paramProlific') : LINK_FIELDS[path]);
    const shown = typeof value === 'string' ? ` "${value.slice(0, 120)}"` : '';
    return t('link.panel', { param, shown, problem });
  }
  return t('link.other', { param: LINK_FIELDS[path] ? t(LINK_FIELDS[path]) : path, problem });
}

/** Resume the session this browser holds (cookie), or start a new one; then rebuild the board, history and timers. */
export async function boot(): Promise<void> {
  try {
    // A link in another language: its catalogue is fetched beside the session (and speaks the screens before one).
    const asked = linkLanguage();
    if (asked) void catalogueOf(asked);
    const speakAsked = async () => {
      if (asked) await setLanguage(asked);
    };
    let session: SessionState | null = null;
    try {
      session = await api.current();
    } catch (err) {
      // 401: this browser holds a token the server no longer knows (e.g. a withdrawn session): start afresh.
      if (!(err instanceof ApiError) || err.status !== 401) throw err;
    }
    if (!session) {
      const params = new URLSearchParams(location.search);
      if (params.get('mode') === 'kiosk' && !params.get('label')) {
        // Tell the experimenter before they type a label, not after.
        const recruitment = await api.recruitment(asked).catch(() => null);
        await speakAsked();
        if (recruitment && !recruitment.accepting) useStudy.setState({ status: 'closed', closed: { title: recruitment.closed_title, message: recruitment.closed_message } });
        else useStudy.setState({ status: 'kiosk-label' });
        return;
      }
      const request = startRequest(params);
      await speakAsked();
      let problem = startProblem(request);
      // A broken link is said in the steps' words, which the first load does not carry: fetch them, then say it.
      if (problem !== null) {
        await loadStepWords();
        problem = startProblem(request);
      }
      if (problem) {
        useStudy.setState(request.mode === 'kiosk' ? { status: 'kiosk-label', linkProblem: problem } : { status: 'bad-link', linkProblem: problem });
        return;
      }
      try {
        session = await api.start(request);
      } catch (startErr) {
        const issues = startErr instanceof ApiError && Array.isArray(startErr.details.issues) ? startErr.details.issues.map(String) : [];
        if (!(startErr instanceof ApiError) || startErr.status !== 403 || !issues.some((i) => i.startsWith('recruitment:'))) throw startErr;
        const recruitment = await api.recruitment(asked).catch(() => null);
        useStudy.setState({ status: 'closed', closed: { title: recruitment?.closed_title ?? t('app.closedTitle'), message: startErr.message } });
        return;
      }
    }
    // A returning session whose events another window of this browser may be sending right now: read this browser's
    // queue first and the server's view after it, so that an event acknowledged in between is in the server's view,
    // and one still unacknowledged is in the queue read before (read the other way round, an event acknowledged
    // between the two reads is in neither, and the board is missing a move).
    const stored = Outbox.stored(session.session_id);
    if (stored.lastSeq > session.acked_seq) session = (await api.current()) ?? session;
    const current = session;
    outbox = new Outbox(session.session_id, session.acked_seq, async (events) => (await api.sendEvents(events)).acked_seq, (err) => {
      // The server will never take these events (a withdrawn or expired session): say so instead of retrying.
      if (err instanceof ApiError && (err.status === 410 || err.status === 401 || err.status === 403)) {
        useStudy.setState({ status: 'error', error: networkMessage(err) });
        return true;
      }
      // Every sequence was taken by others who consented first (a study configured to refuse when full).
      if (err instanceof ApiError && err.status === 409 && err.details.study_full === true) {
        useStudy.setState({ status: 'error', error: t('app.studyFull') });
        return true;
      }
      // After the end (completed, declined, screened out) the server takes no more events (409): the page's own
      // records (a hidden tab) stop there, and the end screen stays.
      const over = useStudy.getState();
      if (err instanceof ApiError && err.status === 409 && (over.declined || over.screenedOut !== null || over.completion !== null)) return 'ended';
      return false;
    }, (err, batch) => {
      // The server refused one event for good (400 naming its seq): a client_error goes in its place.
      if (!(err instanceof ApiError) || err.status !== 400 || typeof err.details.seq !== 'number') return null;
      const refused = batch.find((e) => e.seq === err.details.seq);
      return refused ? clientErrorFor(refused, `refused by the server: ${err.message} ${JSON.stringify(err.details.issues ?? [])}`, 400) : null;
    });
    outbox.subscribe((saveStatus) => useStudy.setState({ saveStatus }));
    // The session's language (the study's choice from the link's ?lang=): every screen from here speaks it.
    const language = session.study.language;
    if (language) await setLanguage(language.lang, language.messages, language.native_digits);
    seq = outbox.lastSeq();
    const steps = expandSteps(session.study.phases, session.sequence);
    // Events still in the outbox (not yet acknowledged) are ahead of the server's view: replay them on top.
    const local = stored.queue.filter((e) => e.seq > current.acked_seq);
    const ahead = sessionProgress(local);
    const movesByStep: Record<number, Move[]> = {};
    for (const [k, v] of Object.entries(session.moves_by_step)) movesByStep[Number(k)] = [...v];
    for (const [k, v] of Object.entries(ahead.movesByStep)) (movesByStep[Number(k)] ??= []).push(...v);
    // The step after the last step_end, by the log's rule (shared/log/rules.ts), over the server's step and the unsent events.
    const step = local.reduce(stepAfter, session.step);
    useStudy.setState({
      status: 'running',
      session,
      steps,
      movesByStep,
      ratings: { ...session.ratings, ...ahead.ratings },
      outcomes: { ...session.outcomes, ...ahead.outcomes },
      completion: session.completion_code ? { code: session.completion_code, redirect_url: null } : null,
      declined: session.status === 'declined' || local.some((e) => sessionEndOf(e) === 'declined'),
      screenedOut: localStorage.getItem(`nonolab.${session.session_id}.screened_out`),
    });
    useStudy.setState({ step });
    // A page opened on a session that is over: the server has its end and takes nothing more (409), so the page
    // sends nothing (no page records) and shows no pending state; only its own unsent end, if any, still goes.
    if (session.status === 'complete' || session.status === 'declined' || session.status === 'screened_out') {
      outbox.end();
      if (session.status === 'complete') enterStep(step); // the completion page, as it was (nothing is logged: the outbox has ended)
      return;
    }
    const endedHere = useStudy.getState();
    if (endedHere.declined || endedHere.screenedOut !== null) return; // the end is in the queue, on its way
    logEnvironment();
    const pageId = crypto.randomUUID?.() ?? `${Date.now()}-${performance.now()}`;
    claimSession(session.session_id, pageId);
    logEvent('client_start', { user_agent: navigator.userAgent.slice(0, 1_000), width: window.innerWidth, height: window.innerHeight, page_id: pageId });
    const ended = useStudy.getState();
    if (ended.screenedOut === null && !ended.declined) {
      // Consented, but the sequence (leased at consent) is not known here yet: fetch it; wait for it at the puzzles.
      if (step > 0 && awaitingSequence(step)) {
        useStudy.setState({ busy: 'sequence' });
        void waitForSequence().then(() => {
          useStudy.setState({ busy: null });
          enterStep(step);
        });
      } else {
        if (step > 0 && session.sequence.length === 0) void waitForSequence();
        enterStep(step);
      }
    }
  } catch (err) {
    useStudy.setState({ status: 'error', error: networkMessage(err) });
  }
}
