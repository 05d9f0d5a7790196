// Every shipped catalogue by language, for the server and the config check (the page loads one language on demand).
import { en, type MessageKey, type Messages } from './en.ts';
import { de } from './de.ts';
import { ar } from './ar.ts';

export const CATALOGUES: Record<string, Messages> = { en, de, ar };
export const MESSAGE_KEYS = Object.keys(en) as MessageKey[];
export const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(en, key);
