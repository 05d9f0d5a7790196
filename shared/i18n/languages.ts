// The languages nonolab ships a participant catalogue for, and how each is written (direction, number locale).
export const SHIPPED_LANGUAGES = ['en', 'de', 'ar'] as const;
export type ShippedLanguage = (typeof SHIPPED_LANGUAGES)[number];

/** Written right to left: the page mirrors (dir="rtl"); boards keep their reading order. */
const RTL = new Set(['ar', 'he', 'fa', 'ur']);
export const directionOf = (lang: string): 'rtl' | 'ltr' => (RTL.has(lang.split('-')[0]) ? 'rtl' : 'ltr');

/**
 * The locale numbers are formatted in: the language's own, with Western digits unless the study asks for the
 * language's native digits (Arabic-Indic in Arabic). Board clues and codes never go through it: always Western.
 */
export const numberLocale = (lang: string, nativeDigits = false): string => `${lang}-u-nu-${nativeDigits ? (NATIVE_DIGITS[lang.split('-')[0]] ?? 'latn') : 'latn'}`;
const NATIVE_DIGITS: Record<string, string> = { ar: 'arab', fa: 'arabext' };
