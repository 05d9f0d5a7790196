// The solver's unit propagation as a WebAssembly function, assembled here byte by byte (no toolchain, no file).
/*
 * Why WebAssembly. The JavaScript propagate loop did the same work as MiniSat's C++ but paid some
 * five extra instructions per array access: TurboFan re-checks each typed array's map and reloads its
 * length and data pointer at nearly every access inside the loops (see solver.ts's essay). A wasm
 * function addresses one linear memory through a base register with no bounds checks (guard pages),
 * so its inner loop is close to what a C compiler emits. The solver keeps the arrays propagate touches
 * (values, trail, levels, reasons, watch-list offsets/lengths/capacities, the clause arena, the watch
 * pool) as views onto that memory; the JavaScript code reads and writes them as before.
 *
 * The function is solver.ts's `propagate` loop, statement for statement (same watcher order, same
 * in-place swap, same appends, same counters), so the search is unchanged. Memory layout (byte
 * offsets are parameters): values are bytes (1 true, -1 false, 0 unassigned) indexed by literal;
 * the other arrays are 32-bit; clause references are indices into the arena (header at cr, literals
 * from cr + 1); watch-list offsets are indices into the pool. Words 0..5 of the memory carry state in
 * and out: [0] qhead, [1] trail length, [2] propagations done, [3] pool top, [4] pool waste (in and
 * out), [5] pool capacity (in). A watch list that fills up moves to the pool's top with twice the room,
 * as in solver.ts; when the pool itself is full the function stops before touching that watcher,
 * leaves the list being walked whole and the literal back on the queue, and returns -2: the caller
 * enlarges the memory and calls again. Walking that literal's list again is idempotent (every
 * watcher already handled has a true blocker or has moved away), so the search is the same.
 */

const I32 = 0x7f;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}
const str = (s: string) => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];

/** A tiny structured assembler: named labels, so branch depths are computed, not counted by hand. */
class Asm {
  code: number[] = [];
  private labels: (string | null)[] = [];
  private emit(...b: number[]): this {
    for (const x of b) this.code.push(x);
    return this;
  }
  get(l: number) { return this.emit(0x20, ...uleb(l)); }
  set(l: number) { return this.emit(0x21, ...uleb(l)); }
  tee(l: number) { return this.emit(0x22, ...uleb(l)); }
  c(n: number) { return this.emit(0x41, ...sleb(n)); }
  load(offset = 0) { return this.emit(0x28, 2, ...uleb(offset)); }
  load8s() { return this.emit(0x2c, 0, 0); }
  store(offset = 0) { return this.emit(0x36, 2, ...uleb(offset)); }
  store8() { return this.emit(0x3a, 0, 0); }
  copy() { return this.emit(0xfc, 0x0a, 0, 0); }
  eq() { return this.emit(0x46); }
  ne() { return this.emit(0x47); }
  ltS() { return this.emit(0x48); }
  gtS() { return this.emit(0x4a); }
  geS() { return this.emit(0x4e); }
  geU() { return this.emit(0x4f); }
  add() { return this.emit(0x6a); }
  sub() { return this.emit(0x6b); }
  xor() { return this.emit(0x73); }
  shl() { return this.emit(0x74); }
  shrS() { return this.emit(0x75); }
  block(name: string | null = null) { this.labels.push(name); return this.emit(0x02, 0x40); }
  loop(name: string | null = null) { this.labels.push(name); return this.emit(0x03, 0x40); }
  if_() { this.labels.push(null); return this.emit(0x04, 0x40); }
  else_() { return this.emit(0x05); }
  end() { this.labels.pop(); return this.emit(0x0b); }
  private depth(name: string): number {
    const i = this.labels.lastIndexOf(name);
    if (i < 0) throw new Error(`no label ${name}`);
    return this.labels.length - 1 - i;
  }
  br(name: string) { return this.emit(0x0c, ...uleb(this.depth(name))); }
  brIf(name: string) { return this.emit(0x0d, ...uleb(this.depth(name))); }
  /** local += n */
  inc(l: number, n: number) { return this.get(l).c(n).add().set(l); }
  /** addr of a 32-bit element: base + (index << 2), with the index already on the stack */
  at32(base: number) { return this.c(2).shl().get(base).add(); }
}

// Parameters.
const QHEAD = 0, TRAILLEN = 1, DL = 2, VAL = 3, TRAIL = 4, LEVEL = 5, REASON = 6, CA = 7, WOFF = 8, WSLEN = 9, WCAP = 10, WP = 11;
const NPARAMS = 12;
// Locals.
let nl = NPARAMS;
const P = nl++, OFF = nl++, END = nl++, FALSELIT = nl++, I = nl++, J = nl++, BLOCKER = nl++, CR = nl++, BASE = nl++, FIRST = nl++,
  STOP = nl++, K = nl++, LK = nl++, Q = nl++, NQ = nl++, O = nl++, CONFL = nl++, NPROPS = nl++, TOP = nl++, WASTED = nl++, CAP = nl++,
  V = nl++, POOLLEN = nl++;
const NLOCALS = nl - NPARAMS;

function propagateBody(): number[] {
  const a = new Asm();
  a.c(-1).set(CONFL);
  a.c(0).load(12).set(TOP);
  a.c(0).load(16).set(WASTED);
  a.c(0).load(20).set(POOLLEN);
  a.block('done').loop('outer');
  {
    a.get(QHEAD).get(TRAILLEN).geS().brIf('done');
    a.get(QHEAD).at32(TRAIL).load().set(P);
    a.inc(QHEAD, 1);
    // off = wp + (wOff[p] << 2); i = j = off; end = off + (wsLen[p] << 3)
    a.get(P).at32(WOFF).load().c(2).shl().get(WP).add().tee(OFF).tee(I).set(J);
    a.get(OFF).get(P).at32(WSLEN).load().c(3).shl().add().set(END);
    a.get(P).c(1).xor().set(FALSELIT);
    a.inc(NPROPS, 1);
    a.block('listdone').loop('watch');
    {
      a.get(I).get(END).geU().brIf('listdone');
      a.get(I).load(4).set(BLOCKER);
      // blocker true: keep the watcher
      a.get(VAL).get(BLOCKER).add().load8s().c(1).eq().if_();
      {
        a.get(I).get(J).ne().if_();
        a.get(J).get(I).load().store();
        a.get(J).get(BLOCKER).store(4);
        a.end();
        a.inc(I, 8).inc(J, 8).br('watch');
      }
      a.end();
      a.get(I).load().set(CR);
      a.get(CR).at32(CA).c(4).add().set(BASE);
      a.get(BASE).load().set(FIRST);
      a.get(FIRST).get(FALSELIT).eq().if_();
      {
        a.get(BASE).load(4).set(FIRST);
        a.get(BASE).get(FIRST).store();
        a.get(BASE).get(FALSELIT).store(4);
      }
      a.end();
      a.inc(I, 8);
      // first != blocker && val[first] == 1: keep with first as blocker
      a.get(FIRST).get(BLOCKER).ne().if_();
      {
        a.get(VAL).get(FIRST).add().load8s().c(1).eq().if_();
        a.get(J).get(CR).store();
        a.get(J).get(FIRST).store(4);
        a.inc(J, 8).br('watch');
        a.end();
      }
      a.end();
      // look for a new literal to watch
      a.get(BASE).get(BASE).c(-4).add().load().c(3).shrS().c(2).shl().add().set(STOP);
      a.get(BASE).c(8).add().set(K);
      a.block('nofound').loop('scan');
      {
        a.get(K).get(STOP).geU().brIf('nofound');
        a.get(K).load().set(LK);
        a.get(VAL).get(LK).add().load8s().c(-1).ne().if_();
        {
          a.get(LK).c(1).xor().set(Q);
          a.get(Q).at32(WSLEN).load().c(1).shl().set(NQ);
          a.get(NQ).c(2).add().get(Q).at32(WCAP).load().gtS().if_();
          {
            // the list of q is full: move it to the pool's top with twice the room
            a.get(Q).at32(WCAP).load().c(1).shl().set(CAP);
            a.get(CAP).c(8).ltS().if_().c(8).set(CAP).end();
            a.get(TOP).get(CAP).add().get(POOLLEN).gtS().if_();
            {
              // no room: keep this watcher and the rest, put p back on the queue, ask for memory
              a.get(J).get(CR).store();
              a.get(J).get(BLOCKER).store(4);
              a.inc(J, 8);
              a.get(J).get(I).get(END).get(I).sub().copy();
              a.get(J).get(END).get(I).sub().add().set(J);
              a.get(P).at32(WSLEN).get(J).get(OFF).sub().c(3).shrS().store();
              a.inc(QHEAD, -1).inc(NPROPS, -1);
              a.c(-2).set(CONFL).br('done');
            }
            a.end();
            a.get(TOP).c(2).shl().get(WP).add();
            a.get(Q).at32(WOFF).load().c(2).shl().get(WP).add();
            a.get(NQ).c(2).shl().copy();
            a.get(WASTED).get(Q).at32(WCAP).load().add().set(WASTED);
            a.get(Q).at32(WOFF).get(TOP).store();
            a.get(Q).at32(WCAP).get(CAP).store();
            a.get(TOP).get(CAP).add().set(TOP);
          }
          a.end();
          a.get(BASE).get(LK).store(4);
          a.get(K).get(FALSELIT).store();
          a.get(Q).at32(WOFF).load().get(NQ).add().at32(WP).set(O);
          a.get(O).get(CR).store();
          a.get(O).get(FIRST).store(4);
          a.get(Q).at32(WSLEN).get(Q).at32(WSLEN).load().c(1).add().store();
          a.br('watch');
        }
        a.end();
        a.inc(K, 4).br('scan');
      }
      a.end().end();
      // unit or conflict
      a.get(J).get(CR).store();
      a.get(J).get(FIRST).store(4);
      a.inc(J, 8);
      a.get(VAL).get(FIRST).add().load8s().c(-1).eq().if_();
      {
        a.get(CR).set(CONFL);
        a.get(TRAILLEN).set(QHEAD);
        a.get(J).get(I).get(END).get(I).sub().copy();
        a.get(J).get(END).get(I).sub().add().set(J);
        a.get(END).set(I);
      }
      a.else_();
      {
        a.get(VAL).get(FIRST).add().c(1).store8();
        a.get(VAL).get(FIRST).c(1).xor().add().c(-1).store8();
        a.get(FIRST).c(1).shrS().set(V);
        a.get(V).at32(LEVEL).get(DL).store();
        a.get(V).at32(REASON).get(CR).store();
        a.get(TRAILLEN).at32(TRAIL).get(FIRST).store();
        a.inc(TRAILLEN, 1);
      }
      a.end();
      a.br('watch');
    }
    a.end().end();
    a.get(P).at32(WSLEN).get(J).get(OFF).sub().c(3).shrS().store();
    a.br('outer');
  }
  a.end().end();
  a.c(0).get(QHEAD).store(0);
  a.c(0).get(TRAILLEN).store(4);
  a.c(0).get(NPROPS).store(8);
  a.c(0).get(TOP).store(12);
  a.c(0).get(WASTED).store(16);
  a.get(CONFL);
  a.code.push(0x0b);
  return a.code;
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  const type = section(1, [1, 0x60, NPARAMS, ...new Array(NPARAMS).fill(I32), 1, I32]);
  const imp = section(2, [1, ...str('e'), ...str('m'), 0x02, 0x00, 1]);
  const func = section(3, [1, 0]);
  const exp = section(7, [1, ...str('p'), 0x00, 0]);
  const body = [1, ...uleb(NLOCALS), I32, ...propagateBody()];
  const code = section(10, [1, ...uleb(body.length), ...body]);
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...type, ...imp, ...func, ...exp, ...code]);
}

export type PropagateFn = (
  qhead: number, trailLen: number, dl: number, val: number, trail: number, level: number, reason: number,
  ca: number, wOff: number, wsLen: number, wCap: number, wp: number,
) => number;

const compiled = new WebAssembly.Module(moduleBytes());

/** A propagate function working on `memory` (at least one page; the caller lays the arrays out in it). */
export function instantiatePropagate(memory: WebAssembly.Memory): PropagateFn {
  const instance = new WebAssembly.Instance(compiled, { e: { m: memory } });
  return instance.exports.p as unknown as PropagateFn;
}
