// A CNF in two flat integer arrays (DIMACS literals, clause ends), built without one JS array per clause and loaded straight into the solver.
/*
 * Why: `generate --sat` encodes every puzzle twice (block-start and DFA) and solves each CNF once;
 * with a `number[]` per clause, allocating and collecting thousands of small arrays per puzzle cost
 * more than the solving. The encoders write into a `CnfBuilder` (growable Int32Arrays, reusable
 * between puzzles); `toClauses` gives the classic `number[][]` shape, clause for clause the same.
 */

/** A CNF in DIMACS literals: clause i is lits[ends[i-1] .. ends[i]) (ends[-1] = 0). */
export interface FlatCnf {
  numVars: number;
  numClauses: number;
  lits: Int32Array;
  ends: Int32Array;
}

export class CnfBuilder {
  lits = new Int32Array(1 << 12);
  ends = new Int32Array(1 << 10);
  nLits = 0;
  nClauses = 0;

  /** Empties the builder, keeping its buffers. */
  clear(): this {
    this.nLits = 0;
    this.nClauses = 0;
    return this;
  }
  /** Appends a literal to the clause being built. */
  lit(l: number): void {
    if (this.nLits === this.lits.length) {
      const b = new Int32Array(this.lits.length * 2);
      b.set(this.lits);
      this.lits = b;
    }
    this.lits[this.nLits++] = l;
  }
  /** Ends the clause being built (it may be empty). */
  end(): void {
    if (this.nClauses === this.ends.length) {
      const b = new Int32Array(this.ends.length * 2);
      b.set(this.ends);
      this.ends = b;
    }
    this.ends[this.nClauses++] = this.nLits;
  }
  clause1(a: number): void {
    this.lit(a);
    this.end();
  }
  clause2(a: number, b: number): void {
    this.lit(a);
    this.lit(b);
    this.end();
  }
  clause3(a: number, b: number, c: number): void {
    this.lit(a);
    this.lit(b);
    this.lit(c);
    this.end();
  }
  /** The clauses so far as a FlatCnf (views on the builder's buffers: valid until it is cleared or grows). */
  view(numVars: number): FlatCnf {
    return { numVars, numClauses: this.nClauses, lits: this.lits.subarray(0, this.nLits), ends: this.ends.subarray(0, this.nClauses) };
  }
  /** The clauses so far, one array each. */
  toClauses(): number[][] {
    const out: number[][] = new Array(this.nClauses);
    let start = 0;
    for (let i = 0; i < this.nClauses; i++) {
      const end = this.ends[i];
      const c: number[] = new Array(end - start);
      for (let k = start; k < end; k++) c[k - start] = this.lits[k];
      out[i] = c;
      start = end;
    }
    return out;
  }
}
