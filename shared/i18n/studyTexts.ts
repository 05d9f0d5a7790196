// A study's own texts in its languages: where each config text sits (a path a translation names), what a declared
// language still lacks, and the study as the page of one language sees it.
/*
 * A config is written in its default language. Each other language it declares gives, under `languages.texts.<lang>`,
 * every text of the config by path, and the page's catalogue is the shipped one (shared/i18n/<lang>.ts) with the
 * study's `languages.messages.<lang>` on top (a language nonolab does not ship needs every key there). Paths:
 *   title                                      the study's title
 *   recruitment.closed_title|closed_message    the page a new visitor sees while recruitment is closed
 *   <phase>.title|text|agree_label|decline_label|decline_message|why_label
 *   <phase>.eligibility.message
 *   <phase>.rating.difficulty_label|guessing_label, <phase>.rating.difficulty_labels.<i>, <phase>.rating.guessing_options.<i>
 *   <phase>.<item>.label|min_label|max_label, <phase>.<item>.options.<i>
 * An option's translation is only what the page shows: the answer recorded is the option in the default language, so
 * every language's answers land in the same columns of the exports (and the server checks them against the config).
 */
import type { InputText, Phase, SurveyItem } from '../schema/phase.ts';
import { MESSAGE_KEYS, isMessageKey } from './keys.ts';
import { HINT_MESSAGE_KEYS, isHintMessageKey } from './hints/keys.ts';
import { SHIPPED_LANGUAGES } from './languages.ts';

export interface TextSlot {
  path: string;
  text: InputText;
  /** An answer option: translated on screen only (the recorded answer stays the default language's). */
  option?: boolean;
}

/** What a config says about its languages (the `languages` block, defaults filled in). */
export interface StudyLanguages {
  default: string;
  available: string[];
  native_digits: boolean;
  messages: Record<string, Record<string, string>>;
  texts: Record<string, Record<string, InputText>>;
}

interface TextsOf {
  title: string;
  phases: readonly Phase[];
  recruitment?: { closed_title: string; closed_message: string };
}

const isEmpty = (t: InputText | undefined): boolean => t === undefined || t === '';

function itemSlots(prefix: string, items: readonly SurveyItem[], out: TextSlot[]): void {
  for (const item of items) {
    out.push({ path: `${prefix}.${item.id}.label`, text: item.label });
    if (item.type === 'scale') {
      if (item.min_label) out.push({ path: `${prefix}.${item.id}.min_label`, text: item.min_label });
      if (item.max_label) out.push({ path: `${prefix}.${item.id}.max_label`, text: item.max_label });
    }
    if ('options' in item) item.options.forEach((o, i) => out.push({ path: `${prefix}.${item.id}.options.${i}`, text: o, option: true }));
  }
}

/** Every text of the config a participant can see, by its path. */
export function studyTexts(config: TextsOf): TextSlot[] {
  const out: TextSlot[] = [{ path: 'title', text: config.title }];
  if (config.recruitment) {
    out.push({ path: 'recruitment.closed_title', text: config.recruitment.closed_title }, { path: 'recruitment.closed_message', text: config.recruitment.closed_message });
  }
  for (const p of config.phases) {
    const at = (field: string, text: InputText | undefined) => {
      if (!isEmpty(text)) out.push({ path: `${p.id}.${field}`, text: text! });
    };
    at('title', p.title);
    at('text', p.text);
    if (p.kind === 'consent') {
      at('agree_label', p.agree_label);
      at('decline_label', p.decline_label);
      at('decline_message', p.decline_message);
    }
    if (p.kind === 'survey') {
      itemSlots(p.id, p.items, out);
      if (p.eligibility) at('eligibility.message', p.eligibility.message);
    }
    if (p.kind === 'post_survey') {
      at('why_label', p.why_label);
      itemSlots(p.id, p.items, out);
    }
    if (p.kind === 'puzzles') {
      at('rating.difficulty_label', p.rating.difficulty_label);
      p.rating.difficulty_labels.forEach((l, i) => at(`rating.difficulty_labels.${i}`, l));
      at('rating.guessing_label', p.rating.guessing_label);
      p.rating.guessing_options.forEach((o, i) => out.push({ path: `${p.id}.rating.guessing_options.${i}`, text: o, option: true }));
    }
  }
  return out;
}

/** A problem with a declared language: the config path at fault and what is wrong. */
export interface LanguageProblem {
  path: (string | number)[];
  message: string;
}

/**
 * Everything a declared language lacks or gets wrong: each config text without its translation, each catalogue
 * string neither shipped nor given by the study, and unknown paths or keys (a typo would otherwise never show).
 */
export function languageProblems(config: TextsOf, languages: StudyLanguages): LanguageProblem[] {
  const problems: LanguageProblem[] = [];
  if (!languages.available.includes(languages.default))
    problems.push({ path: ['languages', 'default'], message: `the default language '${languages.default}' is not among the available ones (${languages.available.join(', ')})` });
  const slots = studyTexts(config);
  const paths = new Set(slots.map((s) => s.path));
  for (const lang of Object.keys(languages.messages))
    if (!languages.available.includes(lang)) problems.push({ path: ['languages', 'messages', lang], message: `'${lang}' is not a declared language (${languages.available.join(', ')})` });
  for (const lang of Object.keys(languages.texts))
    if (!languages.available.includes(lang)) problems.push({ path: ['languages', 'texts', lang], message: `'${lang}' is not a declared language (${languages.available.join(', ')})` });
  for (const lang of languages.available) {
    const messages = languages.messages[lang] ?? {};
    // The page's catalogue and the hints' (shared/i18n/hints/: rendered on the server in the session's language).
    for (const key of Object.keys(messages)) if (!isMessageKey(key) && !isHintMessageKey(key)) problems.push({ path: ['languages', 'messages', lang, key], message: `no catalogue string '${key}'` });
    const shipped = (SHIPPED_LANGUAGES as readonly string[]).includes(lang);
    const missingKeys = shipped ? [] : [...MESSAGE_KEYS, ...HINT_MESSAGE_KEYS].filter((k) => messages[k] === undefined);
    if (missingKeys.length)
      problems.push({ path: ['languages', 'messages', lang], message: `nonolab ships no '${lang}' catalogue: ${missingKeys.length} strings missing: ${missingKeys.join(', ')}` });
    if (lang === languages.default) continue;
    const texts = languages.texts[lang] ?? {};
    for (const path of Object.keys(texts)) if (!paths.has(path)) problems.push({ path: ['languages', 'texts', lang, path], message: `the config has no text at '${path}'` });
    const missing = slots.filter((s) => texts[s.path] === undefined).map((s) => s.path);
    if (missing.length) problems.push({ path: ['languages', 'texts', lang], message: `${missing.length} texts of the study missing in '${lang}': ${missing.join(', ')}` });
  }
  return problems;
}

/** `phases` with every text (but the options) in `lang`, and the options' labels by path: what that language's page sees. */
export function phasesIn(phases: readonly Phase[], texts: Record<string, InputText>): { phases: Phase[]; options: Record<string, string> } {
  const options: Record<string, string> = {};
  const str = (path: string, fallback: string): string => {
    const t = texts[path];
    return typeof t === 'string' ? t : fallback;
  };
  const option = (path: string, canonical: string) => {
    if (typeof texts[path] === 'string') options[path] = texts[path];
    else void canonical;
  };
  const items = (prefix: string, list: SurveyItem[]): SurveyItem[] =>
    list.map((item) => {
      if ('options' in item) item.options.forEach((o, i) => option(`${prefix}.${item.id}.options.${i}`, o));
      const out = { ...item, label: str(`${prefix}.${item.id}.label`, item.label) };
      if (out.type === 'scale') {
        if (out.min_label) out.min_label = str(`${prefix}.${item.id}.min_label`, out.min_label);
        if (out.max_label) out.max_label = str(`${prefix}.${item.id}.max_label`, out.max_label);
      }
      return out;
    });
  const translated = phases.map((p): Phase => {
    const base = { ...p, title: str(`${p.id}.title`, p.title), text: texts[`${p.id}.text`] ?? p.text } as Phase;
    switch (base.kind) {
      case 'consent':
        return { ...base, agree_label: str(`${p.id}.agree_label`, base.agree_label), decline_label: str(`${p.id}.decline_label`, base.decline_label), decline_message: str(`${p.id}.decline_message`, base.decline_message) };
      case 'survey':
        return { ...base, items: items(p.id, base.items), ...(base.eligibility ? { eligibility: { ...base.eligibility, message: str(`${p.id}.eligibility.message`, base.eligibility.message) } } : {}) };
      case 'post_survey':
        return { ...base, why_label: str(`${p.id}.why_label`, base.why_label), items: items(p.id, base.items) };
      case 'puzzles':
        base.rating.guessing_options.forEach((o, i) => option(`${p.id}.rating.guessing_options.${i}`, o));
        return {
          ...base,
          rating: {
            ...base.rating,
            difficulty_label: str(`${p.id}.rating.difficulty_label`, base.rating.difficulty_label),
            difficulty_labels: base.rating.difficulty_labels.map((l, i) => str(`${p.id}.rating.difficulty_labels.${i}`, l)),
            guessing_label: str(`${p.id}.rating.guessing_label`, base.rating.guessing_label),
          },
        };
      default:
        return base;
    }
  });
  return { phases: translated, options };
}

/** The language a session speaks: the one its link asks for if the study declares it, else the study's default. */
export function sessionLanguage(languages: Pick<StudyLanguages, 'default' | 'available'> | undefined, requested: string | undefined): string {
  if (!languages) return 'en';
  return requested && languages.available.includes(requested) ? requested : languages.default;
}

/** A plain config text at `path` in `lang` (the default language's `fallback` where the study gives none). */
export function studyTextIn(languages: StudyLanguages | undefined, lang: string | undefined, path: string, fallback: string): string {
  if (!languages) return fallback;
  const text = languages.texts[sessionLanguage(languages, lang)]?.[path];
  return typeof text === 'string' ? text : fallback;
}
