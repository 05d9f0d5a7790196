// The puzzle screen's requests to the server, a check and a hint, and what the page says when one is refused. They come
// with the puzzle screen's chunk (PuzzleView registers them: registerBoardRequests), not in the first load.
import { boardRows } from '../../../shared/game/board.ts';
import type { MessageKey } from '../../../shared/i18n/en.ts';
import { api, ApiError } from '../api.ts';
import { t } from '../i18n.ts';
import { advance, dispatch, logEvent, networkMessage, revealOf, sudokuRules, useStudy, type StudyStore } from '../study.ts';

/** Refusals (the server's `code`, docs/api.md) that trying again does not change: said as they are. */
const FINAL_REFUSALS: Record<string, MessageKey> = {
  time_over: 'refusal.timeOver',
  not_current_step: 'refusal.notCurrentStep',
  session_ended: 'refusal.sessionEnded',
  hints_off: 'refusal.hintsOff',
};

/**
 * What the page says when a check or a hint got no answer, in its language: a final refusal as it is, anything else as
 * `failed` with its reason (no connection, the session gone, the server unable to store, or the server's status).
 * The server's own `error` is English and never shown.
 */
export function requestFailed(err: unknown, failed: 'check.failed' | 'hint.failed'): string {
  const code = err instanceof ApiError ? err.details.code : undefined;
  if (typeof code === 'string' && Object.hasOwn(FINAL_REFUSALS, code)) return t(FINAL_REFUSALS[code]);
  return t(failed, { reason: networkMessage(err) });
}

/** The board as the server's check and hint read it, of the step's kind (null off a board). */
function boardText(s: StudyStore): string[] | null {
  const sudoku = sudokuRules();
  return s.board ? boardRows(s.board.grid) : s.sudoku && sudoku ? sudoku.sudokuRows(s.sudoku) : null;
}

/** Candidates the Sudoku hints of this step removed, so the next hint builds on them (kept while the page lives). */
let eliminatedByStep: Record<number, { row: number; col: number; digit: number }[]> = {};

/** Submit: the server checks the board; solved advances (a tutorial only says so), not solved says so. */
export async function submitBoard(): Promise<void> {
  const s = useStudy.getState();
  const step = s.steps[s.step];
  const rows = boardText(s);
  if (!rows || !step?.puzzle_id) return;
  const index = s.step;
  useStudy.setState({ busy: 'check' });
  try {
    const { solved } = await api.check({ puzzle_id: step.puzzle_id, position: step.position, rows });
    if (useStudy.getState().step !== index) return;
    logEvent('submit_result', { solved });
    if (step.kind === 'tutorial')
      useStudy.setState({
        busy: null,
        feedback: solved ? { tone: 'success', text: t('check.tutorialSolved') } : { tone: 'info', text: t('check.tutorialNotSolved') },
      });
    else if (solved) {
      useStudy.setState({ busy: null });
      advance('solved');
    } else useStudy.setState({ busy: null, feedback: { tone: 'warn', text: t('check.notSolved') } });
  } catch (err) {
    useStudy.setState({ busy: null, feedback: { tone: 'warn', text: requestFailed(err, 'check.failed') } });
  }
}

/** Hint: the server's engine explains from the participant's board; shown (and logged as shown) only when it came. */
export async function fetchHint(): Promise<void> {
  const s = useStudy.getState();
  const step = s.steps[s.step];
  const policy = s.session?.study.hint_policy;
  const rows = boardText(s);
  if (!rows || !step?.puzzle_id || policy === 'off') return;
  const index = s.step;
  useStudy.setState({ busy: 'hint' });
  try {
    const eliminated = s.sudoku ? (eliminatedByStep[index] ?? []) : undefined;
    const { hint } = await api.hint({ puzzle_id: step.puzzle_id, position: step.position, rows, ...(eliminated ? { eliminated } : {}) });
    if (useStudy.getState().step !== index) return;
    useStudy.setState({ busy: null });
    if (!hint) {
      useStudy.setState({ feedback: { tone: 'info', text: t('hint.none') } });
      return;
    }
    // A Sudoku hint always explains (its reveal-only text names the digit: shared/sudoku/hint.ts); a Nonogram's
    // reveal-only hint has no text, and the page says what the hint itself says.
    const explanation = 'puzzle' in hint || hint.explanation ? hint.explanation : t('hint.revealOnly', { row: hint.row + 1, col: hint.col + 1, value: hint.value });
    logEvent('hint_shown', { row: hint.row, col: hint.col, explanation });
    if ('puzzle' in hint && hint.kind === 'eliminate') eliminatedByStep = { ...eliminatedByStep, [index]: [...(eliminatedByStep[index] ?? []), ...hint.eliminated] };
    // A mistake, when the policy explains: the reason first, and the fix on the participant's word (fixHint).
    const reveal = revealOf(hint);
    const offerFix = hint.kind === 'error' && policy === 'explain-and-reveal' && reveal !== null;
    useStudy.setState({ hint: { ...hint, explanation, fixOffered: offerFix } });
    // The revealed cell is a move like any other: logged, undoable.
    if (!offerFix && reveal) dispatch(reveal, 'system');
  } catch (err) {
    useStudy.setState({ busy: null, feedback: { tone: 'warn', text: requestFailed(err, 'hint.failed') } });
  }
}

export const boardRequests = { submit: submitBoard, hint: fetchHint };
