// The solver's hot loops (propagation, conflict analysis, backtracking, branching) as WebAssembly functions, assembled here byte by byte (no toolchain, no file).
/*
 * Four functions: `p`, unit propagation (below), `a`, conflict analysis (analyzeBody), `c`, the
 * backtrack loop of cancelUntil (cancelBody), `k`, pickBranchLit's heap loop (pickBody), and `s`,
 * reduceDB's sort of the learnt clauses (sortBody, with `less` as MiniSat's reduceDB_lt), each
 * solver.ts's JavaScript statement for statement, so the search is MiniSat's as before.
 *
 * Why WebAssembly. The JavaScript propagate loop did the same work as MiniSat's C++ but paid some
 * five extra instructions per array access: TurboFan re-checks each typed array's map and reloads its
 * length and data pointer at nearly every access inside the loops (see solver.ts's essay). A wasm
 * function addresses one linear memory through a base register with no bounds checks (guard pages),
 * so its inner loop is close to what a C compiler emits. The solver keeps the arrays propagate touches
 * (values, trail, levels, reasons, watch-list offsets/lengths/capacities, the clause arena, the watch
 * pool) as views onto that memory; the JavaScript code reads and writes them as before.
 *
 * The function is solver.ts's `propagate` loop, statement for statement (same watcher order, same
 * in-place swap, same appends, same counters), so the search is unchanged. Memory layout (each
 * array's byte offset sits in the header at BASE_SLOTS, read by the kernels on entry: few parameters
 * keep V8's JS-to-wasm call wrapper cheap): values are bytes (1 true, -1 false, 0 unassigned) indexed by literal;
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
const F64 = 0x7c;

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
  load8u() { return this.emit(0x2d, 0, 0); }
  f64load(offset = 0) { return this.emit(0x2b, 3, ...uleb(offset)); }
  f64store(offset = 0) { return this.emit(0x39, 3, ...uleb(offset)); }
  f32load() { return this.emit(0x2a, 2, 0); }
  f32store() { return this.emit(0x38, 2, 0); }
  f64c(x: number) { return this.emit(0x44, ...new Uint8Array(new Float64Array([x]).buffer)); }
  f64add() { return this.emit(0xa0); }
  f64mul() { return this.emit(0xa2); }
  f64gt() { return this.emit(0x64); }
  promote() { return this.emit(0xbb); }
  demote() { return this.emit(0xb6); }
  call(f: number) { return this.emit(0x10, ...uleb(f)); }
  and() { return this.emit(0x71); }
  or() { return this.emit(0x72); }
  eqz() { return this.emit(0x45); }
  gtU() { return this.emit(0x4b); }
  leS() { return this.emit(0x4c); }
  drop() { return this.emit(0x1a); }
  ret() { return this.emit(0x0f); }
  f32lt() { return this.emit(0x5d); }
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

/** Byte addresses (in the memory's header) where the caller stores each array's byte offset. */
export const BASE_SLOTS = {
  val: 64, trail: 68, level: 72, reason: 76, ca: 80, wOff: 84, wsLen: 88, wCap: 92, wp: 96,
  seen: 100, act: 104, heap: 108, heapIdx: 112, out: 116, toclear: 120, stack: 124, polarity: 128, decisionVar: 132,
} as const;
/** Bytes reserved at the start of the memory for the header. */
export const HEADER_BYTES = 256;

/** Loads array offsets from the header into locals: [local, slot] pairs. */
function prologue(a: Asm, pairs: [number, number][]): void {
  for (const [l, slot] of pairs) a.c(0).load(slot).set(l);
}

// Parameters (then the array offsets, read from the header into locals).
const QHEAD = 0, TRAILLEN = 1, DL = 2, VAL = 3, TRAIL = 4, LEVEL = 5, REASON = 6, CA = 7, WOFF = 8, WSLEN = 9, WCAP = 10, WP = 11;
const NPARAMS = 3;
// Locals.
let nl = WP + 1;
const P = nl++, OFF = nl++, END = nl++, FALSELIT = nl++, I = nl++, J = nl++, BLOCKER = nl++, CR = nl++, BASE = nl++, FIRST = nl++,
  STOP = nl++, K = nl++, LK = nl++, Q = nl++, NQ = nl++, O = nl++, CONFL = nl++, NPROPS = nl++, TOP = nl++, WASTED = nl++, CAP = nl++,
  V = nl++, POOLLEN = nl++;
const NLOCALS = nl - NPARAMS;
const B = BASE_SLOTS;

function propagateBody(): number[] {
  const a = new Asm();
  prologue(a, [[VAL, B.val], [TRAIL, B.trail], [LEVEL, B.level], [REASON, B.reason], [CA, B.ca], [WOFF, B.wOff], [WSLEN, B.wsLen], [WCAP, B.wCap], [WP, B.wp]]);
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

// analyze: parameters, then locals.
const A_CONFL = 0, A_TRAILLEN = 1, A_DL = 2, A_NV = 3, A_VARINC = 4, A_CLAINC = 5, A_TRAIL = 6, A_LEVEL = 7, A_REASON = 8, A_CA = 9,
  A_SEEN = 10, A_ACT = 11, A_HEAP = 12, A_HIDX = 13, A_OUT = 14, A_TOCLEAR = 15, A_STACK = 16;
const A_PARAMS = [I32, I32, I32, I32, F64, F64];
let al = A_PARAMS.length + 11; // the 11 array offsets are locals 6..16
const OUTLEN = al++, PATHC = al++, AP = al++, INDEX = al++, ASTOP = al++, AK = al++, AQ = al++, AV = al++, AI = al++, AX = al++, PP = al++,
  ABS = al++, AJ = al++, TCL = al++, SP = al++, ACR = al++, SIZE = al++, ATOP = al++, MAXI = al++, BT = al++, LV = al++, HI = al++;
const A_I32_LOCALS = al - A_PARAMS.length;
const FA = al++, FAX = al++;
const A_F64_LOCALS = 2;

/** `for (l = from; l < to; l++) body()` (from, to: locals). */
function forRange(a: Asm, l: number, from: number, to: number, name: string, body: () => void): void {
  a.get(from).set(l);
  a.block(name + 'd').loop(name);
  a.get(l).get(to).geS().brIf(name + 'd');
  body();
  a.inc(l, 1).br(name);
  a.end().end();
}

/**
 * solver.ts's analyze (first UIP, then ccmin-mode 2 minimisation with litRedundant inlined, the
 * variable bumps with MiniSat's heap percolation inlined, clause bumps as float32). Writes the learnt
 * clause to `out`, its length to word 0 and the new varInc (f64) to bytes 32..39; returns the
 * backtrack level. A clause activity over 1e20 calls the import `r` (the rescale walks the learnt
 * list, which lives in JavaScript), which writes the new claInc to bytes 40..47.
 */
function analyzeBody(): number[] {
  const a = new Asm();
  prologue(a, [[A_TRAIL, B.trail], [A_LEVEL, B.level], [A_REASON, B.reason], [A_CA, B.ca], [A_SEEN, B.seen], [A_ACT, B.act], [A_HEAP, B.heap],
    [A_HIDX, B.heapIdx], [A_OUT, B.out], [A_TOCLEAR, B.toclear], [A_STACK, B.stack]]);
  a.c(1).set(OUTLEN).c(0).set(PATHC).c(-1).set(AP);
  a.get(A_TRAILLEN).c(-1).add().set(INDEX);
  a.loop('aloop');
  {
    // clause bump (float32 activity just before the header)
    a.get(A_CONFL).at32(A_CA).load().c(1).and().if_();
    {
      a.get(A_CONFL).c(-1).add().at32(A_CA).set(AK);
      a.get(AK).get(AK).f32load().promote().get(A_CLAINC).f64add().demote().f32store();
      a.get(AK).f32load().promote().f64c(1e20).f64gt().if_();
      a.call(0);
      a.c(0).f64load(40).set(A_CLAINC);
      a.end();
    }
    a.end();
    a.get(A_CONFL).at32(A_CA).set(ASTOP);
    a.get(ASTOP).c(4).add().set(AK);
    a.get(ASTOP).load().c(3).shrS().c(2).shl().get(AK).add().set(ASTOP);
    a.get(AP).c(-1).ne().if_().inc(AK, 4).end();
    a.block('kdone').loop('kloop');
    {
      a.get(AK).get(ASTOP).geU().brIf('kdone');
      a.get(AK).load().tee(AQ).c(1).shrS().set(AV);
      a.get(A_SEEN).get(AV).add().load8u().eqz().if_();
      {
        a.get(AV).at32(A_LEVEL).load().tee(LV).c(0).gtS().if_();
        {
          // act[v] += varInc, rescaling all at 1e100
          a.get(AV).c(3).shl().get(A_ACT).add().set(AI);
          a.get(AI).get(AI).f64load().get(A_VARINC).f64add().tee(FA).f64store();
          a.get(FA).f64c(1e100).f64gt().if_();
          {
            a.c(0).set(AX);
            a.block('rsd').loop('rs');
            a.get(AX).get(A_NV).geS().brIf('rsd');
            a.get(AX).c(3).shl().get(A_ACT).add().set(AI);
            a.get(AI).get(AI).f64load().f64c(1e-100).f64mul().f64store();
            a.inc(AX, 1).br('rs');
            a.end().end();
            a.get(A_VARINC).f64c(1e-100).f64mul().set(A_VARINC);
          }
          a.end();
          // percolateUp(heapIdx[v]) when v is in the heap
          a.get(AV).at32(A_HIDX).load().tee(HI).c(0).geS().if_();
          {
            a.get(HI).set(AI);
            a.get(AI).at32(A_HEAP).load().set(AX);
            a.get(AX).c(3).shl().get(A_ACT).add().f64load().set(FAX);
            a.get(AI).c(-1).add().c(1).shrS().set(PP);
            a.block('pd').loop('pl');
            a.get(AI).eqz().brIf('pd');
            a.get(FAX).get(PP).at32(A_HEAP).load().c(3).shl().get(A_ACT).add().f64load().f64gt().eqz().brIf('pd');
            a.get(PP).at32(A_HEAP).load().set(ACR);
            a.get(AI).at32(A_HEAP).get(ACR).store();
            a.get(ACR).at32(A_HIDX).get(AI).store();
            a.get(PP).set(AI);
            a.get(PP).c(-1).add().c(1).shrS().set(PP);
            a.br('pl');
            a.end().end();
            a.get(AI).at32(A_HEAP).get(AX).store();
            a.get(AX).at32(A_HIDX).get(AI).store();
          }
          a.end();
          a.get(A_SEEN).get(AV).add().c(1).store8();
          a.get(LV).get(A_DL).geS().if_();
          a.inc(PATHC, 1);
          a.else_();
          a.get(OUTLEN).at32(A_OUT).get(AQ).store();
          a.inc(OUTLEN, 1);
          a.end();
        }
        a.end();
      }
      a.end();
      a.inc(AK, 4).br('kloop');
    }
    a.end().end();
    // the next seen literal down the trail
    a.loop('sl');
    a.get(INDEX).at32(A_TRAIL).load().set(AP);
    a.inc(INDEX, -1);
    a.get(A_SEEN).get(AP).c(1).shrS().add().load8u().eqz().brIf('sl');
    a.end();
    a.get(AP).c(1).shrS().at32(A_REASON).load().set(A_CONFL);
    a.get(A_SEEN).get(AP).c(1).shrS().add().c(0).store8();
    a.inc(PATHC, -1);
    a.get(PATHC).c(0).gtS().brIf('aloop');
  }
  a.end();
  a.get(A_OUT).get(AP).c(1).xor().store();

  // Minimise (ccmin-mode 2).
  a.get(A_TOCLEAR).get(A_OUT).get(OUTLEN).c(2).shl().copy();
  a.get(OUTLEN).set(TCL);
  a.c(0).set(ABS);
  a.c(1).set(AJ);
  forRange(a, AI, AJ, OUTLEN, 'ab', () => {
    a.get(ABS).c(1).get(AI).at32(A_OUT).load().c(1).shrS().at32(A_LEVEL).load().shl().or().set(ABS);
  });
  a.c(1).set(AJ);
  a.c(1).set(AI);
  a.block('md').loop('ml');
  {
    a.get(AI).get(OUTLEN).geS().brIf('md');
    a.get(AI).at32(A_OUT).load().set(AQ);
    a.block('keep');
    a.block('drop');
    {
      a.get(AQ).c(1).shrS().at32(A_REASON).load().c(0).ltS().brIf('keep');
      // litRedundant(q, abs)
      a.get(A_STACK).get(AQ).store();
      a.c(1).set(SP);
      a.get(TCL).set(ATOP);
      a.loop('lr');
      {
        a.get(SP).eqz().brIf('drop');
        a.inc(SP, -1);
        a.get(SP).at32(A_STACK).load().c(1).shrS().at32(A_REASON).load().set(ACR);
        a.get(ACR).at32(A_CA).load().c(3).shrS().set(SIZE);
        a.c(1).set(AK);
        a.block('lld').loop('ll');
        {
          a.get(AK).get(SIZE).geS().brIf('lld');
          a.get(ACR).get(AK).add().c(1).add().at32(A_CA).load().tee(AX).c(1).shrS().set(AV);
          a.get(A_SEEN).get(AV).add().load8u().eqz().if_();
          {
            a.get(AV).at32(A_LEVEL).load().tee(LV).c(0).gtS().if_();
            {
              a.get(AV).at32(A_REASON).load().c(0).geS();
              a.c(1).get(LV).shl().get(ABS).and().c(0).ne();
              a.and().if_();
              {
                a.get(A_SEEN).get(AV).add().c(1).store8();
                a.get(SP).at32(A_STACK).get(AX).store();
                a.inc(SP, 1);
                a.get(TCL).at32(A_TOCLEAR).get(AX).store();
                a.inc(TCL, 1);
              }
              a.else_();
              {
                forRange(a, PP, ATOP, TCL, 'cl', () => {
                  a.get(A_SEEN).get(PP).at32(A_TOCLEAR).load().c(1).shrS().add().c(0).store8();
                });
                a.get(ATOP).set(TCL);
                a.br('keep');
              }
              a.end();
            }
            a.end();
          }
          a.end();
          a.inc(AK, 1).br('ll');
        }
        a.end().end();
        a.br('lr');
      }
      a.end();
    }
    a.end(); // drop: redundant, not kept
    a.inc(AI, 1).br('ml');
    a.end(); // keep
    a.get(AJ).at32(A_OUT).get(AQ).store();
    a.inc(AJ, 1);
    a.inc(AI, 1).br('ml');
  }
  a.end().end();
  a.get(AJ).set(OUTLEN);

  // The highest remaining level to position 1; it is the backtrack level.
  a.c(0).set(BT);
  a.get(OUTLEN).c(1).gtS().if_();
  {
    a.c(1).set(MAXI);
    a.c(2).set(AJ);
    forRange(a, AI, AJ, OUTLEN, 'mx', () => {
      a.get(AI).at32(A_OUT).load().c(1).shrS().at32(A_LEVEL).load();
      a.get(MAXI).at32(A_OUT).load().c(1).shrS().at32(A_LEVEL).load();
      a.gtS().if_().get(AI).set(MAXI).end();
    });
    a.get(MAXI).at32(A_OUT).load().set(AQ);
    a.get(MAXI).at32(A_OUT).get(A_OUT).load(4).store();
    a.get(A_OUT).get(AQ).store(4);
    a.get(AQ).c(1).shrS().at32(A_LEVEL).load().set(BT);
  }
  a.end();
  a.c(0).set(AJ);
  forRange(a, AI, AJ, TCL, 'cs', () => {
    a.get(A_SEEN).get(AI).at32(A_TOCLEAR).load().c(1).shrS().add().c(0).store8();
  });
  a.c(0).get(OUTLEN).store(0);
  a.c(0).get(A_VARINC).f64store(32);
  a.get(BT);
  a.code.push(0x0b);
  return a.code;
}

/** MiniSat's heap percolateUp from index local `i` (locals x, p, t and f64 local ax are scratch). */
function emitPercolateUp(a: Asm, heap: number, hidx: number, act: number, i: number, x: number, p: number, t: number, ax: number): void {
  a.get(i).at32(heap).load().set(x);
  a.get(x).c(3).shl().get(act).add().f64load().set(ax);
  a.get(i).c(-1).add().c(1).shrS().set(p);
  a.block('pud').loop('pul');
  a.get(i).eqz().brIf('pud');
  a.get(ax).get(p).at32(heap).load().c(3).shl().get(act).add().f64load().f64gt().eqz().brIf('pud');
  a.get(p).at32(heap).load().set(t);
  a.get(i).at32(heap).get(t).store();
  a.get(t).at32(hidx).get(i).store();
  a.get(p).set(i);
  a.get(p).c(-1).add().c(1).shrS().set(p);
  a.br('pul');
  a.end().end();
  a.get(i).at32(heap).get(x).store();
  a.get(x).at32(hidx).get(i).store();
}

// cancel: (lim, trailLen, heapLen, val, trail, polarity, decisionVar, heap, heapIdx, act) -> heapLen
const C_LIM = 0, C_TRAILLEN = 1, C_HEAPLEN = 2, C_VAL = 3, C_TRAIL = 4, C_POL = 5, C_DVAR = 6, C_HEAP = 7, C_HIDX = 8, C_ACT = 9;
const C_PARAMS = 3;
const C_C = 10, C_P = 11, C_X = 12, C_I = 13, C_Y = 14, C_PP = 15, C_T = 16, C_AX = 17;

/** solver.ts's cancelUntil loop: unassign from the trail's end down to `lim`, save phases, reinsert into the heap. */
function cancelBody(): number[] {
  const a = new Asm();
  prologue(a, [[C_VAL, B.val], [C_TRAIL, B.trail], [C_POL, B.polarity], [C_DVAR, B.decisionVar], [C_HEAP, B.heap], [C_HIDX, B.heapIdx], [C_ACT, B.act]]);
  a.get(C_TRAILLEN).c(-1).add().set(C_C);
  a.block('cd').loop('cl');
  {
    a.get(C_C).get(C_LIM).ltS().brIf('cd');
    a.get(C_C).at32(C_TRAIL).load().tee(C_P).c(1).shrS().set(C_X);
    a.get(C_VAL).get(C_P).add().c(0).store8();
    a.get(C_VAL).get(C_P).c(1).xor().add().c(0).store8();
    a.get(C_POL).get(C_X).add().get(C_P).c(1).and().store8();
    a.get(C_X).at32(C_HIDX).load().c(0).ltS().if_();
    {
      a.get(C_DVAR).get(C_X).add().load8u().if_();
      {
        a.get(C_X).at32(C_HIDX).get(C_HEAPLEN).store();
        a.get(C_HEAPLEN).at32(C_HEAP).get(C_X).store();
        a.get(C_HEAPLEN).set(C_I);
        a.inc(C_HEAPLEN, 1);
        emitPercolateUp(a, C_HEAP, C_HIDX, C_ACT, C_I, C_Y, C_PP, C_T, C_AX);
      }
      a.end();
    }
    a.end();
    a.inc(C_C, -1).br('cl');
  }
  a.end().end();
  a.get(C_HEAPLEN);
  a.code.push(0x0b);
  return a.code;
}

// pick: (next, heapLen, val, decisionVar, heap, heapIdx, act) -> next (heapLen to word 0)
const K_NEXT = 0, K_HEAPLEN = 1, K_VAL = 2, K_DVAR = 3, K_HEAP = 4, K_HIDX = 5, K_ACT = 6;
const K_PARAMS = 2;
const K_X = 7, K_I = 8, K_L = 9, K_R = 10, K_CH = 11, K_AX = 12;

/** solver.ts's pickBranchLit loop: take the heap's top (MiniSat's removeMin with percolateDown) until an unassigned decision variable. */
function pickBody(): number[] {
  const a = new Asm();
  prologue(a, [[K_VAL, B.val], [K_DVAR, B.decisionVar], [K_HEAP, B.heap], [K_HIDX, B.heapIdx], [K_ACT, B.act]]);
  a.block('pd').loop('pl');
  {
    a.block('take');
    a.get(K_NEXT).c(-1).eq().brIf('take');
    a.get(K_VAL).get(K_NEXT).c(1).shl().add().load8s().brIf('take');
    a.get(K_DVAR).get(K_NEXT).add().load8u().eqz().brIf('take');
    a.br('pd');
    a.end();
    a.get(K_HEAPLEN).eqz().if_();
    a.c(-1).set(K_NEXT).br('pd');
    a.end();
    // removeMin
    a.get(K_HEAP).load().set(K_NEXT);
    a.get(K_HEAP).get(K_HEAPLEN).c(-1).add().at32(K_HEAP).load().store();
    a.get(K_HEAP).load().at32(K_HIDX).c(0).store();
    a.get(K_NEXT).at32(K_HIDX).c(-1).store();
    a.inc(K_HEAPLEN, -1);
    a.get(K_HEAPLEN).c(1).gtS().if_();
    {
      // percolateDown(0)
      a.c(0).set(K_I);
      a.get(K_HEAP).load().set(K_X);
      a.get(K_X).c(3).shl().get(K_ACT).add().f64load().set(K_AX);
      a.block('dd').loop('dl');
      {
        a.get(K_I).c(1).shl().c(1).add().tee(K_L).get(K_HEAPLEN).geS().brIf('dd');
        a.get(K_L).c(1).add().set(K_R);
        a.get(K_L).set(K_CH);
        a.get(K_R).get(K_HEAPLEN).ltS().if_();
        {
          a.get(K_R).at32(K_HEAP).load().c(3).shl().get(K_ACT).add().f64load();
          a.get(K_L).at32(K_HEAP).load().c(3).shl().get(K_ACT).add().f64load();
          a.f64gt().if_().get(K_R).set(K_CH).end();
        }
        a.end();
        a.get(K_CH).at32(K_HEAP).load().c(3).shl().get(K_ACT).add().f64load().get(K_AX).f64gt().eqz().brIf('dd');
        a.get(K_I).at32(K_HEAP).get(K_CH).at32(K_HEAP).load().store();
        a.get(K_I).at32(K_HEAP).load().at32(K_HIDX).get(K_I).store();
        a.get(K_CH).set(K_I);
        a.br('dl');
      }
      a.end().end();
      a.get(K_I).at32(K_HEAP).get(K_X).store();
      a.get(K_X).at32(K_HIDX).get(K_I).store();
    }
    a.end();
    a.br('pl');
  }
  a.end().end();
  a.c(0).get(K_HEAPLEN).store();
  a.get(K_NEXT);
  a.code.push(0x0b);
  return a.code;
}

// less(x, y): MiniSat's reduceDB_lt on clause references (binary clauses last, then by activity).
const L_X = 0, L_Y = 1, L_CA = 2;
function lessBody(): number[] {
  const a = new Asm();
  a.c(0).load(B.ca).set(L_CA);
  a.get(L_X).at32(L_CA).load().c(3).shrS().c(2).gtS().eqz().if_().c(0).ret().end();
  a.get(L_Y).at32(L_CA).load().c(3).shrS().c(2).eq().if_().c(1).ret().end();
  a.get(L_X).c(-1).add().at32(L_CA).f32load();
  a.get(L_Y).c(-1).add().at32(L_CA).f32load();
  a.f32lt();
  a.code.push(0x0b);
  return a.code;
}

// sort(lo, size): MiniSat's mtl/Sort.h sort on the clause references at byte address lo.
const S_LO = 0, S_SIZE = 1, S_I = 2, S_J = 3, S_BEST = 4, S_PIVOT = 5, S_T = 6;
const LESS = 5, SORT = 6; // function indices (the import is 0)
function sortBody(): number[] {
  const a = new Asm();
  a.get(S_SIZE).c(15).leS().if_();
  {
    // selection sort
    a.c(0).set(S_I);
    a.block('sd').loop('sl');
    a.get(S_I).get(S_SIZE).c(-1).add().geS().brIf('sd');
    a.get(S_I).set(S_BEST);
    a.get(S_I).c(1).add().set(S_J);
    a.block('jd').loop('jl');
    a.get(S_J).get(S_SIZE).geS().brIf('jd');
    a.get(S_J).at32(S_LO).load().get(S_BEST).at32(S_LO).load().call(LESS).if_().get(S_J).set(S_BEST).end();
    a.inc(S_J, 1).br('jl');
    a.end().end();
    a.get(S_I).at32(S_LO).load().set(S_T);
    a.get(S_I).at32(S_LO).get(S_BEST).at32(S_LO).load().store();
    a.get(S_BEST).at32(S_LO).get(S_T).store();
    a.inc(S_I, 1).br('sl');
    a.end().end();
    a.ret();
  }
  a.end();
  a.get(S_SIZE).c(1).shrS().at32(S_LO).load().set(S_PIVOT);
  a.c(-1).set(S_I);
  a.get(S_SIZE).set(S_J);
  a.block('qd').loop('ql');
  {
    a.loop('il');
    a.inc(S_I, 1);
    a.get(S_I).at32(S_LO).load().get(S_PIVOT).call(LESS).brIf('il');
    a.end();
    a.loop('jl2');
    a.inc(S_J, -1);
    a.get(S_PIVOT).get(S_J).at32(S_LO).load().call(LESS).brIf('jl2');
    a.end();
    a.get(S_I).get(S_J).geS().brIf('qd');
    a.get(S_I).at32(S_LO).load().set(S_T);
    a.get(S_I).at32(S_LO).get(S_J).at32(S_LO).load().store();
    a.get(S_J).at32(S_LO).get(S_T).store();
    a.br('ql');
  }
  a.end().end();
  a.get(S_LO).get(S_I).call(SORT);
  a.get(S_I).at32(S_LO).get(S_SIZE).get(S_I).sub().call(SORT);
  a.code.push(0x0b);
  return a.code;
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  const type = section(1, [
    6,
    0x60, NPARAMS, ...new Array(NPARAMS).fill(I32), 1, I32,
    0x60, A_PARAMS.length, ...A_PARAMS, 1, I32,
    0x60, 0, 0,
    0x60, C_PARAMS, ...new Array(C_PARAMS).fill(I32), 1, I32,
    0x60, K_PARAMS, ...new Array(K_PARAMS).fill(I32), 1, I32,
    0x60, 2, I32, I32, 0,
  ]);
  const imp = section(2, [2, ...str('e'), ...str('m'), 0x02, 0x00, 1, ...str('e'), ...str('r'), 0x00, 2]);
  const func = section(3, [6, 0, 1, 3, 4, 4, 5]); // less has pick's type (i32, i32) -> i32
  const exp = section(7, [5, ...str('p'), 0x00, 1, ...str('a'), 0x00, 2, ...str('c'), 0x00, 3, ...str('k'), 0x00, 4, ...str('s'), 0x00, SORT]);
  const pbody = [1, ...uleb(NLOCALS), I32, ...propagateBody()];
  const abody = [2, ...uleb(A_I32_LOCALS), I32, ...uleb(A_F64_LOCALS), F64, ...analyzeBody()];
  const cbody = [2, 7 + 7, I32, 1, F64, ...cancelBody()];
  const kbody = [2, 5 + 5, I32, 1, F64, ...pickBody()];
  const lbody = [1, 1, I32, ...lessBody()];
  const sbody = [1, 5, I32, ...sortBody()];
  const code = section(10, [6, ...[pbody, abody, cbody, kbody, lbody, sbody].flatMap((b) => [...uleb(b.length), ...b])]);
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...type, ...imp, ...func, ...exp, ...code]);
}

export type PropagateFn = (qhead: number, trailLen: number, dl: number) => number;

const compiled = new WebAssembly.Module(moduleBytes());

export type AnalyzeFn = (confl: number, trailLen: number, dl: number, nv: number, varInc: number, claInc: number) => number;

/**
 * propagate and analyze working on `memory` (the caller lays the arrays out in it); `rescale` is
 * called when a clause activity passes 1e20 and must write the new claInc (f64) at byte 40.
 */
export type CancelFn = (lim: number, trailLen: number, heapLen: number) => number;
export type PickFn = (next: number, heapLen: number) => number;
export type SortFn = (lo: number, size: number) => void;

export interface Kernels {
  propagate: PropagateFn;
  analyze: AnalyzeFn;
  cancel: CancelFn;
  pick: PickFn;
  sort: SortFn;
}
export function instantiateKernels(memory: WebAssembly.Memory, rescale: () => void): Kernels {
  const instance = new WebAssembly.Instance(compiled, { e: { m: memory, r: rescale } });
  const x = instance.exports as unknown as { p: PropagateFn; a: AnalyzeFn; c: CancelFn; k: PickFn; s: SortFn };
  return { propagate: x.p, analyze: x.a, cancel: x.c, pick: x.k, sort: x.s };
}
