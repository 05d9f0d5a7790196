// The phases of a study and their parameters (texts, survey items, policies): the part of the study config the
// participant's page needs, kept apart from the puzzles' schemas so the page's first load does not carry them.
import { z } from 'zod';
import { strictObject } from './strict.ts';
import { MAX_ANSWER_TEXT, MAX_CHOICES, MAX_GUESSING_TEXT, MAX_OPTION_TEXT } from './event.ts';

export const Id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'ids use letters, digits, _ and -');
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


/** Format zod issues as "field.path: message" lines, for errors that name the field. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string; code?: string }[]): string {
  // An unknown key at the root says "at top level" itself (strict.ts).
  return issues.map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.code === 'unrecognized_keys' ? i.message : `(root): ${i.message}`)).join('\n');
}
