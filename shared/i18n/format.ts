// A small ICU MessageFormat: the subset the participant's page needs, compiled once per message, in under 1 KB.
/*
 * Why not a library: intl-messageformat (with its parser) weighs about 15 KB gzipped, and the participant page's first
 * load sat at 119.3 KB of its 120 KB budget (tests/e2e/deploy.e2e.test.ts). What a catalogue needs is small, and the
 * browser already carries the locale data (Intl.PluralRules, Intl.NumberFormat), so this file is the parser and the
 * formatter, nothing more. It reads ICU MessageFormat 1 syntax, so catalogues stay portable to any ICU tool:
 *
 *   text            literal; an apostrophe quotes a following { } # (or itself: '' is one '), else it is literal
 *   {name}          the argument as text (a number in Western digits: the board's and the codes' numbers)
 *   {name, number}  the number as the locale writes it (Intl.NumberFormat of the locale given)
 *   {name, plural, =0 {…} one {…} other {…}}   exact values first, then the locale's plural category; # inside is
 *                   the number (locale-formatted)
 *   {name, select, a {…} b {…} other {…}}      by the argument's text
 *
 * Not supported (a catalogue test would catch their use): offset:, selectordinal, date/time skeletons.
 * A missing argument formats as its name in braces, so a gap shows rather than throwing on a participant's screen.
 * Pure: no clock, no I/O; Intl is a deterministic function of the locale.
 */

type Part = string | { arg: string; type?: 'number' | 'plural' | 'select'; cases?: Record<string, Part[]> };
export type MessageArgs = Record<string, string | number>;

/** Parse `text` from `i` up to an unmatched `}` (or the end); returns the parts and where it stopped. */
function parse(text: string, i: number, inPlural: boolean): [Part[], number] {
  const parts: Part[] = [];
  let lit = '';
  while (i < text.length) {
    const ch = text[i];
    if (ch === "'") {
      const next = text[i + 1];
      if (next === "'") {
        lit += "'";
        i += 2;
        continue;
      }
      if (next === '{' || next === '}' || (inPlural && next === '#')) {
        const end = text.indexOf("'", i + 1);
        lit += text.slice(i + 1, end < 0 ? text.length : end);
        i = end < 0 ? text.length : end + 1;
        continue;
      }
      lit += ch;
      i += 1;
    } else if (ch === '}') break;
    else if (ch === '#' && inPlural) {
      if (lit) parts.push(lit);
      lit = '';
      parts.push({ arg: '#' });
      i += 1;
    } else if (ch === '{') {
      if (lit) parts.push(lit);
      lit = '';
      const [part, end] = parseArg(text, i + 1);
      parts.push(part);
      i = end;
    } else {
      lit += ch;
      i += 1;
    }
  }
  if (lit) parts.push(lit);
  return [parts, i];
}

/** An argument after its `{`: name, optional type, and for plural/select its cases; returns where it ended (after `}`). */
function parseArg(text: string, i: number): [Part, number] {
  const close = /[,}]/g;
  close.lastIndex = i;
  const m = close.exec(text);
  if (!m) throw new Error(`unclosed argument in message: ${text}`);
  const arg = text.slice(i, m.index).trim();
  if (m[0] === '}') return [{ arg }, m.index + 1];
  const comma = text.indexOf(',', m.index + 1);
  const brace = text.indexOf('}', m.index + 1);
  const typeEnd = comma >= 0 && comma < brace ? comma : brace;
  const type = text.slice(m.index + 1, typeEnd).trim();
  if (type === 'number') return [{ arg, type }, brace + 1];
  if (type !== 'plural' && type !== 'select') throw new Error(`unsupported argument type '${type}' in message: ${text}`);
  const cases: Record<string, Part[]> = {};
  let j = typeEnd + 1;
  for (;;) {
    while (/\s/.test(text[j] ?? '')) j += 1;
    if (text[j] === '}') return [{ arg, type, cases }, j + 1];
    const open = text.indexOf('{', j);
    if (open < 0) throw new Error(`unclosed ${type} in message: ${text}`);
    const [body, end] = parse(text, open + 1, type === 'plural');
    cases[text.slice(j, open).trim()] = body;
    j = end + 1;
  }
}

const compiled = new Map<string, Part[]>();
/** The message's parsed form (cached: each catalogue string is parsed once). */
export function compile(message: string): Part[] {
  let parts = compiled.get(message);
  if (!parts) compiled.set(message, (parts = parse(message, 0, false)[0]));
  return parts;
}

function render(parts: Part[], args: MessageArgs, locale: string, hash: number | null): string {
  let out = '';
  for (const p of parts) {
    if (typeof p === 'string') out += p;
    else if (p.arg === '#') out += hash === null ? '#' : new Intl.NumberFormat(locale).format(hash);
    else {
      const v = args[p.arg];
      if (v === undefined) out += `{${p.arg}}`;
      else if (p.type === 'number') out += new Intl.NumberFormat(locale).format(Number(v));
      else if (p.type === 'plural') {
        const n = Number(v);
        const cases = p.cases!;
        out += render(cases[`=${n}`] ?? cases[new Intl.PluralRules(locale).select(n)] ?? cases.other ?? [], args, locale, n);
      } else if (p.type === 'select') out += render(p.cases![String(v)] ?? p.cases!.other ?? [], args, locale, hash);
      else out += String(v);
    }
  }
  return out;
}

/** `message` with its arguments filled in, numbers and plurals as `locale` writes them. */
export function formatMessage(message: string, args: MessageArgs = {}, locale = 'en'): string {
  return render(compile(message), args, locale, null);
}

/** Every argument a message uses, by name, sorted: what the catalogue test compares between languages. */
export function placeholders(message: string): string[] {
  const found = new Set<string>();
  const walk = (parts: Part[]) => {
    for (const p of parts) {
      if (typeof p === 'string' || p.arg === '#') continue;
      found.add(p.arg);
      for (const c of Object.values(p.cases ?? {})) walk(c);
    }
  };
  walk(compile(message));
  return [...found].sort();
}
