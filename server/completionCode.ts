// Per-participant completion codes: crypto-random, easy to read back and type (Crockford's base32: no I, L, O, U).
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * `prefix` + 12 characters in three groups of four (e.g. `NONO-7KQ2-M9XD-4TFA`): 60 bits from the system's CSPRNG,
 * so guessing one valid code among a study's few thousand takes around 2^48 tries. Each byte gives one character
 * (byte & 31: 256 is a multiple of 32, so no bias).
 */
export function newCompletionCode(prefix = ''): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => ALPHABET[b & 31]);
  const body = [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8, 12)].map((g) => g.join('')).join('-');
  return prefix ? `${prefix.replace(/-+$/, '')}-${body}` : body;
}

/** Whether `text` has the shape of a per-participant code (for lookups: forgiving of case and spaces). */
export function normaliseCode(text: string): string {
  return text.trim().toUpperCase().replace(/\s+/g, '');
}
