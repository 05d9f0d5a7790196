// The study configuration: phases and their parameters, puzzles, survey items, timings, policies.
// Every object is strict: a misspelt key is an error naming the nearest known one (strict.ts), never silently dropped.
import { z } from 'zod';
import { PuzzleFields, checkPuzzle, solutionContradiction } from './puzzle.ts';
import { strictObject } from './strict.ts';
import { MAX_ANSWER_TEXT, MAX_CHOICES, MAX_GUESSING_TEXT, MAX_OPTION_TEXT } from './event.ts';

const Id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'ids use letters, digits, _ and -');
const Text = z.string().max(20_000);

/** The kinds of input a participant's device offers: a mouse or trackpad, a touch screen, a keyboard alone. */
export const InputKind = z.enum(['pointer', 'touch', 'keyboard']);
export type InputKind = z.infer<typeof InputKind>;

/**
 * A text shown to participants: a plain string, or variants per input kind with an optional `default` for the kinds
 * not given (at least one entry). The screen shows the variant of the input in use (shared/study/inputText.ts).
 */
export const InputText = z.union([
  Text,
  strictObject({ default: Text.optional(), pointer: Text.optional(), touch: Text.optional(), keyboard: Text.optional() }).refine((t) => Object.values(t).some((v) => v !== undefined), 'give at least one of default, pointer, touch, keyboard'),
]);
export type InputText = z.infer<typeof InputText>;

const ItemBase = { id: Id, label: z.string().min(1).max(2_000), required: z.boolean().default(true) };
/** An option a participant can choose: its text is what the answer event carries (bounded as there). */
const Option = z.string().min(1).max(MAX_OPTION_TEXT);

export const SurveyItem = z.discriminatedUnion('type', [
  strictObject({ ...ItemBase, type: z.literal('likert'), options: z.array(Option).min(2).max(11) }),
  strictObject({
    ...ItemBase,
    type: z.literal('scale'),
    min: z.number().int(),
    max: z.number().int(),
    min_label: z.string().optional(),
    max_label: z.string().optional(),
  }),
  strictObject({ ...ItemBase, type: z.literal('single'), options: z.array(Option).min(2).max(30) }),
  strictObject({ ...ItemBase, type: z.literal('multi'), options: z.array(Option).min(1).max(Math.min(30, MAX_CHOICES)) }),
  strictObject({ ...ItemBase, type: z.literal('number'), min: z.number().optional(), max: z.number().optional(), integer: z.boolean().default(true) }),
  strictObject({ ...ItemBase, type: z.literal('text'), multiline: z.boolean().default(false), max_length: z.number().int().positive().max(MAX_ANSWER_TEXT).default(5_000) }),
]);
export type SurveyItem = z.infer<typeof SurveyItem>;

export const ConsentPhase = strictObject({
  kind: z.literal('consent'),
  id: Id,
  title: z.string(),
  text: InputText,
  agree_label: z.string().default('I agree to take part'),
  decline_label: z.string().default('I do not agree'),
  decline_message: z.string().default('Thank you for your time. You may close this page.'),
});
export const TutorialPhase = strictObject({
  kind: z.literal('tutorial'),
  id: Id,
  title: z.string(),
  text: InputText,
  puzzle: Id,
  video_url: z.string().url().optional(),
});
export const WarmupPhase = strictObject({
  kind: z.literal('warmup'),
  id: Id,
  title: z.string(),
  text: InputText,
  puzzle: Id,
  cap_seconds: z.number().int().positive().max(3_600),
});
/** Eligibility screening on a survey: each named item's answer must be one of its accepted values (see shared/study/eligibility.ts). */
export const Eligibility = strictObject({
  criteria: z.record(Id, z.array(z.union([z.string(), z.number()])).min(1)),
  message: z.string().max(2_000).default('Thank you for your interest. Unfortunately this study is looking for a different group of participants, so it ends here.'),
});
export type Eligibility = z.infer<typeof Eligibility>;
export const SurveyPhase = strictObject({
  kind: z.literal('survey'),
  id: Id,
  title: z.string(),
  text: InputText.default(''),
  items: z.array(SurveyItem).min(1),
  /** Optional screening: a participant whose answers fail it ends the study here (step_end reason 'screened_out'). */
  eligibility: Eligibility.optional(),
});
export const PuzzlesPhase = strictObject({
  kind: z.literal('puzzles'),
  id: Id,
  title: z.string(),
  text: InputText.default(''),
  count: z.number().int().min(1).max(20),
  skip_min_seconds: z.number().nonnegative().default(0),
  time_limit_seconds: z.number().int().positive().optional(),
  rating: strictObject({
    difficulty_label: z.string(),
    difficulty_labels: z.array(z.string()).length(5),
    guessing_label: z.string(),
    guessing_options: z.array(z.string().min(1).max(MAX_GUESSING_TEXT)).min(2),
  }),
});
export const PostSurveyPhase = strictObject({
  kind: z.literal('post_survey'),
  id: Id,
  title: z.string(),
  text: InputText.default(''),
  why_label: z.string(),
  items: z.array(SurveyItem),
});
export const CompletePhase = strictObject({ kind: z.literal('complete'), id: Id, title: z.string(), text: InputText });

export const Phase = z.discriminatedUnion('kind', [ConsentPhase, TutorialPhase, WarmupPhase, SurveyPhase, PuzzlesPhase, PostSurveyPhase, CompletePhase]);
export type Phase = z.infer<typeof Phase>;
export type PhaseKind = Phase['kind'];

export const HintPolicy = z.enum(['explain-and-reveal', 'reveal-only', 'off']);
export type HintPolicy = z.infer<typeof HintPolicy>;

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
 * A study or practice puzzle as a config holds it: a puzzle record with no unknown keys, whose solution (when given;
 * the config requires it) reads as its own clues in every row and column.
 */
export const StudyPuzzle = strictObject(PuzzleFields)
  .superRefine(checkPuzzle)
  .superRefine((p, ctx) => {
    if (!p.solution || p.solution.length !== p.height || p.solution.some((row) => row.length !== p.width)) return; // checkPuzzle names the size
    const wrong = solutionContradiction({ rows: p.rows, cols: p.cols, solution: p.solution });
    if (wrong) ctx.addIssue({ code: 'custom', path: wrong.path, message: `${wrong.message}: the solution contradicts the clues` });
  });
export type StudyPuzzle = z.infer<typeof StudyPuzzle>;

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
  });
export type StudyConfig = z.infer<typeof StudyConfig>;

/** Format zod issues as "field.path: message" lines, for errors that name the field. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string; code?: string }[]): string {
  // An unknown key at the root says "at top level" itself (strict.ts).
  return issues.map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.code === 'unrecognized_keys' ? i.message : `(root): ${i.message}`)).join('\n');
}
