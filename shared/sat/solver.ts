// A CDCL SAT solver that reproduces MiniSat 2.2.0's core search step for step (same decisions, propagations, conflicts, restarts).
/*
 * Why it works. Conflict-driven clause learning: decide a literal, propagate unit clauses with two
 * watched literals per clause, and on a conflict walk the implication graph back to the first
 * unique implication point, learn that clause (minimised recursively, "ccmin-mode 2"), jump back
 * to the second-highest level in it and assert it. VSIDS activities (bumped for every variable
 * seen in conflict analysis, decayed by 0.95 per conflict) order the decisions; the saved phase of
 * a variable (initially false) is its polarity. Luby restarts (unit 100 conflicts) and a learnt
 * clause database halved when it outgrows a limit (a third of the original clauses, grown 1.1x at
 * conflict 100, then at intervals growing 1.5x) keep the search moving.
 *
 * Why its statistics equal MiniSat 2.2.0's. Every choice that can change the search order is
 * MiniSat's own: the binary heap with strict `>` and its percolate rules, `rebuildOrderHeap()` in
 * variable order whenever `simplify()` really runs at level 0, `cancelUntil` reinserting from the
 * end of the trail, watcher lists with a blocker literal and MiniSat's in-place swap of the false
 * literal to position 1, new watches appended at the end, the learnt clause's literal order (the
 * asserting literal first, the highest remaining level swapped to position 1), clause activities
 * stored as 32-bit floats (`Math.fround`) with `claInc` a double, rescaling at 1e20 and 1e100,
 * `reduceDB` with MiniSat's sort (selection sort up to 15 elements, quicksort on the middle pivot
 * beyond), literals sorted and deduplicated by `addClause`, units propagated as clauses are added,
 * and the counters incremented at the same places (a propagation per literal taken off the trail,
 * a decision before each pick, so the final pick that finds the model counts too; "restarts" is
 * MiniSat's `starts`, the number of `search()` calls). Deleted clauses are detached lazily and
 * swept before the next propagation, which keeps the remaining watchers in order, as in MiniSat.
 * Used as PySAT's `minisat22` uses it: variables are created as literals mention them, clauses
 * are added, and `solve()` runs with no separate `simplify()` first (`minisatBinaryOrder: true` gives
 * the order Debian's `minisat -no-pre` uses, for cross-checks against that binary).
 *
 * What it cannot do. No preprocessing (variable elimination, subsumption), no proof output, no
 * random decisions beyond MiniSat's (random_var_freq 0: the generator is still stepped per pick).
 * It is a faithful copy of a 2010 solver, not a modern one: hard industrial instances will be slow.
 *
 * Speed (issue 16: at most 1.25x native `minisat -no-pre` CPU time where it takes the same search).
 * Met: `npm run bench sat`, 3 runs in a row at load 7-9, median 1.06x native warm in the study's order
 * and 1.09x in the binary's order (cold: 1.10x / 1.17x; it was 1.43x / 1.44x warm). What made the
 * difference: the two hot loops, propagate and analyze, in WebAssembly (wasmKernels.ts), see the last
 * item below; every JavaScript-only change before that gained a few percent at most, because the cost
 * was in how TurboFan compiles each typed-array access, not in the algorithm or the data layout.
 * The history, oldest first. The ratio grows with the machine's load (the TS solver misses the cache more, so it
 * suffers more from neighbours): `npm run bench sat` gave 1.54x before this work at load 0.5 and
 * 1.54x after it at load 10; the original and this version side by side in one process at load 11-20
 * (8 files, best of 3, identical statistics): 1.83x -> 1.51x, 0.83x of the CPU time. Profile first (`--cpu-prof`,
 * r3sat220-b1, warm): propagate 64%, analyze 20%, search 3%, cancelUntil 3%, arena collection 2%,
 * sorting learnts 2%. Cachegrind before the changes, r3sat200-b1 (one warm solve: 2 solves minus 1)
 * against the whole native run: 2.07G vs 0.65G instructions (3.2x), 0.91G vs 0.25G data references
 * (3.7x), 13.5M vs 3.3M L1 data misses (4.1x), for about 1.6x the time. `--print-opt-code` shows why:
 * TurboFan (Node 20, V8 11.3) re-checks a typed array's map and reloads its length and data pointer at
 * nearly every access inside the loops (nothing is hoisted over the back edge, whose stack check ends
 * what load elimination knows): some five instructions per access that C++ does not pay, whatever
 * the loop's shape. Measured A/B in one run against the version before, statistics checked equal:
 *  - what helped: all watch lists in one Int32Array pool (offset, room, length per literal; a full
 *    list moves to the pool's end, holes squeezed out between propagations) instead of one Int32Array
 *    per literal: 0.90-0.92x the CPU time on random 3-SAT and pigeonhole, 0.70-0.76x on the nonogram
 *    CNFs. A list used to be reached through the array of lists, the typed array object, then its
 *    buffer (three dependent loads, three cache lines); now one offset into one buffer. Cachegrind, same
 *    warm solve: instructions unchanged (2.07G), L1 data misses 13.5M -> 5.4M (native: 3.3M). MiniSat's own
 *    clause packing (a one-int header, a learnt clause's activity just before it): 0.99x. Together,
 *    with the arena collection reusing its previous buffer: 0.83x of the original's time.
 *  - what did not (within 1%, so reverted): a local constant for the header size (a module-level
 *    const is a context load per use, but off the hot path); the list growth moved out of the loop,
 *    or lists preallocated; an innermost loop for true blockers (TurboFan peels it, yet re-checks each
 *    iteration); binary-clause watchers flagged to skip the clause (php9: 1.01x); fields hoisted into
 *    locals in analyze, litRedundant and cancelUntil; literal values as Int32Array; offset, room and
 *    length interleaved in one array.
 *  - what made the difference: propagate as a WebAssembly function (wasmKernels.ts, assembled
 *    from TypeScript at load; no toolchain, no binary file) over one wasm memory that holds the values,
 *    trail, levels, reasons, watch-list offsets/lengths/capacities, the clause arena and the watch pool;
 *    the JavaScript code keeps using them as typed-array views onto that memory. Wasm addresses the
 *    memory from one base register with no bounds checks, which removes exactly the per-access
 *    overhead above. A/B in one process (5 files, median of 5, load 8-11, statistics checked equal):
 *    0.77x of the CPU time; `npm run bench sat`: 1.43x -> 1.17x native (PySAT order, load 1-9).
 *    Then analyze (first UIP, litRedundant, the variable bumps with the heap's percolateUp, the float32
 *    clause bumps) moved into the same wasm module, with seen, activity, heap, heapIdx and the learnt
 *    clause buffers in its memory (the rare clause-activity rescale calls back into JavaScript, which
 *    owns the learnt list): a further 0.93x (A/B against the JavaScript original: 0.72x).
 *    Then cancelUntil (unassign, save phases, reinsert into the heap) and pickBranchLit's heap loop
 *    (removeMin with percolateDown) too, with polarity and decisionVar in the memory: 0.97x more;
 *    the kernels reading the arrays' offsets from the memory's header instead of taking them as
 *    parameters (V8's generic JS-to-wasm wrapper pays per parameter; each relayout makes a new
 *    instance, so calls rarely reach the tier-up to a specialised wrapper): 0.985x; reduceDB's sort
 *    (MiniSat's selection sort / quicksort, same comparisons) in wasm on a copy of the learnt list
 *    placed in the watch pool's free tail: 0.976x.
 *    Profile after analyze moved (all bench files, warm): wasm propagate 54%, wasm analyze 20%, sorting learnts 4%,
 *    cancelUntil 3%, pickBranchLit 3%, JS-to-wasm call wrappers 2%. The wasm code follows the
 *    JavaScript it replaced statement for statement; the MiniSat vectors pass unchanged.
 *    A solver now costs a wasm memory and instance (about 0.1-0.2 ms to construct, against 0.07 ms);
 *    `reset()` keeps them.
 *    The memory is replaced, never grown, when an array must grow (a new memory and instance, every
 *    view rebuilt: one code path for all growth; I had feared that a `grow`, which detaches the old
 *    buffer, would slow V8's typed-array code in the whole process, but measured it does not: 1.00x);
 *    when the watch pool fills during a propagation, the wasm function stops cleanly and is called
 *    again on the larger memory (see wasmKernels.ts).
 * For `generate --sat` (thousands of tiny solves) allocation dominated, not search: `reset()` reuses one
 * solver's buffers, `loadFlatCnf` reads encoders' flat output (flatCnf.ts), and the arena collection
 * reuses the previous arena: 1,000 puzzles' metrics.sat + metrics.sat_dfa went from 1.83 s to 1.16 s
 * of CPU in one run (see metrics.ts).
 *
 * Shape: literals are integers 2*var + sign (sign 1 = negated), negation is `^ 1`; the trail is
 * the propagation queue; clauses live in one Int32Array arena (a one-int header, size << 3 |
 * flags, then the literals; a learnt clause's activity, as float32 bits, just before its header); watchers are (clause, blocker) pairs, each literal's list a slice of one Int32Array pool.
 * These and the other per-variable arrays the kernels touch live in one WebAssembly memory per solver
 * (`relayout` places them; JavaScript sees typed-array views, replaced whenever the memory is).
 */

import type { FlatCnf } from './flatCnf.ts';
import { BASE_SLOTS, HEADER_BYTES, instantiateKernels, type AnalyzeFn, type CancelFn, type PickFn, type PropagateFn, type SortFn } from './wasmKernels.ts';

const LEARNT = 1;
const DELETED = 2;
const RELOCED = 4;
const HDR = 1; // header: size << 3 | flags; a learnt clause's activity (float32 bits) sits just before it

export const L_TRUE = 1;
export const L_FALSE = -1;
export const L_UNDEF = 0;
export type Lbool = typeof L_TRUE | typeof L_FALSE | typeof L_UNDEF;

export interface SolverStats {
  conflicts: number;
  decisions: number;
  propagations: number;
  restarts: number;
}

export interface SolverOptions {
  /**
   * Follow Debian's `minisat -no-pre` driver instead of PySAT's: `simplify()` on the empty solver
   * (its `eliminate(true)` before parsing) and again after the clauses are added (default false).
   * Only the moments of later level-0 simplifications change; used to cross-check with that binary.
   */
  minisatBinaryOrder?: boolean;
  /** MiniSat's random_var_freq (default 0). */
  randomVarFreq?: number;
  /** MiniSat's random_seed (default 91648253). */
  randomSeed?: number;
  /** Expected number of variables, clause literals and watch-pool ints (preallocation only; no effect on the search). */
  capacity?: { vars?: number; literals?: number; watches?: number };
}

export const mkLit = (v: number, negated = false): number => v + v + (negated ? 1 : 0);
export const litVar = (p: number): number => p >> 1;
export const litSign = (p: number): number => p & 1;

function luby(y: number, x: number): number {
  let size = 1;
  let seq = 0;
  while (size < x + 1) {
    seq++;
    size = 2 * size + 1;
  }
  while (size - 1 !== x) {
    size = (size - 1) >> 1;
    seq--;
    x = x % size;
  }
  return Math.pow(y, seq);
}

export class Solver {
  // Parameters (MiniSat 2.2.0 defaults).
  varDecay = 0.95;
  clauseDecay = 0.999;
  randomVarFreq = 0;
  randomSeed = 91648253;
  restartFirst = 100;
  restartInc = 2;
  learntsizeFactor = 1 / 3;
  learntsizeInc = 1.1;
  learntsizeAdjustStartConfl = 100;
  learntsizeAdjustInc = 1.5;
  /** Compact the clause arena when this fraction is wasted (MiniSat: 0.2; the search does not depend on it). */
  garbageFrac = 0.5;

  // Statistics.
  solves = 0;
  starts = 0;
  decisions = 0;
  rndDecisions = 0;
  propagations = 0;
  conflicts = 0;
  clausesLiterals = 0;
  learntsLiterals = 0;

  ok = true;
  /** After an UNSAT answer under assumptions: the negated assumptions responsible (MiniSat's `conflict`). */
  conflict: number[] = [];
  /** After a SAT answer: the value of each variable (MiniSat's `model`). */
  model: Int8Array = new Int8Array(0);

  private nv = 0;
  private varCap = 0;
  // Per literal.
  private val = new Int8Array(0);
  // Watch lists, all in one pool: literal p's watchers are the pairs (clause, blocker) at
  // wpool[wOff[p] .. wOff[p] + 2*wsLen[p]), with room for wCap[p] ints. A full list moves to the
  // end of the pool (doubling its room); the holes are squeezed out between propagations.
  private wpool = new Int32Array(0);
  private wpoolTop = 0;
  private wpoolWasted = 0;
  private wOff = new Int32Array(0);
  private wCap = new Int32Array(0);
  private wsLen = new Int32Array(0);
  private dirty = new Uint8Array(0);
  private dirties: number[] = [];
  // Per variable.
  private level = new Int32Array(0);
  private reason = new Int32Array(0);
  private polarity = new Uint8Array(0);
  private decisionVar = new Uint8Array(0);
  private activity = new Float64Array(0);
  private seen = new Uint8Array(0);
  private heap = new Int32Array(0);
  private heapLen = 0;
  private heapIdx = new Int32Array(0);
  // Trail.
  private trail = new Int32Array(0);
  private trailLen = 0;
  private trailLim = new Int32Array(16);
  private trailLimLen = 0;
  private qhead = 0;
  // Clause arena.
  private ca = new Int32Array(0);
  private caf = new Float32Array(0);
  private spareCa = new Int32Array(0);
  private spareCaf = new Float32Array(0);
  private caTop = 0;
  private caWasted = 0;
  private clauses: number[] = [];
  private learnts: number[] = [];

  private varInc = 1;
  private claInc = 1;
  private simpDBAssigns = -1;
  private simpDBProps = 0;
  private maxLearnts = 0;
  private learntsizeAdjustConfl = 0;
  private learntsizeAdjustCnt = 0;
  private assumptions: number[] = [];
  private conflictBudget = -1;
  private propagationBudget = -1;

  // Scratch buffers (no per-conflict allocation).
  private addTmp = new Int32Array(16);
  private learnt = new Int32Array(0);
  private learntLen = 0;

  // The WebAssembly memory holding val, level, reason, trail, wOff, wsLen, wCap, polarity, decisionVar,
  // seen, activity, heap, heapIdx, learnt, toclear, stack, ca and wpool (in that order, after a header
  // that carries each one's byte offset and the kernels' in/out words), and the kernels instantiated on
  // it (wasmKernels.ts).
  private mem!: WebAssembly.Memory;
  private hdr = new Int32Array(0);
  private hdrF = new Float64Array(0);
  private prop!: PropagateFn;
  private analyzeW!: AnalyzeFn;
  private cancelW!: CancelFn;
  private pickW!: PickFn;
  private sortW!: SortFn;

  constructor(options: SolverOptions = {}) {
    this.applyOptions(options);
  }

  /**
   * Lays the memory-resident arrays out in a new WebAssembly memory with room for `varCap`
   * variables, `caLen` arena ints and `wpLen` pool ints, copies their contents over and instantiates
   * the kernels on it. Called only between kernel calls (never while one runs), so a replaced memory
   * is simply dropped.
   */
  private relayout(varCap: number, caLen: number, wpLen: number): void {
    let o = HEADER_BYTES;
    const take = (bytes: number) => {
      const at = o;
      o = (o + bytes + 7) & ~7;
      return at;
    };
    const oVal = take(2 * varCap), oLevel = take(4 * varCap), oReason = take(4 * varCap), oTrail = take(4 * varCap);
    const oWOff = take(8 * varCap), oWsLen = take(8 * varCap), oWCap = take(8 * varCap);
    const oPol = take(varCap), oDvar = take(varCap);
    const oSeen = take(varCap), oAct = take(8 * varCap), oHeap = take(4 * varCap), oHeapIdx = take(4 * varCap);
    const oLearnt = take(4 * varCap + 4), oToclear = take(8 * varCap + 8), oStack = take(4 * varCap + 4);
    const oCa = take(4 * caLen), oWp = take(4 * wpLen);
    const mem = new WebAssembly.Memory({ initial: Math.ceil(o / 65536) });
    const buf = mem.buffer;
    const val = new Int8Array(buf, oVal, 2 * varCap);
    val.set(this.val);
    this.val = val;
    const level = new Int32Array(buf, oLevel, varCap);
    level.set(this.level);
    this.level = level;
    const reason = new Int32Array(buf, oReason, varCap);
    reason.fill(-1);
    reason.set(this.reason);
    this.reason = reason;
    const trail = new Int32Array(buf, oTrail, varCap);
    trail.set(this.trail);
    this.trail = trail;
    const wOff = new Int32Array(buf, oWOff, 2 * varCap);
    wOff.set(this.wOff);
    this.wOff = wOff;
    const wsLen = new Int32Array(buf, oWsLen, 2 * varCap);
    wsLen.set(this.wsLen);
    this.wsLen = wsLen;
    const wCap = new Int32Array(buf, oWCap, 2 * varCap);
    wCap.set(this.wCap);
    this.wCap = wCap;
    const pol = new Uint8Array(buf, oPol, varCap);
    pol.set(this.polarity);
    this.polarity = pol;
    const dvar = new Uint8Array(buf, oDvar, varCap);
    dvar.set(this.decisionVar);
    this.decisionVar = dvar;
    const seen = new Uint8Array(buf, oSeen, varCap);
    seen.set(this.seen);
    this.seen = seen;
    const act = new Float64Array(buf, oAct, varCap);
    act.set(this.activity);
    this.activity = act;
    const heap = new Int32Array(buf, oHeap, varCap);
    heap.set(this.heap);
    this.heap = heap;
    const heapIdx = new Int32Array(buf, oHeapIdx, varCap);
    heapIdx.fill(-1);
    heapIdx.set(this.heapIdx);
    this.heapIdx = heapIdx;
    const learnt = new Int32Array(buf, oLearnt, varCap + 1);
    learnt.set(this.learnt); // search reads the learnt clause after allocClause, which may relayout
    this.learnt = learnt;
    const ca = new Int32Array(buf, oCa, caLen);
    ca.set(this.ca.subarray(0, Math.min(this.caTop, caLen)));
    this.ca = ca;
    this.caf = new Float32Array(buf, oCa, caLen);
    const wpool = new Int32Array(buf, oWp, wpLen);
    wpool.set(this.wpool.subarray(0, this.wpoolTop));
    this.wpool = wpool;
    this.hdr = new Int32Array(buf, 0, HEADER_BYTES >> 2);
    this.hdrF = new Float64Array(buf, 0, 8);
    const bases: [number, number][] = [
      [BASE_SLOTS.val, oVal], [BASE_SLOTS.trail, oTrail], [BASE_SLOTS.level, oLevel], [BASE_SLOTS.reason, oReason],
      [BASE_SLOTS.ca, oCa], [BASE_SLOTS.wOff, oWOff], [BASE_SLOTS.wsLen, oWsLen], [BASE_SLOTS.wCap, oWCap], [BASE_SLOTS.wp, oWp],
      [BASE_SLOTS.seen, oSeen], [BASE_SLOTS.act, oAct], [BASE_SLOTS.heap, oHeap], [BASE_SLOTS.heapIdx, oHeapIdx],
      [BASE_SLOTS.out, oLearnt], [BASE_SLOTS.toclear, oToclear], [BASE_SLOTS.stack, oStack],
      [BASE_SLOTS.polarity, oPol], [BASE_SLOTS.decisionVar, oDvar],
    ];
    for (const [slot, at] of bases) this.hdr[slot >> 2] = at;
    this.mem = mem;
    const kernels = instantiateKernels(mem, () => this.rescaleClauseActivities());
    this.prop = kernels.propagate;
    this.analyzeW = kernels.analyze;
    this.cancelW = kernels.cancel;
    this.pickW = kernels.pick;
    this.sortW = kernels.sort;
  }

  private applyOptions(options: SolverOptions): void {
    if (options.randomVarFreq !== undefined) this.randomVarFreq = options.randomVarFreq;
    if (options.randomSeed !== undefined) this.randomSeed = options.randomSeed;
    // One relayout at most (a new solver's memory is laid out here, sized for the capacity asked).
    const caLen = Math.max(this.ca.length || 1 << 14, 2 * (options.capacity?.literals ?? 0));
    const wpLen = Math.max(this.wpool.length || 1 << 12, options.capacity?.watches ?? 0);
    const vars = options.capacity?.vars ?? 0;
    if (vars > this.varCap) this.growVars(vars, caLen, wpLen);
    else if (caLen > this.ca.length || wpLen > this.wpool.length) this.relayout(this.varCap, caLen, wpLen);
  }

  /**
   * Makes this solver what `new Solver(options)` would be (no variables, no clauses, parameters and
   * counters at their defaults) while keeping its buffers, so that solving many small formulas one
   * after another allocates almost nothing. The next search is step for step a fresh solver's.
   */
  reset(options: SolverOptions = {}): this {
    this.varDecay = 0.95;
    this.clauseDecay = 0.999;
    this.randomVarFreq = 0;
    this.randomSeed = 91648253;
    this.restartFirst = 100;
    this.restartInc = 2;
    this.learntsizeFactor = 1 / 3;
    this.learntsizeInc = 1.1;
    this.learntsizeAdjustStartConfl = 100;
    this.learntsizeAdjustInc = 1.5;
    this.garbageFrac = 0.5;
    this.solves = this.starts = this.decisions = this.rndDecisions = this.propagations = this.conflicts = 0;
    this.clausesLiterals = this.learntsLiterals = 0;
    this.ok = true;
    this.conflict = [];
    this.model = new Int8Array(0);
    // Per-literal state of the old variables (newVar resets the per-variable state).
    this.val.fill(0, 0, 2 * this.nv);
    this.wsLen.fill(0, 0, 2 * this.nv);
    this.wCap.fill(0, 0, 2 * this.nv);
    this.wpoolTop = 0;
    this.wpoolWasted = 0;
    this.dirty.fill(0, 0, 2 * this.nv);
    this.dirties.length = 0;
    this.nv = 0;
    this.heapLen = 0;
    this.trailLen = 0;
    this.trailLimLen = 0;
    this.qhead = 0;
    this.caTop = 0;
    this.caWasted = 0;
    this.clauses.length = 0;
    this.learnts.length = 0;
    this.varInc = 1;
    this.claInc = 1;
    this.simpDBAssigns = -1;
    this.simpDBProps = 0;
    this.maxLearnts = 0;
    this.learntsizeAdjustConfl = 0;
    this.learntsizeAdjustCnt = 0;
    this.assumptions = [];
    this.conflictBudget = -1;
    this.propagationBudget = -1;
    this.applyOptions(options);
    return this;
  }

  nVars(): number {
    return this.nv;
  }
  nClauses(): number {
    return this.clauses.length;
  }
  nLearnts(): number {
    return this.learnts.length;
  }
  nAssigns(): number {
    return this.trailLen;
  }
  decisionLevel(): number {
    return this.trailLimLen;
  }
  stats(): SolverStats {
    return { conflicts: this.conflicts, decisions: this.decisions, propagations: this.propagations, restarts: this.starts };
  }
  /** Value of a literal: 1 true, -1 false, 0 unassigned. */
  litValue(p: number): Lbool {
    return this.val[p] as Lbool;
  }
  /**
   * MiniSat's `setPolarity(v, b)`: the value the next decision on `v` tries first (`negated`: false
   * first). Phase saving overwrites it as the search backtracks over `v`. Never called by `solve`.
   */
  setPolarity(v: number, negated: boolean): void {
    if (!(v >= 0 && v < this.nv)) throw new RangeError(`setPolarity: variable ${v} does not exist`);
    this.polarity[v] = negated ? 1 : 0;
  }
  /**
   * MiniSat's `setDecisionVar(v, b)`: whether the search may branch on `v` (default true). With
   * some variables excluded, a SAT answer may leave them unassigned in the model: the caller must
   * know that the decision variables determine the rest. Never called by `solve`.
   */
  setDecisionVar(v: number, decision: boolean): void {
    if (!(v >= 0 && v < this.nv)) throw new RangeError(`setDecisionVar: variable ${v} does not exist`);
    this.decisionVar[v] = decision ? 1 : 0;
    this.insertVarOrder(v);
  }
  /** Value of a variable in the last model: 1 true, -1 false, 0 unassigned. */
  modelValue(v: number): Lbool {
    return this.model[v] as Lbool;
  }

  private growVars(need: number, caLen = this.ca.length, wpLen = this.wpool.length || 1 << 12): void {
    if (need <= this.varCap) return;
    let cap = Math.max(16, this.varCap * 2);
    while (cap < need) cap *= 2;
    const gu8 = (a: Uint8Array, n: number) => { const b = new Uint8Array(n); b.set(a); return b; };
    this.relayout(cap, caLen, wpLen);
    this.dirty = gu8(this.dirty, 2 * cap);
    this.varCap = cap;
  }

  /** Adds a variable (polarity: saved phase starts negative, as MiniSat's default `newVar(true, true)`). */
  newVar(): number {
    const v = this.nv++;
    this.growVars(this.nv);
    this.wsLen[2 * v] = 0;
    this.wsLen[2 * v + 1] = 0;
    this.wCap[2 * v] = 0;
    this.wCap[2 * v + 1] = 0;
    this.val[2 * v] = 0;
    this.val[2 * v + 1] = 0;
    this.reason[v] = -1;
    this.level[v] = 0;
    this.activity[v] = 0;
    this.seen[v] = 0;
    this.polarity[v] = 1;
    this.decisionVar[v] = 1;
    this.heapIdx[v] = -1;
    this.insertVarOrder(v);
    return v;
  }

  // ---- heap on activity (MiniSat's Heap<VarOrderLt>) ----
  private percolateUp(i: number): void {
    const heap = this.heap, idx = this.heapIdx, act = this.activity;
    const x = heap[i];
    const ax = act[x];
    let p = (i - 1) >> 1;
    while (i !== 0 && ax > act[heap[p]]) {
      heap[i] = heap[p];
      idx[heap[p]] = i;
      i = p;
      p = (p - 1) >> 1;
    }
    heap[i] = x;
    idx[x] = i;
  }
  private percolateDown(i: number): void {
    const heap = this.heap, idx = this.heapIdx, act = this.activity, n = this.heapLen;
    const x = heap[i];
    const ax = act[x];
    while (2 * i + 1 < n) {
      const l = 2 * i + 1, r = l + 1;
      const child = r < n && act[heap[r]] > act[heap[l]] ? r : l;
      if (!(act[heap[child]] > ax)) break;
      heap[i] = heap[child];
      idx[heap[i]] = i;
      i = child;
    }
    heap[i] = x;
    idx[x] = i;
  }
  private heapInsert(v: number): void {
    this.heapIdx[v] = this.heapLen;
    this.heap[this.heapLen++] = v;
    this.percolateUp(this.heapIdx[v]);
  }
  private insertVarOrder(v: number): void {
    if (this.heapIdx[v] < 0 && this.decisionVar[v]) this.heapInsert(v);
  }
  private rebuildOrderHeap(): void {
    for (let i = 0; i < this.heapLen; i++) this.heapIdx[this.heap[i]] = -1;
    this.heapLen = 0;
    for (let v = 0; v < this.nv; v++) {
      if (this.decisionVar[v] && this.val[2 * v] === 0) {
        this.heapIdx[v] = this.heapLen;
        this.heap[this.heapLen++] = v;
      }
    }
    for (let i = (this.heapLen >> 1) - 1; i >= 0; i--) this.percolateDown(i);
  }

  // ---- activities ----
  private claBumpActivity(cr: number): void {
    const caf = this.caf;
    const a = (caf[cr - 1] = Math.fround(caf[cr - 1] + this.claInc));
    if (a > 1e20) this.rescaleClauseActivities();
  }
  /** All learnt clauses' activities and claInc times 1e-20 (also called from the wasm analyze, which reads claInc back at byte 40). */
  private rescaleClauseActivities(): void {
    const caf = this.caf, learnts = this.learnts;
    for (let i = 0; i < learnts.length; i++) caf[learnts[i] - 1] = Math.fround(caf[learnts[i] - 1] * 1e-20);
    this.claInc *= 1e-20;
    this.hdrF[5] = this.claInc;
  }

  // ---- clause arena ----
  private allocClause(lits: Int32Array, n: number, learnt: boolean): number {
    if (this.caTop + 2 + n > this.ca.length) {
      let cap = this.ca.length * 2;
      while (cap < this.caTop + 2 + n) cap *= 2;
      this.relayout(this.varCap, cap, this.wpool.length);
    }
    const cr = learnt ? this.caTop + 1 : this.caTop;
    const ca = this.ca;
    if (learnt) this.caf[cr - 1] = 0;
    ca[cr] = (n << 3) | (learnt ? LEARNT : 0);
    for (let i = 0; i < n; i++) ca[cr + HDR + i] = lits[i];
    this.caTop = cr + HDR + n;
    return cr;
  }
  private pushWatch(p: number, cr: number, blocker: number): void {
    const n = this.wsLen[p] << 1;
    if (n + 2 > this.wCap[p]) this.growWatchList(p);
    const o = this.wOff[p] + n;
    this.wpool[o] = cr;
    this.wpool[o + 1] = blocker;
    this.wsLen[p]++;
  }
  /** Moves literal p's watch list to the end of the pool with twice the room (the pool grows as needed; offsets stay valid). */
  private growWatchList(p: number): void {
    const cap = Math.max(8, this.wCap[p] << 1);
    if (this.wpoolTop + cap > this.wpool.length) {
      let size = this.wpool.length << 1;
      while (size < this.wpoolTop + cap) size <<= 1;
      this.relayout(this.varCap, this.ca.length, size);
    }
    const from = this.wOff[p];
    const to = this.wpoolTop;
    this.wpool.copyWithin(to, from, from + (this.wsLen[p] << 1));
    this.wpoolWasted += this.wCap[p];
    this.wOff[p] = to;
    this.wCap[p] = cap;
    this.wpoolTop += cap;
  }
  /** Squeezes the holes out of the watch pool (every list keeps its order). Not during a propagation. */
  private compactWatches(): void {
    const old = this.wpool;
    let need = 0;
    for (let p = 0; p < 2 * this.nv; p++) need += Math.max(this.wsLen[p] << 1, this.wCap[p] >> 1);
    const pool = new Int32Array(Math.max(1 << 12, need * 2));
    let top = 0;
    for (let p = 0; p < 2 * this.nv; p++) {
      const n = this.wsLen[p] << 1;
      const cap = Math.max(n, this.wCap[p] >> 1);
      pool.set(old.subarray(this.wOff[p], this.wOff[p] + n), top);
      this.wOff[p] = top;
      this.wCap[p] = cap;
      top += cap;
    }
    old.set(pool.subarray(0, top));
    this.wpoolTop = top;
    this.wpoolWasted = 0;
  }
  private attachClause(cr: number): void {
    const ca = this.ca;
    const c0 = ca[cr + HDR], c1 = ca[cr + HDR + 1];
    this.pushWatch(c0 ^ 1, cr, c1);
    this.pushWatch(c1 ^ 1, cr, c0);
    if (ca[cr] & LEARNT) this.learntsLiterals += ca[cr] >> 3;
    else this.clausesLiterals += ca[cr] >> 3;
  }
  /** Lazy detach (MiniSat's `watches.smudge`): the watchers go at the next `cleanAll`. */
  private detachClause(cr: number): void {
    const ca = this.ca;
    const a = ca[cr + HDR] ^ 1, b = ca[cr + HDR + 1] ^ 1;
    if (!this.dirty[a]) { this.dirty[a] = 1; this.dirties.push(a); }
    if (!this.dirty[b]) { this.dirty[b] = 1; this.dirties.push(b); }
    if (ca[cr] & LEARNT) this.learntsLiterals -= ca[cr] >> 3;
    else this.clausesLiterals -= ca[cr] >> 3;
  }
  private locked(cr: number): boolean {
    const c0 = this.ca[cr + HDR];
    return this.val[c0] === 1 && this.reason[c0 >> 1] === cr;
  }
  private removeClause(cr: number): void {
    this.detachClause(cr);
    if (this.locked(cr)) this.reason[this.ca[cr + HDR] >> 1] = -1;
    this.caWasted += HDR + (this.ca[cr] >> 3) + (this.ca[cr] & LEARNT);
    this.ca[cr] |= DELETED;
  }
  private cleanAll(): void {
    const dirties = this.dirties;
    if (dirties.length === 0) return;
    const ca = this.ca;
    for (let d = 0; d < dirties.length; d++) {
      const p = dirties[d];
      const ws = this.wpool;
      const off = this.wOff[p];
      const n = off + (this.wsLen[p] << 1);
      let j = off;
      for (let i = off; i < n; i += 2) {
        if (!(ca[ws[i]] & DELETED)) {
          ws[j] = ws[i];
          ws[j + 1] = ws[i + 1];
          j += 2;
        }
      }
      this.wsLen[p] = (j - off) >> 1;
      this.dirty[p] = 0;
    }
    dirties.length = 0;
  }
  private satisfied(cr: number): boolean {
    const ca = this.ca, val = this.val;
    const end = cr + HDR + (ca[cr] >> 3);
    for (let k = cr + HDR; k < end; k++) if (val[ca[k]] === 1) return true;
    return false;
  }

  /** Compacts the arena; every order (watchers, clause lists) is kept, so the search is unchanged. */
  private garbageCollect(): void {
    this.cleanAll();
    const old = this.ca;
    const oldf = this.caf;
    // Compacted into a spare buffer (kept for the next collection), then copied back into the arena.
    if (this.spareCa.length !== old.length) {
      this.spareCa = new Int32Array(old.length);
      this.spareCaf = new Float32Array(this.spareCa.buffer);
    }
    const to = this.spareCa;
    const tof = this.spareCaf;
    let top = 0;
    const reloc = (cr: number): number => {
      const h = old[cr];
      if (h & RELOCED) return old[cr + 1]; // the new place, written over the first literal
      const n = h >> 3;
      if (h & LEARNT) tof[top++] = oldf[cr - 1];
      to[top] = h;
      for (let i = 0; i < n; i++) to[top + HDR + i] = old[cr + HDR + i];
      old[cr] = h | RELOCED;
      old[cr + 1] = top;
      const nr = top;
      top += HDR + n;
      return nr;
    };
    for (let i = 0; i < this.learnts.length; i++) this.learnts[i] = reloc(this.learnts[i]);
    for (let i = 0; i < this.clauses.length; i++) this.clauses[i] = reloc(this.clauses[i]);
    for (let p = 0; p < 2 * this.nv; p++) {
      const ws = this.wpool;
      const off = this.wOff[p];
      const n = off + (this.wsLen[p] << 1);
      for (let i = off; i < n; i += 2) ws[i] = old[ws[i] + 1];
    }
    // Reasons of assigned variables move with their clauses; unassigned variables have none.
    const seen = this.seen; // all 0 between conflicts; borrowed as "on the trail"
    for (let i = 0; i < this.trailLen; i++) {
      const v = this.trail[i] >> 1;
      seen[v] = 1;
      const r = this.reason[v];
      if (r >= 0) this.reason[v] = old[r] & RELOCED ? old[r + 1] : -1;
    }
    for (let v = 0; v < this.nv; v++) {
      if (!seen[v]) this.reason[v] = -1;
      seen[v] = 0;
    }
    old.set(to.subarray(0, top));
    this.caTop = top;
    this.caWasted = 0;
  }
  private checkGarbage(): void {
    if (this.caWasted > this.caTop * this.garbageFrac) this.garbageCollect();
  }

  // ---- assignment ----
  private uncheckedEnqueue(p: number, from: number): void {
    const v = p >> 1;
    this.val[p] = 1;
    this.val[p ^ 1] = -1;
    this.level[v] = this.trailLimLen;
    this.reason[v] = from;
    this.trail[this.trailLen++] = p;
  }
  private newDecisionLevel(): void {
    if (this.trailLimLen === this.trailLim.length) {
      const b = new Int32Array(this.trailLim.length * 2);
      b.set(this.trailLim);
      this.trailLim = b;
    }
    this.trailLim[this.trailLimLen++] = this.trailLen;
  }
  private cancelUntil(lvl: number): void {
    if (this.trailLimLen > lvl) {
      const lim = this.trailLim[lvl];
      // Unassign trail[trailLen-1 .. lim], save phases, reinsert decision variables into the heap (in wasm).
      this.heapLen = this.cancelW(lim, this.trailLen, this.heapLen);
      this.qhead = lim;
      this.trailLen = lim;
      this.trailLimLen = lvl;
    }
  }

  /**
   * Adds a clause of internal literals at level 0: sorted, duplicates and false literals dropped,
   * satisfied or tautological clauses ignored, units enqueued and propagated at once.
   * Returns false when the formula became unsatisfiable.
   */
  addClause(lits: ArrayLike<number>, length = lits.length): boolean {
    if (!this.ok) return false;
    const n = length;
    if (this.addTmp.length < n) this.addTmp = new Int32Array(n * 2);
    const ps = this.addTmp;
    for (let i = 0; i < n; i++) {
      const p = lits[i];
      if (!(p >= 0 && (p >> 1) < this.nv)) throw new RangeError(`addClause: literal ${p} names no variable (have ${this.nv})`);
      ps[i] = p;
    }
    // Sort ascending (insertion sort: clauses are short; equal literals are indistinguishable, so any sort gives MiniSat's result).
    for (let i = 1; i < n; i++) {
      const x = ps[i];
      let k = i - 1;
      while (k >= 0 && ps[k] > x) {
        ps[k + 1] = ps[k];
        k--;
      }
      ps[k + 1] = x;
    }
    const val = this.val;
    let j = 0;
    let prev = -1;
    for (let i = 0; i < n; i++) {
      const p = ps[i];
      if (val[p] === 1 || p === (prev ^ 1)) return true;
      if (val[p] !== -1 && p !== prev) ps[j++] = prev = p;
    }
    if (j === 0) return (this.ok = false);
    if (j === 1) {
      this.uncheckedEnqueue(ps[0], -1);
      return (this.ok = this.propagate() < 0);
    }
    const cr = this.allocClause(ps, j, false);
    this.clauses.push(cr);
    this.attachClause(cr);
    return true;
  }

  /**
   * propagate: all enqueued facts, by two watched literals. Returns the conflicting clause or -1.
   * Post-condition: the queue is empty, even after a conflict (the literals left in it are not
   * counted as propagations, as in MiniSat).
   */
  propagate(): number {
    if (this.dirties.length > 0) this.cleanAll();
    if (this.wpoolWasted > this.wpoolTop >> 1 && this.wpoolTop > 1 << 12) this.compactWatches();
    for (;;) {
      const hdr = this.hdr;
      hdr[3] = this.wpoolTop;
      hdr[4] = this.wpoolWasted;
      hdr[5] = this.wpool.length;
      const confl = this.prop(this.qhead, this.trailLen, this.trailLimLen);
      const numProps = hdr[2];
      this.qhead = hdr[0];
      this.trailLen = hdr[1];
      this.wpoolTop = hdr[3];
      this.wpoolWasted = hdr[4];
      this.propagations += numProps;
      this.simpDBProps -= numProps;
      if (confl !== -2) return confl;
      // The watch pool is full: enlarge it and carry on where propagation stopped.
      this.relayout(this.varCap, this.ca.length, this.wpool.length << 1);
    }
  }

  /** First-UIP conflict analysis with recursive minimisation (in wasm: wasmKernels.ts); fills `learnt`, returns the backtrack level. */
  private analyze(confl: number): number {
    const bt = this.analyzeW(confl, this.trailLen, this.trailLimLen, this.nv, this.varInc, this.claInc);
    this.learntLen = this.hdr[0];
    this.varInc = this.hdrF[4];
    return bt;
  }

  /** The assumptions responsible for `p` being false (MiniSat's analyzeFinal), into `conflict`. */
  private analyzeFinal(p: number): void {
    const out = [p];
    this.conflict = out;
    if (this.trailLimLen === 0) return;
    const seen = this.seen;
    seen[p >> 1] = 1;
    for (let i = this.trailLen - 1; i >= this.trailLim[0]; i--) {
      const x = this.trail[i] >> 1;
      if (seen[x]) {
        const r = this.reason[x];
        if (r < 0) out.push(this.trail[i] ^ 1);
        else {
          const size = this.ca[r] >> 3;
          for (let j = 1; j < size; j++) {
            const v = this.ca[r + HDR + j] >> 1;
            if (this.level[v] > 0) seen[v] = 1;
          }
        }
        seen[x] = 0;
      }
    }
    seen[p >> 1] = 0;
  }

  private drand(): number {
    this.randomSeed *= 1389796;
    const q = Math.trunc(this.randomSeed / 2147483647);
    this.randomSeed -= q * 2147483647;
    return this.randomSeed / 2147483647;
  }

  private pickBranchLit(): number {
    let next = -1;
    if (this.drand() < this.randomVarFreq && this.heapLen > 0) {
      next = this.heap[Math.trunc(this.drand() * this.heapLen)];
      if (this.val[2 * next] === 0 && this.decisionVar[next]) this.rndDecisions++;
    }
    // while (next === -1 || val[2 * next] !== 0 || !decisionVar[next]) take the heap's top (-1 when empty), in wasm
    next = this.pickW(next, this.heapLen);
    this.heapLen = this.hdr[0];
    return next === -1 ? -1 : next + next + this.polarity[next];
  }

  // ---- clause database ----
  /**
   * MiniSat's mtl/Sort.h `sort` of the learnt list by reduceDB_lt (selection sort up to 15 elements,
   * else quicksort on the middle pivot), in wasm on a copy placed in the watch pool's free tail.
   */
  private sortLearnts(a: number[]): void {
    const n = a.length;
    if (this.wpool.length - this.wpoolTop < n) {
      let size = this.wpool.length << 1;
      while (size - this.wpoolTop < n) size <<= 1;
      this.relayout(this.varCap, this.ca.length, size);
    }
    const buf = this.wpool;
    const top = this.wpoolTop;
    for (let i = 0; i < n; i++) buf[top + i] = a[i];
    this.sortW(this.hdr[BASE_SLOTS.wp >> 2] + 4 * top, n);
    for (let i = 0; i < n; i++) a[i] = buf[top + i];
  }
  private reduceDB(): void {
    const learnts = this.learnts;
    const extraLim = this.claInc / learnts.length;
    this.sortLearnts(learnts);
    const half = Math.trunc(learnts.length / 2);
    let j = 0;
    for (let i = 0; i < learnts.length; i++) {
      const cr = learnts[i];
      if (this.ca[cr] >> 3 > 2 && !this.locked(cr) && (i < half || this.caf[cr - 1] < extraLim)) this.removeClause(cr);
      else learnts[j++] = cr;
    }
    learnts.length = j;
    this.checkGarbage();
  }
  private removeSatisfied(cs: number[]): void {
    let j = 0;
    for (let i = 0; i < cs.length; i++) {
      if (this.satisfied(cs[i])) this.removeClause(cs[i]);
      else cs[j++] = cs[i];
    }
    cs.length = j;
  }

  /** Level-0 simplification: propagate, then (when something changed) drop satisfied clauses and rebuild the order heap. */
  simplify(): boolean {
    if (!this.ok || this.propagate() >= 0) return (this.ok = false);
    if (this.trailLen === this.simpDBAssigns || this.simpDBProps > 0) return true;
    this.removeSatisfied(this.learnts);
    this.removeSatisfied(this.clauses);
    this.checkGarbage();
    this.rebuildOrderHeap();
    this.simpDBAssigns = this.trailLen;
    this.simpDBProps = this.clausesLiterals + this.learntsLiterals;
    return true;
  }

  private withinBudget(): boolean {
    return (this.conflictBudget < 0 || this.conflicts < this.conflictBudget) && (this.propagationBudget < 0 || this.propagations < this.propagationBudget);
  }

  /** search: CDCL until a model, a refutation, or `nofConflicts` conflicts (then back to level 0, UNDEF). */
  private search(nofConflicts: number): Lbool {
    let conflictC = 0;
    this.starts++;
    for (;;) {
      const confl = this.propagate();
      if (confl >= 0) {
        this.conflicts++;
        conflictC++;
        if (this.trailLimLen === 0) return L_FALSE;
        const bt = this.analyze(confl);
        this.cancelUntil(bt);
        if (this.learntLen === 1) {
          this.uncheckedEnqueue(this.learnt[0], -1);
        } else {
          const cr = this.allocClause(this.learnt, this.learntLen, true);
          this.learnts.push(cr);
          this.attachClause(cr);
          this.claBumpActivity(cr);
          this.uncheckedEnqueue(this.learnt[0], cr);
        }
        this.varInc *= 1 / this.varDecay;
        this.claInc *= 1 / this.clauseDecay;
        if (--this.learntsizeAdjustCnt === 0) {
          this.learntsizeAdjustConfl *= this.learntsizeAdjustInc;
          this.learntsizeAdjustCnt = Math.trunc(this.learntsizeAdjustConfl);
          this.maxLearnts *= this.learntsizeInc;
        }
      } else {
        if ((nofConflicts >= 0 && conflictC >= nofConflicts) || !this.withinBudget()) {
          this.cancelUntil(0);
          return L_UNDEF;
        }
        if (this.trailLimLen === 0 && !this.simplify()) return L_FALSE;
        if (this.learnts.length - this.trailLen >= this.maxLearnts) this.reduceDB();
        let next = -1;
        while (this.trailLimLen < this.assumptions.length) {
          const p = this.assumptions[this.trailLimLen];
          if (this.val[p] === 1) this.newDecisionLevel();
          else if (this.val[p] === -1) {
            this.analyzeFinal(p ^ 1);
            return L_FALSE;
          } else {
            next = p;
            break;
          }
        }
        if (next === -1) {
          this.decisions++;
          next = this.pickBranchLit();
          if (next === -1) return L_TRUE;
        }
        this.newDecisionLevel();
        this.uncheckedEnqueue(next, -1);
      }
    }
  }

  /**
   * Solves under the given assumptions (internal literals). With a conflict budget, stops with
   * UNDEF once that many more conflicts have been met (MiniSat's `setConfBudget` + `solveLimited`).
   */
  solveLimited(assumptions: ArrayLike<number> = [], conflictBudget = -1): Lbool {
    this.assumptions = Array.from(assumptions);
    for (const p of this.assumptions) if (!(p >= 0 && (p >> 1) < this.nv)) throw new RangeError(`assumption ${p} names no variable`);
    this.conflictBudget = conflictBudget >= 0 ? this.conflicts + conflictBudget : -1;
    this.propagationBudget = -1;
    this.model = new Int8Array(0);
    this.conflict = [];
    if (!this.ok) return L_FALSE;
    this.solves++;
    this.maxLearnts = this.clauses.length * this.learntsizeFactor;
    this.learntsizeAdjustConfl = this.learntsizeAdjustStartConfl;
    this.learntsizeAdjustCnt = Math.trunc(this.learntsizeAdjustConfl);
    let status: Lbool = L_UNDEF;
    let currRestarts = 0;
    while (status === L_UNDEF) {
      const restBase = luby(this.restartInc, currRestarts);
      status = this.search(Math.trunc(restBase * this.restartFirst));
      if (!this.withinBudget()) break;
      currRestarts++;
    }
    if (status === L_TRUE) {
      this.model = new Int8Array(this.nv);
      for (let v = 0; v < this.nv; v++) this.model[v] = this.val[2 * v];
    } else if (status === L_FALSE && this.conflict.length === 0) this.ok = false;
    this.cancelUntil(0);
    this.assumptions = [];
    return status;
  }

  /** MiniSat's `solve(assumps)`: no budget; true when satisfiable. */
  solve(assumptions: ArrayLike<number> = []): boolean {
    return this.solveLimited(assumptions, -1) === L_TRUE;
  }
}

export type SatResult = 'SAT' | 'UNSAT' | 'UNKNOWN';

export interface SolveCnfOptions extends SolverOptions {
  /** Stop after this many conflicts with UNKNOWN. */
  conflictBudget?: number;
  /** DIMACS literals assumed true for this solve. */
  assumptions?: number[];
}

export interface SolveCnfResult {
  result: SatResult;
  stats: SolverStats;
  /** model[i] is the value of DIMACS variable i + 1 (present when SAT). */
  model?: boolean[];
}

/** Internal literal of a DIMACS literal (variable v >= 1 becomes solver variable v - 1). */
export const fromDimacs = (l: number): number => (l > 0 ? 2 * (l - 1) : 2 * (-l - 1) + 1);
export const toDimacs = (p: number): number => (p & 1 ? -((p >> 1) + 1) : (p >> 1) + 1);

/**
 * Loads DIMACS clauses into a solver the way PySAT's `minisat22` does: for each clause, create
 * variables up to the largest index it mentions, then `addClause`. Variables never mentioned are
 * never created (the header's count is not used). Returns the solver (possibly already !ok).
 */
export function loadCnf(cnf: { numVars?: number; clauses: number[][] } | FlatCnf, options: SolverOptions = {}): Solver {
  if (isFlat(cnf)) return loadFlatCnf(cnf, options);
  let literals = 0;
  for (const c of cnf.clauses) literals += c.length + HDR + 1;
  const s = new Solver({ capacity: { vars: cnf.numVars, literals }, ...options });
  if (options.minisatBinaryOrder) s.simplify();
  let buf = new Int32Array(16);
  for (const clause of cnf.clauses) {
    if (buf.length < clause.length) buf = new Int32Array(clause.length * 2);
    let maxVar = 0;
    for (let i = 0; i < clause.length; i++) {
      const l = clause[i];
      if (!Number.isInteger(l) || l === 0) throw new RangeError(`clause literal ${l} is not a non-zero integer`);
      const v = Math.abs(l);
      if (v > maxVar) maxVar = v;
      buf[i] = fromDimacs(l);
    }
    while (s.nVars() < maxVar) s.newVar();
    if (!s.addClause(buf, clause.length)) break;
  }
  return s;
}

const isFlat = (cnf: object): cnf is FlatCnf => 'ends' in cnf;

/**
 * `loadCnf` for a flat CNF (see flatCnf.ts): the same variables and clauses in the same order, so
 * the same solver. With `reuse`, that solver is reset and filled instead of a new one being made.
 */
export function loadFlatCnf(cnf: FlatCnf, options: SolverOptions = {}, reuse?: Solver): Solver {
  const literals = cnf.lits.length + (HDR + 1) * cnf.numClauses;
  const capacity = { vars: cnf.numVars, literals };
  const s = reuse ? reuse.reset({ capacity, ...options }) : new Solver({ capacity, ...options });
  if (options.minisatBinaryOrder) s.simplify();
  const { lits, ends } = cnf;
  let buf = new Int32Array(64);
  let start = 0;
  for (let c = 0; c < cnf.numClauses; c++) {
    const end = ends[c];
    const n = end - start;
    if (buf.length < n) buf = new Int32Array(n * 2);
    let maxVar = 0;
    for (let i = 0; i < n; i++) {
      const l = lits[start + i];
      if (l === 0) throw new RangeError('clause literal 0 is not a non-zero integer');
      const v = l < 0 ? -l : l;
      if (v > maxVar) maxVar = v;
      buf[i] = l > 0 ? 2 * (l - 1) : 2 * (-l - 1) + 1;
    }
    start = end;
    while (s.nVars() < maxVar) s.newVar();
    if (!s.addClause(buf, n)) break;
  }
  return s;
}

/** Solves a CNF (DIMACS integers) as PySAT's minisat22 would: add the clauses, then solve. */
export function solveCnf(cnf: { clauses: number[][] } | FlatCnf, options: SolveCnfOptions & { reuse?: Solver } = {}): SolveCnfResult {
  const s = isFlat(cnf) ? loadFlatCnf(cnf, options, options.reuse) : loadCnf(cnf, options);
  const assumptions = (options.assumptions ?? []).map((l) => {
    const v = Math.abs(l);
    while (s.nVars() < v) s.newVar();
    return fromDimacs(l);
  });
  if (options.minisatBinaryOrder && s.ok) s.simplify();
  const status = s.solveLimited(assumptions, options.conflictBudget ?? -1);
  const result: SatResult = status === L_TRUE ? 'SAT' : status === L_FALSE ? 'UNSAT' : 'UNKNOWN';
  const out: SolveCnfResult = { result, stats: s.stats() };
  if (status === L_TRUE) out.model = Array.from(s.model, (x) => x === L_TRUE);
  return out;
}
