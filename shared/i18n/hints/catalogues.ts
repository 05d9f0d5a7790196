// The hints' words by language, for the server (which renders every hint in its session's language) and the tests.
// The participant page never imports this: its hints arrive rendered (server/puzzleHints.ts).
import { numberLocale } from '../languages.ts';
import { hintsEn } from './en.ts';
import { HINT_MESSAGE_KEYS, isHintMessageKey } from './keys.ts';
import type { HintMessages } from './en.ts';
import { hintsDe } from './de.ts';
import { hintsAr } from './ar.ts';
import type { HintWords } from './phrase.ts';

export const HINT_CATALOGUES: Record<string, HintMessages> = { en: hintsEn, de: hintsDe, ar: hintsAr };
export { HINT_MESSAGE_KEYS, isHintMessageKey };

/**
 * The words hints are rendered in for a session speaking `lang`: the shipped hint catalogue of that language (English
 * for one nonolab does not ship), the study's `languages.messages.<lang>` hint keys on top. Numbers (positions,
 * clues, counts) in Western digits always, as on the board.
 */
export function hintWords(lang: string, overrides: Record<string, string> = {}): HintWords {
  const own = Object.fromEntries(Object.entries(overrides).filter(([k]) => isHintMessageKey(k)));
  return { messages: { ...(HINT_CATALOGUES[lang] ?? hintsEn), ...own }, locale: numberLocale(lang, false) };
}
