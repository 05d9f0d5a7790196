// The participant page's words: the catalogue of the session's language, the study's overrides on top. The first load
// carries only the first screens' English words and a placeholder filler; the steps' English words, every other
// language (one chunk each) and the ICU formatter (shared/i18n/format.ts) are fetched when needed.
import { use } from 'react';
import type { MessageKey } from '../../shared/i18n/en.ts';
import { enPage } from '../../shared/i18n/en.page.ts';
import type { MessageArgs } from '../../shared/i18n/format.ts';
import { fill } from '../../shared/i18n/fill.ts';

const english: Record<string, string> = { ...enPage };
let messages = english;
let locale = 'en';
let language = 'en';
/** Plain placeholders (fill.ts) while the page has only its first screens' English words, which use nothing else (catalogue.test.ts). */
let format: (message: string, args: MessageArgs | undefined, locale: string) => string = fill;
let steps: Promise<unknown> | null = null;

/** The message `key` in the page's language, its arguments filled in ('' for a step's word not fetched yet: see useStepWords). */
export function t(key: MessageKey, args?: MessageArgs): string {
  const message = messages[key] ?? english[key];
  return message === undefined ? '' : format(message, args, locale);
}

/** Fetch `words` with the formatter (each tried again until it comes, as the board's chunk is). */
async function withFormatter<T>(words: () => Promise<T>): Promise<T> {
  for (;;)
    try {
      const [loaded, formatter] = await Promise.all([words(), import('../../shared/i18n/format.ts')]);
      format = formatter.formatMessage;
      return loaded;
    } catch {
      await new Promise((r) => setTimeout(r, 1_000));
    }
}

/** The English words of the steps after consent (shared/i18n/en.steps.ts): fetched with the board's chunk, or by useStepWords. */
export function loadStepWords(): Promise<unknown> {
  return (steps ??= withFormatter(() => import('../../shared/i18n/en.steps.ts')).then((m) => Object.assign(english, m.enSteps)));
}

/** A screen past consent suspends (App's Suspense) until the steps' words are there: at once in another language, whose catalogue has them all. */
export function useStepWords(needed: boolean): void {
  if (needed && english['board.submit'] === undefined && messages === english) use(loadStepWords());
}

/** The catalogue of `lang`: a shipped one, or English for any other (the study then gives every string, validate-config checks). */
export function catalogueOf(lang: string): Promise<Record<string, string>> {
  return lang === 'de'
    ? withFormatter(() => import('../../shared/i18n/de.ts')).then((m) => m.de)
    : lang === 'ar'
      ? withFormatter(() => import('../../shared/i18n/ar.ts')).then((m) => m.ar)
      : Promise.resolve(english);
}

/**
 * Speak `lang` from now on: its catalogue, the study's overrides on top, numbers in its locale (Western digits unless
 * the study asks for native ones), and the document's lang and dir (right to left mirrors the page; boards keep
 * their reading order: board.css).
 */
export async function setLanguage(lang: string, overrides: Record<string, string> = {}, nativeDigits = false): Promise<void> {
  if (lang === 'en' && Object.keys(overrides).length === 0) return;
  const [base, languages] = await Promise.all([catalogueOf(lang), withFormatter(() => import('../../shared/i18n/format.ts'))]);
  messages = { ...base, ...overrides };
  locale = languages.numberLocale(lang, nativeDigits);
  language = lang;
  document.documentElement.lang = lang;
  document.documentElement.dir = languages.directionOf(lang);
}

export const pageLanguage = (): string => language;

/** The language a link asks for (`?lang=de`), if any: the server decides whether the study offers it. */
export const linkLanguage = (): string | undefined => new URLSearchParams(location.search).get('lang') ?? undefined;
