// Every shipped catalogue by language, for the server and the tests (the page fetches one language on demand; the
// config check needs only which languages are shipped, shared/i18n/languages.ts, as each has every key).
import { en, type Messages } from './en.ts';
import { de } from './de.ts';
import { ar } from './ar.ts';

export const CATALOGUES: Record<string, Messages> = { en, de, ar };
export { MESSAGE_KEYS } from './en.ts';
