// A hint's text as data: a message key of the hint catalogue and its arguments, some of which are phrases or lists
// themselves ("row 3, column 5", "2, 5 and 7"). The engines build phrases; whoever shows them renders them in a language.
import { formatMessage } from '../format.ts';
import { hintsEn } from './en.ts';
import type { HintMessageKey } from './en.ts';

/** An argument: text as it is (clues, digits), a number (positions, counts: Western digits), a phrase, or a list. */
export type PhraseArg = string | number | Phrase | PhraseList;
export interface PhraseList {
  list: PhraseArg[];
  /** How the items are joined: 'and' ("A, B and C", the default) or 'semicolon' ("A; B; C"). */
  join?: 'and' | 'semicolon';
}
export interface Phrase {
  key: HintMessageKey;
  args?: Record<string, PhraseArg>;
  /** Begins a sentence: its first letter in upper case. */
  cap?: boolean;
}

export const phrase = (key: HintMessageKey, args: Record<string, PhraseArg> = {}, cap = false): Phrase => (cap ? { key, args, cap } : { key, args });
export const listOf = (list: PhraseArg[], join: PhraseList['join'] = 'and'): PhraseList => ({ list, join });

/** The messages a phrase is rendered from (a language's hint catalogue, a study's overrides on top) and the number locale. */
export interface HintWords {
  messages: Record<string, string>;
  locale: string;
}

export const ENGLISH_HINT_WORDS: HintWords = { messages: hintsEn, locale: 'en' };

function renderArg(a: PhraseArg, words: HintWords): string | number {
  if (typeof a === 'string' || typeof a === 'number') return a;
  if ('key' in a) return renderPhrase(a, words);
  const items = a.list.map((x) => String(renderArg(x, words)));
  if (items.length <= 1) return items.join('');
  const say = (key: HintMessageKey, first: string, other: string) => formatMessage(words.messages[key] ?? hintsEn[key], { first, next: other, last: other }, words.locale);
  if (a.join === 'semicolon') return items.slice(1).reduce((acc, x) => say('hint.list.semicolon', acc, x), items[0]);
  const head = items.slice(1, -1).reduce((acc, x) => say('hint.list.comma', acc, x), items[0]);
  return say('hint.list.and', head, items[items.length - 1]);
}

/** A phrase in the words given (a message missing from them falls back to English). */
export function renderPhrase(p: Phrase, words: HintWords = ENGLISH_HINT_WORDS): string {
  const args: Record<string, string | number> = {};
  for (const [name, a] of Object.entries(p.args ?? {})) args[name] = renderArg(a, words);
  const text = formatMessage(words.messages[p.key] ?? hintsEn[p.key], args, words.locale);
  return p.cap && text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** Sentences, each a phrase, as one text (joined by a space). */
export const renderSentences = (ps: readonly Phrase[], words: HintWords = ENGLISH_HINT_WORDS): string => ps.map((p) => renderPhrase(p, words)).join(' ');
