// Seeded pseudo-random numbers (sfc32 seeded through splitmix32): shared code never calls Math.random.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
}

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** A small fast generator with a 128-bit state; the same seed always gives the same stream. */
export function createRng(seed: number): Rng {
  const mix = splitmix32(Math.floor(seed) ^ Math.floor(seed / 2 ** 32));
  let a = mix(), b = mix(), c = mix(), d = mix();
  const nextU32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) nextU32();
  const next = () => nextU32() / 4294967296;
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
  };
}

/** Fisher-Yates shuffle in place with the given generator. */
export function shuffle<T>(items: T[], rng: Rng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}
