// The study config's pure parts: its canonical text and hash (the `config_hash` every record carries) and the subset the browser may see.
import { isNonogramPuzzle, type StudyConfig } from '../schema/config.ts';
import type { ClientStudy } from '../schema/api.ts';
import { phasesIn, sessionLanguage } from '../i18n/studyTexts.ts';
import { isHintMessageKey } from '../i18n/hints/keys.ts';

/** A validated study config with its hash and the part sent to the browser. */
export interface LoadedStudy {
  config: StudyConfig;
  hash: string;
  client: ClientStudy;
}

/** Stable JSON: keys sorted, so the hash does not depend on formatting or key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/**
 * The config hash: the first 16 hex digits of the SHA-256 of the canonical JSON. The digest is passed in (shared/ does
 * no I/O and carries no crypto of its own; node/studyConfig.ts passes node:crypto's), as the clock and RNG are.
 */
export function configHash(config: StudyConfig, sha256Hex: (text: string) => string): string {
  return sha256Hex(canonicalJson(config)).slice(0, 16);
}

/**
 * What the browser may see of a study: the phases and each puzzle by its clues or givens (no solutions); the Sudoku
 * settings only in a study with Sudoku puzzles (a Nonogram study's payload is as it always was).
 */
export function clientStudy(config: StudyConfig, hash: string): ClientStudy {
  const all = [...config.puzzles, ...config.practice_puzzles];
  const study: ClientStudy = {
    id: config.id,
    title: config.title,
    config_hash: hash,
    phases: config.phases,
    puzzles: all.map((p) => {
      if (isNonogramPuzzle(p)) return { id: p.id, width: p.width, height: p.height, rows: p.rows, cols: p.cols };
      return { kind: p.kind, id: p.id, size: p.size, box: p.box, givens: p.givens };
    }),
    hint_policy: config.hints.policy,
  };
  if (!all.every(isNonogramPuzzle)) study.sudoku = { flag_conflicts: config.sudoku?.flag_conflicts ?? false };
  return study;
}

/** A validated config with its hash and client subset. */
export function loadedStudy(config: StudyConfig, sha256Hex: (text: string) => string): LoadedStudy {
  const hash = configHash(config, sha256Hex);
  return { config, hash, client: clientStudy(config, hash) };
}

const byLanguage = new WeakMap<LoadedStudy, Map<string, ClientStudy>>();

/**
 * What the browser of a session speaking `lang` sees: in a study without languages, `client` as it always was; else
 * the phases and title in that language, with the study's catalogue overrides and option labels for it (the other
 * languages' texts stay on the server, so a page's first load carries one language only).
 */
export function clientStudyIn(study: LoadedStudy, lang: string): ClientStudy {
  const languages = study.config.languages;
  if (!languages) return study.client;
  const spoken = sessionLanguage(languages, lang);
  // English as written, with nothing to override: the page needs nothing more (its first load is budgeted).
  if (spoken === 'en' && languages.default === 'en' && !languages.messages.en) return study.client;
  let cache = byLanguage.get(study);
  if (!cache) byLanguage.set(study, (cache = new Map()));
  let client = cache.get(spoken);
  if (!client) {
    const texts = spoken === languages.default ? {} : (languages.texts[spoken] ?? {});
    const { phases, options } = phasesIn(study.client.phases, texts);
    const title = texts.title;
    client = {
      ...study.client,
      title: typeof title === 'string' ? title : study.client.title,
      phases,
      // The page's strings only: the hints' (shared/i18n/hints/) are rendered on the server.
      language: { lang: spoken, native_digits: languages.native_digits, messages: Object.fromEntries(Object.entries(languages.messages[spoken] ?? {}).filter(([k]) => !isHintMessageKey(k))), options },
    };
    cache.set(spoken, client);
  }
  return client;
}
