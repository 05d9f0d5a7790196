// The participant page's words: the catalogue of the session's language (English bundled; others fetched on demand),
// with the study's own overrides on top, formatted by shared/i18n/format.ts.
import { en, type MessageKey, type Messages } from '../../shared/i18n/en.ts';
import { formatMessage, type MessageArgs } from '../../shared/i18n/format.ts';
import { directionOf, numberLocale } from '../../shared/i18n/languages.ts';

/** Each shipped language other than English is a chunk of its own, fetched only by a page that speaks it. */
const LOADERS: Record<string, () => Promise<Messages>> = {
  de: () => import('../../shared/i18n/de.ts').then((m) => m.de),
  ar: () => import('../../shared/i18n/ar.ts').then((m) => m.ar),
};

let messages: Record<string, string> = en;
let locale = 'en-u-nu-latn';
let language = 'en';

/** The message `key` in the page's language, its arguments filled in. */
export function t(key: MessageKey, args?: MessageArgs): string {
  return formatMessage(messages[key] ?? en[key], args, locale);
}

export const pageLanguage = (): string => language;

/** The catalogue of `lang` (a shipped one; any other reads as English under the study's overrides), or null if it cannot load. */
export async function catalogueOf(lang: string): Promise<Record<string, string> | null> {
  const load = LOADERS[lang];
  if (!load) return en;
  for (let delay = 500; delay <= 8_000; delay *= 2) {
    try {
      return await load();
    } catch {
      await new Promise((r) => setTimeout(r, delay));
    }
  }
  return null;
}

/**
 * Speak `lang` from now on: its catalogue (fetched if not English), the study's overrides on top, and the document's
 * lang and dir (right to left mirrors the page; boards keep their own direction in board.css).
 */
export async function setLanguage(lang: string, overrides: Record<string, string> = {}, nativeDigits = false): Promise<void> {
  const base = (await catalogueOf(lang)) ?? en;
  messages = { ...base, ...overrides };
  locale = numberLocale(lang, nativeDigits);
  language = lang;
  document.documentElement.lang = lang;
  document.documentElement.dir = directionOf(lang);
}

/** The language a link asks for (`?lang=de`), if any: the server decides whether the study offers it. */
export function linkLanguage(): string | undefined {
  const lang = typeof location === 'undefined' ? null : new URLSearchParams(location.search).get('lang');
  return lang && /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(lang) ? lang : undefined;
}
