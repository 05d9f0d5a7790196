// The study configuration: phases and their parameters, puzzles, survey items, timings, policies.
// Every object is strict: a misspelt key is an error naming the nearest known one (strict.ts), never silently dropped.
import { z } from 'zod';
import { PuzzleFields, checkPuzzle, solutionContradiction } from './puzzle.ts';
import { strictObject } from './strict.ts';
import { SudokuFields, checkSudoku } from '../sudoku/schema.ts';

import { Id, Phase, HintPolicy, InputText, describeIssues } from './phase.ts';
import { languageProblems } from '../i18n/studyTexts.ts';
export * from './phase.ts';

/** How completion codes are given: one for the whole study, or one per completed session. */
export const CodeMode = z.enum(['study', 'per_participant']);
export type CodeMode = z.infer<typeof CodeMode>;

export const RECRUITMENT_CLOSED_TITLE = 'This study is not taking participants';
export const RECRUITMENT_CLOSED_MESSAGE =
  'Thank you for your interest. This study is not taking new participants at the moment. If you have already started, open the study from the same link and browser to finish it.';

/**
 * Recruitment: `open` (new visitors may start) and an optional target of completed participants (sessions marked
 * pilot, test or excluded do not count); once closed or reached, a new visitor sees `closed_title`/`closed_message`.
 */
export const Recruitment = strictObject({
  open: z.boolean().default(true),
  target_completed: z.number().int().positive().optional(),
  closed_title: z.string().min(1).max(200).default(RECRUITMENT_CLOSED_TITLE),
  closed_message: z.string().min(1).max(2_000).default(RECRUITMENT_CLOSED_MESSAGE),
});
export type Recruitment = z.infer<typeof Recruitment>;

/**
 * A Nonogram as a config holds it: a puzzle record with no unknown keys, whose solution (when given; the config
 * requires it) reads as its own clues in every row and column.
 */
export const NonogramStudyPuzzle = strictObject(PuzzleFields)
  .superRefine(checkPuzzle)
  .superRefine((p, ctx) => {
    if (!p.solution || p.solution.length !== p.height || p.solution.some((row) => row.length !== p.width)) return; // checkPuzzle names the size
    const wrong = solutionContradiction({ rows: p.rows, cols: p.cols, solution: p.solution });
    if (wrong) ctx.addIssue({ code: 'custom', path: wrong.path, message: `${wrong.message}: the solution contradicts the clues` });
  });
export type NonogramStudyPuzzle = z.infer<typeof NonogramStudyPuzzle>;

/** A Sudoku as a config holds it (`"kind": "sudoku"`): the record of shared/sudoku/schema.ts with no unknown keys. */
export const SudokuStudyPuzzle = strictObject(SudokuFields).superRefine(checkSudoku);
export type SudokuStudyPuzzle = z.infer<typeof SudokuStudyPuzzle>;

/**
 * A study or practice puzzle as a config holds it, of any kind: `kind` names it (absent means a Nonogram, so every
 * existing config reads, and hashes, unchanged).
 */
export const StudyPuzzle = z.discriminatedUnion('kind', [NonogramStudyPuzzle, SudokuStudyPuzzle], {
  error: (issue) => (issue.code === 'invalid_union' ? `unknown puzzle kind ${JSON.stringify((issue.input as { kind?: unknown } | undefined)?.kind)} (kinds: nonogram, sudoku)` : undefined),
});
export type StudyPuzzle = z.infer<typeof StudyPuzzle>;

/** Whether a config's puzzle is a Nonogram (`kind` absent or "nonogram"). */
export const isNonogramPuzzle = (p: StudyPuzzle): p is NonogramStudyPuzzle => p.kind !== 'sudoku';
/** Whether a config's puzzle is a Sudoku. */
export const isSudokuPuzzle = (p: StudyPuzzle): p is SudokuStudyPuzzle => p.kind === 'sudoku';

export class PuzzleKindError extends Error {}

/** The puzzles as Nonograms, for what plays or measures Nonograms only; PuzzleKindError naming the first puzzle of another kind. */
export function nonogramsOnly(puzzles: readonly StudyPuzzle[], what: string): NonogramStudyPuzzle[] {
  const other = puzzles.find((p) => !isNonogramPuzzle(p));
  if (other) throw new PuzzleKindError(`${what} takes Nonogram puzzles only: puzzle '${other.id}' is a ${other.kind}`);
  return puzzles as NonogramStudyPuzzle[];
}

/**
 * Sudoku boards' study settings. `flag_conflicts`: whether a digit that repeats another in its row, column or box is
 * marked on the participant's board (off by default, as a wrong cell is never shown: flagging changes what the study
 * measures).
 */
export const SudokuSettings = strictObject({ flag_conflicts: z.boolean().default(false) });
export type SudokuSettings = z.infer<typeof SudokuSettings>;

/** A language tag: `en`, `de`, `ar`, `pt-BR`. */
export const LanguageTag = z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a language tag such as en, de, ar or pt-BR');

/**
 * The languages the participant's page speaks (shared/i18n/studyTexts.ts): `available` ones, a link choosing one with
 * `?lang=`; the config's own texts are in `default`, each other language gives them all under `texts.<lang>` by path;
 * `messages.<lang>` overrides any string of the page's catalogue (a language nonolab ships no catalogue for gives them
 * all). `native_digits`: numbers in the text as the language writes them (Arabic-Indic in Arabic); boards, clues and
 * codes always keep Western digits. Absent: English only, as before.
 */
export const Languages = strictObject({
  default: LanguageTag.default('en'),
  available: z.array(LanguageTag).min(1).max(50),
  native_digits: z.boolean().default(false),
  messages: z.record(LanguageTag, z.record(z.string(), z.string().min(1).max(20_000))).default({}),
  texts: z.record(LanguageTag, z.record(z.string(), InputText)).default({}),
});
export type Languages = z.infer<typeof Languages>;

export const StudyConfig = strictObject({
  id: Id,
  title: z.string().min(1),
  version: z.string().min(1),
  /** The study pool: each participant gets an ordered sequence drawn from these. */
  puzzles: z.array(StudyPuzzle).min(1),
  /** Tutorial and warmup puzzles, referenced by id from their phases. */
  practice_puzzles: z.array(StudyPuzzle).default([]),
  phases: z.array(Phase).min(1),
  assignment: strictObject({ when_exhausted: z.enum(['new-round', 'refuse']).default('new-round') }).default({ when_exhausted: 'new-round' }),
  hints: strictObject({ policy: HintPolicy.default('explain-and-reveal') }).default({ policy: 'explain-and-reveal' }),
  /** Sudoku boards' settings; absent (no default filled in, so a config without it hashes as before) means the defaults. */
  sudoku: SudokuSettings.optional(),
  timing: strictObject({
    /** After this long without an event a session counts as abandoned. */
    inactivity_minutes: z.number().positive().default(30),
    /** Return an abandoned session's sequence to the pool if it never finished its first study puzzle. */
    return_lease_if_no_puzzle_done: z.boolean().default(true),
    /** Slack the server allows past a phase's time cap (network delay, a slow device). */
    grace_seconds: z.number().nonnegative().default(30),
    /**
     * Time rules (skip after N s, time limits) trust the client's clock alone, without bounding it by the server's
     * time since the session started: only for simulations replayed faster than real time (`simulate --server`).
     */
    trust_client_clock: z.boolean().default(false),
    /** A session that sent no event this long after its start gives its sequence back (a start nobody used). */
    unused_start_minutes: z.number().positive().default(3),
  }).default({ inactivity_minutes: 30, return_lease_if_no_puzzle_done: true, grace_seconds: 30, trust_client_clock: false, unused_start_minutes: 3 }),
  completion: strictObject({
    /** The study-wide code (what Prolific expects); required unless `code_mode` is 'per_participant'. */
    code: z.string().min(1).optional(),
    /**
     * 'study': every participant gets `code`. 'per_participant' (SONA, course credit): each completed session gets its
     * own unguessable code (crypto-random, `code_prefix` + 12 characters of Crockford base32, 60 bits), stored with
     * the session, so an experimenter can check a code pasted back into a panel.
     */
    code_mode: CodeMode.default('study'),
    code_prefix: z.string().max(20).regex(/^[A-Za-z0-9-]*$/, 'code_prefix uses letters, digits and -').default(''),
    /** Codes for participants screened out by eligibility, and for those who withdraw. */
    screened_out_code: z.string().min(1).optional(),
    withdrawn_code: z.string().min(1).optional(),
    /** Where to send a participant at the end (e.g. a panel's completion URL); `{code}` is replaced by the code. */
    redirect_url: z.string().url().optional(),
  }),
  /** How the study puzzles were chosen (`select --scheme spread --config`): the scheme, its measures and why. Informational. */
  selection: strictObject({
    scheme: z.string().min(1),
    metrics: z.array(z.string().min(1)).optional(),
    rationale: z.string().min(1),
    picks: z.array(strictObject({ id: z.string(), role: z.string(), values: z.record(z.string(), z.number()) })).optional(),
  }).optional(),
  /** Recruitment as the study starts; the dashboard can open or close it and change the target later. */
  recruitment: Recruitment.default({ open: true, closed_title: RECRUITMENT_CLOSED_TITLE, closed_message: RECRUITMENT_CLOSED_MESSAGE }),
  /** The languages of the participant's page; absent (no default filled in: a config without it hashes as before) means English only. */
  languages: Languages.optional(),
})
  .superRefine((cfg, ctx) => {
    const ids = new Set<string>();
    for (const [i, p] of cfg.phases.entries()) {
      if (ids.has(p.id)) ctx.addIssue({ code: 'custom', path: ['phases', i, 'id'], message: `duplicate phase id '${p.id}'` });
      ids.add(p.id);
    }
    const practice = new Set(cfg.practice_puzzles.map((p) => p.id));
    for (const [i, p] of cfg.phases.entries()) {
      if ((p.kind === 'tutorial' || p.kind === 'warmup') && !practice.has(p.puzzle))
        ctx.addIssue({ code: 'custom', path: ['phases', i, 'puzzle'], message: `no practice puzzle with id '${p.puzzle}'` });
      if (p.kind === 'puzzles' && p.count > cfg.puzzles.length)
        ctx.addIssue({ code: 'custom', path: ['phases', i, 'count'], message: `asks for ${p.count} puzzles but the pool has ${cfg.puzzles.length}` });
    }
    const puzzlePhases = cfg.phases.filter((p) => p.kind === 'puzzles').length;
    if (puzzlePhases > 1) ctx.addIssue({ code: 'custom', path: ['phases'], message: 'at most one puzzles phase' });
    cfg.puzzles.forEach((p, i) => {
      if (!p.solution) ctx.addIssue({ code: 'custom', path: ['puzzles', i, 'solution'], message: 'study puzzles need a solution' });
    });
    cfg.practice_puzzles.forEach((p, i) => {
      if (!p.solution) ctx.addIssue({ code: 'custom', path: ['practice_puzzles', i, 'solution'], message: 'practice puzzles need a solution' });
    });
    if (cfg.completion.code_mode === 'study' && !cfg.completion.code)
      ctx.addIssue({ code: 'custom', path: ['completion', 'code'], message: "a study-wide code is required unless code_mode is 'per_participant'" });
    const all = [...cfg.puzzles, ...cfg.practice_puzzles].map((p) => p.id);
    const dup = all.find((id, i) => all.indexOf(id) !== i);
    if (dup) ctx.addIssue({ code: 'custom', path: ['puzzles'], message: `duplicate puzzle id '${dup}'` });
    if (cfg.languages) for (const p of languageProblems(cfg, cfg.languages)) ctx.addIssue({ code: 'custom', path: p.path, message: p.message });
  });
export type StudyConfig = z.infer<typeof StudyConfig>;
