// A small ICU MessageFormat: the subset the participant's page needs, parsed once per message, in about 400 bytes.
/*
 * Why not a library: intl-messageformat (with its parser) weighs about 15 KB gzipped, and the participant page's first
 * load sat at 119.3 KB of its 120 KB budget (tests/e2e/deploy.e2e.test.ts). What a catalogue needs is small, and the
 * browser already carries the locale data (Intl.PluralRules, Intl.NumberFormat), so this file is the parser and the
 * formatter, nothing more. It reads ICU MessageFormat 1 syntax, so catalogues stay portable to any ICU tool:
 *
 *   text            literal; '' is one apostrophe, and an apostrophe before { } or # quotes up to the next one
 *   {name}          the argument as text (a number in Western digits: the board's and the codes' numbers)
 *   {name, number}  the number as the locale writes it (Intl.NumberFormat of the locale given)
 *   {name, plural, =0 {…} one {…} other {…}}   exact values first, then the locale's plural category; # inside is
 *                   the number (locale-formatted)
 *   {name, select, a {…} b {…} other {…}}      by the argument's text
 *
 * Not supported, and refused when parsed (catalogue.test.ts parses every message): offset:, selectordinal, date, time.
 * A missing argument formats as its name in braces, so a gap shows rather than throwing on a participant's screen.
 * Pure: no clock, no I/O; Intl is a deterministic function of the locale.
 */

/** A literal, or an argument: [name, type, cases by selector]; '#' is a plural's number. */
type Part = string | [string, string?, Record<string, Part[]>?];
export type MessageArgs = Record<string, string | number>;

const HEAD = /\s*(\w+)\s*(?:,\s*(\w+)\s*)?([,}])/y;
const CASE = /\s*([^\s{}]+)\s*\{|\s*\}/y;

/** The parts of `s` from `at.i` up to an unmatched `}` (or the end), which it consumes. */
function parse(s: string, at: { i: number }, plural?: boolean): Part[] {
  const parts: Part[] = [];
  let lit = '';
  for (let c; (c = s[at.i++]) !== undefined && c !== '}'; ) {
    if (c === "'" && /['{}#]/.test(s[at.i] ?? '')) {
      const end = s[at.i] === "'" ? at.i : s.indexOf("'", at.i);
      lit += end === at.i ? "'" : s.slice(at.i, end < 0 ? undefined : end);
      at.i = end < 0 ? s.length : end + 1;
    } else if (c === '#' && plural) {
      parts.push(lit, ['#']);
      lit = '';
    } else if (c === '{') {
      HEAD.lastIndex = at.i;
      const m = HEAD.exec(s);
      if (!m || (m[2] && !/^(number|plural|select)$/.test(m[2])) || (m[3] === ',') !== /^(plural|select)$/.test(m[2] ?? '')) throw new Error(`unsupported or broken argument at ${at.i} in: ${s}`);
      at.i = HEAD.lastIndex;
      const cases: Record<string, Part[]> = {};
      if (m[3] === ',')
        for (;;) {
          CASE.lastIndex = at.i;
          const k = CASE.exec(s);
          if (!k) throw new Error(`broken ${m[2]} at ${at.i} in: ${s}`);
          at.i = CASE.lastIndex;
          if (!k[1]) break;
          cases[k[1]] = parse(s, at, m[2] === 'plural');
        }
      parts.push(lit, [m[1], m[2], cases]);
      lit = '';
    } else lit += c;
  }
  parts.push(lit);
  return parts;
}

const compiled = new Map<string, Part[]>();
const parsed = (message: string): Part[] => {
  let parts = compiled.get(message);
  if (!parts) compiled.set(message, (parts = parse(message, { i: 0 })));
  return parts;
};

function render(parts: Part[], args: MessageArgs, locale: string, hash?: number): string {
  let out = '';
  for (const p of parts) {
    if (typeof p === 'string') out += p;
    else {
      const [name, type, cases = {}] = p;
      const v = name === '#' ? hash : args[name];
      const n = Number(v);
      out +=
        v === undefined
          ? `{${name}}`
          : type === 'plural'
            ? render(cases[`=${n}`] ?? cases[new Intl.PluralRules(locale).select(n)] ?? cases.other ?? [], args, locale, n)
            : type === 'select'
              ? render(cases[v] ?? cases.other ?? [], args, locale, hash)
              : type || name === '#'
                ? new Intl.NumberFormat(locale).format(n)
                : String(v);
    }
  }
  return out;
}

/** `message` with its arguments filled in, numbers and plurals as `locale` writes them. */
export function formatMessage(message: string, args: MessageArgs = {}, locale = 'en'): string {
  return render(parsed(message), args, locale);
}

/** Every argument a message uses, by name, sorted: what the catalogue test compares between languages. */
export function placeholders(message: string): string[] {
  const found = new Set<string>();
  const walk = (parts: Part[]) => {
    for (const p of parts)
      if (typeof p !== 'string' && p[0] !== '#') {
        found.add(p[0]);
        Object.values(p[2] ?? {}).forEach(walk);
      }
  };
  walk(parsed(message));
  return [...found].sort();
}

// How a language is written, for the page that fetched this formatter with a language's words (one chunk, not the first load).
export { directionOf, numberLocale } from './languages.ts';
