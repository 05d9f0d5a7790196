// Request and response payloads of the participant API.
import { z } from 'zod';
import { ClientEvent } from './event.ts';
import { Phase, HintPolicy } from './phase.ts';
import { PuzzleClues } from './puzzle.ts';
import { Move } from './move.ts';
import { SessionStatus } from './session.ts';

const PanelId = z.string().min(1, 'an id cannot be empty').max(100, 'an id has at most 100 characters').regex(/^[A-Za-z0-9_.:-]+$/, 'panel ids use letters, digits and _ . : -');

/** Recruitment-panel identifiers (Prolific's PROLIFIC_PID/STUDY_ID/SESSION_ID, or a SONA id): kept apart from study data. */
export const PanelIdentity = z.object({
  provider: z.enum(['prolific', 'sona']),
  participant_id: PanelId,
  study_id: PanelId.optional(),
  session_id: PanelId.optional(),
}).strict();
export type PanelIdentity = z.infer<typeof PanelIdentity>;

export const StartSessionRequest = z
  .object({
    mode: z.enum(['general', 'kiosk', 'panel']).default('general'),
    /** Kiosk mode: the participant label the experimenter types in. */
    label: z.string().trim().min(1, 'a label cannot be empty').max(100, 'a label has at most 100 characters').regex(/^[^<>]*$/, 'labels cannot contain < or >').optional(),
    panel: PanelIdentity.optional(),
    /** The language the link asks for (`?lang=de`): used if the study declares it, else the study's default. */
    lang: z.string().max(35).optional(),
  })
  // Unknown keys are refused (400 naming them), not ignored: a typo such as `"mod": "kiosk"` would otherwise start a
  // general session without a word, and a start's body is stored nowhere, so junk has no reason to be sent.
  .strict()
  .superRefine((r, ctx) => {
    if (r.mode === 'panel' && !r.panel) ctx.addIssue({ code: 'custom', path: ['panel'], message: 'panel mode needs the panel identifiers' });
    if (r.mode === 'kiosk' && !r.label) ctx.addIssue({ code: 'custom', path: ['label'], message: 'kiosk mode needs a participant label' });
  });
export type StartSessionRequest = z.infer<typeof StartSessionRequest>;

/**
 * A Sudoku as the browser sees it: its givens, without the solution. Its shape only: the server checked the record
 * with the config (shared/sudoku/schema.ts), and the page's first load carries no Sudoku schema.
 */
export const SudokuClues = z.object({
  kind: z.literal('sudoku'),
  id: z.string().min(1).max(64),
  size: z.number().int().min(1).max(32),
  box: z.tuple([z.number().int().min(1), z.number().int().min(1)]),
  givens: z.array(z.string()),
});
export type SudokuClues = z.infer<typeof SudokuClues>;

/** A puzzle as the browser sees it, of any kind: a Nonogram's clues (no `kind`, as always) or a Sudoku's givens. */
export const ClientPuzzle = z.union([SudokuClues, PuzzleClues]);
export type ClientPuzzle = z.infer<typeof ClientPuzzle>;

/** Whether a puzzle the browser holds is a Sudoku. */
export const isSudokuClues = (p: ClientPuzzle): p is SudokuClues => 'kind' in p && p.kind === 'sudoku';

/**
 * A session's language as its page gets it (shared/study/config.ts: clientStudyIn builds it from the checked config;
 * the page's schema only checks it is an object: its shape is the server's own, and the first load is budgeted).
 */
export interface StudyLanguage {
  lang: string;
  native_digits: boolean;
  messages: Record<string, string>;
  options: Record<string, string>;
}

/** What the browser learns of the study: everything but the solutions. */
export const ClientStudy = z.object({
  id: z.string(),
  title: z.string(),
  config_hash: z.string(),
  phases: z.array(Phase),
  puzzles: z.array(ClientPuzzle),
  hint_policy: HintPolicy,
  /** Sudoku boards' settings (config `sudoku`); only in a study with Sudoku puzzles. */
  sudoku: z.object({ flag_conflicts: z.boolean() }).optional(),
  /**
   * The session's language, in a study that declares languages (config `languages`): the phases above are already in
   * it; `messages`: the study's overrides of the page's catalogue; `options`: answer options' labels by path (the
   * answer recorded stays the default language's option).
   */
  language: z.custom<StudyLanguage>((v) => typeof v === 'object' && v !== null).optional(),
});
export type ClientStudy = z.infer<typeof ClientStudy>;

export const SessionState = z.object({
  session_id: z.string(),
  sequence: z.array(z.string()),
  step: z.number().int().nonnegative(),
  /** Highest contiguous client sequence number the server holds. */
  acked_seq: z.number().int().nonnegative(),
  status: SessionStatus,
  study: ClientStudy,
  /** Every move so far, by step index, to rebuild boards (current one, post-survey pictures) on resume. */
  moves_by_step: z.record(z.string(), z.array(Move)),
  ratings: z.record(z.string(), z.object({ difficulty: z.number().int().min(1).max(5).nullable(), guessing: z.string() })),
  outcomes: z.record(z.string(), z.enum(['solved', 'skipped', 'timeout', 'done'])),
  completion_code: z.string().nullable(),
});
export type SessionState = z.infer<typeof SessionState>;

/** `GET /api/session/current`: this browser's session, or null when it holds no token yet (a first visit). */
export const CurrentSession = z.object({ session: SessionState.nullable() });
export type CurrentSession = z.infer<typeof CurrentSession>;

export const EventBatch = z.object({ events: z.array(ClientEvent).min(1).max(500) });
export type EventBatch = z.infer<typeof EventBatch>;
export const BatchAck = z.object({ acked_seq: z.number().int().nonnegative() });
export type BatchAck = z.infer<typeof BatchAck>;

export const CheckRequest = z.object({
  puzzle_id: z.string().min(1).max(64),
  position: z.number().int().positive().nullable(),
  /** The board as text: a Nonogram's # (filled), x (crossed), . or ? (unknown); a Sudoku's digit symbols (1-9, A-Z) and . (empty). */
  rows: z.array(z.string().regex(/^[#.x?1-9A-Z]*$/, 'rows use # (filled), x (crossed), . or ? (unknown) on a Nonogram; digits 1-9, A-Z and . (empty) on a Sudoku').max(100)).max(100),
});
export type CheckRequest = z.infer<typeof CheckRequest>;
export const CheckResponse = z.object({ solved: z.boolean() });
export type CheckResponse = z.infer<typeof CheckResponse>;

/**
 * A hint's request: the board, and on a Sudoku the candidates the participant has ruled out (those earlier hints
 * removed), so the next hint builds on them.
 */
export const HintRequest = CheckRequest.extend({
  eliminated: z.array(z.object({ row: z.number().int().nonnegative().max(99), col: z.number().int().nonnegative().max(99), digit: z.number().int().min(1).max(35) })).max(10_000).optional(),
});
export type HintRequest = z.infer<typeof HintRequest>;
/** A Sudoku hint (`puzzle: "sudoku"`): a wrong digit, a digit to place, candidates to remove, or none applies. */
export const SudokuHintBody = z.object({
  puzzle: z.literal('sudoku'),
  kind: z.enum(['error', 'cell', 'eliminate', 'stuck']),
  row: z.number().int().nonnegative(),
  col: z.number().int().nonnegative(),
  /** cell: the digit to place (what a reveal writes); error: the right digit when the policy reveals; else null. */
  digit: z.number().int().positive().nullable(),
  /** eliminate: the candidates the reasoning removes (pencil marks to take out). */
  eliminated: z.array(z.object({ row: z.number().int().nonnegative(), col: z.number().int().nonnegative(), digit: z.number().int().positive() })),
  /** The cells the reasoning uses (to highlight). */
  cells: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])),
  heading: z.string(),
  reasoning: z.string(),
  explanation: z.string(),
});
export type SudokuHintBody = z.infer<typeof SudokuHintBody>;

/** A Nonogram hint: a wrong cell or a cell to paint, and the line whose clue shows it. */
export const NonogramHintBody = z.object({
  kind: z.enum(['error', 'cell']),
  row: z.number().int().nonnegative(),
  col: z.number().int().nonnegative(),
  value: z.enum(['filled', 'empty']),
  line: z.object({ axis: z.enum(['row', 'col']), index: z.number().int().nonnegative() }),
  /** Where to look ("Hint · Row 3"), in the session's language, as the explanation. */
  heading: z.string(),
  reasoning: z.string(),
  explanation: z.string(),
  /** False when the explanation reasons in no line (a mistake only the solution shows; reveal-only): the heading then names no reason line. */
  reason_in_line: z.boolean().optional(),
});
export type NonogramHintBody = z.infer<typeof NonogramHintBody>;

export const HintResponse = z.object({ hint: z.union([NonogramHintBody, SudokuHintBody]).nullable() });
export type HintResponse = z.infer<typeof HintResponse>;

export const CompleteRequest = z.object({ last_seq: z.number().int().nonnegative() });
/** A participant's own withdrawal: an empty object (the cookie names the session). */
export const ParticipantWithdrawRequest = z.strictObject({});
export const CompleteResponse = z.object({ code: z.string(), redirect_url: z.string().nullable() });
export type CompleteResponse = z.infer<typeof CompleteResponse>;

/** GET /api/recruitment: whether a new visitor may start, and the page to show when not. */
export const PublicRecruitment = z.object({ accepting: z.boolean(), closed_title: z.string(), closed_message: z.string() });
export type PublicRecruitment = z.infer<typeof PublicRecruitment>;

export const ApiError = z.object({ error: z.string(), issues: z.array(z.string()).optional() });
export type ApiError = z.infer<typeof ApiError>;
