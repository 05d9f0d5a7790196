// A small parser for mixed-model formulas in R's notation: `y ~ a * b + c + a:c - 1 + (1|g1) + (1|g2)`.
//
// Supported: one response name; fixed terms built from variable names with `+`, `*` (a*b = a + b +
// a:b), `:` (interaction, binds tighter than `*`), parentheses, `1`/`0`/`-1` for the intercept;
// random intercepts `(1 | g)`. As in R, the fixed terms are ordered by degree (main effects, then
// two-way interactions, ...) and, within a degree, by first appearance; the variables inside an
// interaction keep the order in which they first appear in the formula, so the names come out as
// R writes them (`conflicts:expertise`). Not supported: random slopes (`(x | g)`), nested `/`,
// `%in%`, `^`, function calls such as log(x) (make a column instead), and `.`.

export interface ParsedFormula {
  response: string;
  intercept: boolean;
  /** Fixed-effect terms; each is a list of variable names (length 1 = main effect). */
  terms: string[][];
  /** Grouping factors of the random intercepts, in formula order. */
  random: string[];
}

type Token = { kind: 'name' | 'num' | 'op'; text: string; pos: number };

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i];
    if (/\s/.test(ch)) { i++; continue; }
    if ('+-*:()|~'.includes(ch)) { tokens.push({ kind: 'op', text: ch, pos: i }); i++; continue; }
    if (ch === '`') {
      const end = src.indexOf('`', i + 1);
      if (end < 0) throw new Error(`formula: unclosed backquote at ${i}`);
      tokens.push({ kind: 'name', text: src.slice(i + 1, end), pos: i }); i = end + 1; continue;
    }
    const m = /^[A-Za-z._][A-Za-z0-9._]*/.exec(src.slice(i)) ?? /^[0-9]+(\.[0-9]*)?/.exec(src.slice(i));
    if (!m) throw new Error(`formula: unexpected character '${ch}' at position ${i} in "${src}"`);
    tokens.push({ kind: /^[0-9]/.test(m[0]) ? 'num' : 'name', text: m[0], pos: i });
    i += m[0].length;
  }
  return tokens;
}

/** A set of terms; a term is a set of variables, kept as a sorted key for identity. */
type TermSet = Map<string, string[]>;

export function parseFormula(formula: string): ParsedFormula {
  const tokens = tokenize(formula);
  const tilde = tokens.findIndex((t) => t.text === '~');
  if (tilde !== 1 || tokens[0].kind !== 'name') throw new Error(`formula: expected "response ~ terms", got "${formula}"`);
  const response = tokens[0].text;
  const order: string[] = [];
  const note = (v: string) => { if (!order.includes(v)) order.push(v); };
  let pos = tilde + 1;
  let intercept = true;
  const random: string[] = [];
  const peek = () => tokens[pos];
  const fail = (msg: string): never => {
    const t = tokens[pos];
    throw new Error(`formula: ${msg} at ${t ? `'${t.text}' (position ${t.pos})` : 'the end'} in "${formula}"`);
  };
  const keyOf = (vars: string[]) => [...vars].sort().join('\u0000');
  const single = (vars: string[]): TermSet => new Map([[keyOf(vars), vars]]);
  const union = (a: TermSet, b: TermSet): TermSet => new Map([...a, ...b]);
  const cross = (a: TermSet, b: TermSet): TermSet => {
    const out: TermSet = new Map();
    for (const x of a.values()) for (const y of b.values()) {
      const vars = [...new Set([...x, ...y])];
      out.set(keyOf(vars), vars);
    }
    return out;
  };

  function expr(): TermSet {
    let acc: TermSet = new Map();
    let sign = 1;
    if (peek()?.text === '-') { sign = -1; pos++; }
    for (;;) {
      const t = peek();
      if (t && (t.kind === 'num')) {
        if (t.text !== '0' && t.text !== '1') fail('only 0 and 1 may appear as numbers');
        intercept = (t.text === '1') === (sign === 1);
        pos++;
      } else {
        const part = product();
        if (sign === 1) acc = union(acc, part); else for (const k of part.keys()) acc.delete(k);
      }
      const op = peek();
      if (!op || (op.text !== '+' && op.text !== '-')) break;
      sign = op.text === '+' ? 1 : -1;
      pos++;
    }
    return acc;
  }
  function product(): TermSet {
    let acc = interaction();
    while (peek()?.text === '*') {
      pos++;
      const rhs = interaction();
      acc = union(union(acc, rhs), cross(acc, rhs));
    }
    return acc;
  }
  function interaction(): TermSet {
    let acc = atom();
    while (peek()?.text === ':') { pos++; acc = cross(acc, atom()); }
    return acc;
  }
  function atom(): TermSet {
    const t = peek();
    if (!t) return fail('expected a term');
    if (t.kind === 'name') { pos++; note(t.text); return single([t.text]); }
    if (t.text === '(') {
      const bar = tokens.slice(pos).findIndex((x) => x.text === '|');
      const close = tokens.slice(pos).findIndex((x) => x.text === ')');
      if (bar >= 0 && close >= 0 && bar < close) {
        const inner = tokens.slice(pos + 1, pos + bar).map((x) => x.text).join(' ');
        const group = tokens.slice(pos + bar + 1, pos + close);
        if (inner !== '1') fail(`only random intercepts (1 | group) are supported, not (${inner} | ...)`);
        if (group.length !== 1 || group[0].kind !== 'name') fail('a random term needs one grouping variable: (1 | group)');
        random.push(group[0].text);
        pos += close + 1;
        return new Map();
      }
      pos++;
      const inner = expr();
      if (peek()?.text !== ')') fail("expected ')'");
      pos++;
      return inner;
    }
    return fail('expected a variable name');
  }
  const set = expr();
  if (pos !== tokens.length) fail('unexpected token');
  const terms = [...set.values()]
    .map((vars) => [...vars].sort((a, b) => order.indexOf(a) - order.indexOf(b)))
    .map((vars, i) => ({ vars, i }))
    .sort((a, b) => a.vars.length - b.vars.length || a.i - b.i)
    .map((x) => x.vars);
  return { response, intercept, terms, random };
}
