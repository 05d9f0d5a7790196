import { describe, expect, it } from 'vitest';
import { bradleyTerry, btContrast, pairsFromRatings } from './bradleyTerry.ts';
import { fixtureCsv, fixtureJson, relClose } from './fixtures/load.ts';
import { numericColumn } from './tidyCsv.ts';

interface RefBt { reference: string; terms: { item: string; estimate: number; se: number }[] }
const ref = fixtureJson<{ citations: RefBt; ratings: RefBt & { n_pairs: number; n_ties: number } }>('bt_reference.json');

describe('bradleyTerry against BradleyTerry2', () => {
  it("citations: log-abilities relative to Biometrika and their SEs", () => {
    const csv = fixtureCsv('citations_pairs.csv');
    const weights = numericColumn(csv, 'weight');
    const fit = bradleyTerry(csv.rows.map((r, i) => ({ winner: r.winner, loser: r.loser, weight: weights[i] })));
    for (const term of ref.citations.terms) {
      const c = btContrast(fit, term.item, 'Biometrika');
      expect(relClose(c.estimate, term.estimate, 1e-4), `${term.item}: ${c.estimate} vs ${term.estimate}`).toBe(true);
      expect(relClose(c.se, term.se, 1e-4), `${term.item} se: ${c.se} vs ${term.se}`).toBe(true);
    }
    // The published values.
    expect(btContrast(fit, 'Comm Statist', 'Biometrika').estimate).toBeCloseTo(-2.9491, 4);
    expect(btContrast(fit, 'JASA', 'Biometrika').estimate).toBeCloseTo(-0.4796, 4);
    expect(btContrast(fit, 'JRSS-B', 'Biometrika').estimate).toBeCloseTo(0.2690, 4);
    expect(fit.items.reduce((s, x) => s + x.log_ability, 0)).toBeCloseTo(0, 10);
    expect(fit.items.find((x) => x.item === 'JRSS-B')!.rank).toBe(1);
    expect(fit.items.find((x) => x.item === 'Comm Statist')!.rank).toBe(4);
  });

  it('ratings: within-participant pairs, ties as half wins', () => {
    const csv = fixtureCsv('ratings.csv');
    const ratings = numericColumn(csv, 'rating');
    const pairs = pairsFromRatings(csv.rows.map((r, i) => ({ participant: r.participant, item: r.item, rating: ratings[i] })));
    expect(pairs).toHaveLength(ref.ratings.n_pairs);
    expect(pairs.filter((p) => p.tie)).toHaveLength(ref.ratings.n_ties);
    const fit = bradleyTerry(pairs);
    for (const term of ref.ratings.terms) {
      const c = btContrast(fit, term.item, ref.ratings.reference);
      expect(relClose(c.estimate, term.estimate, 1e-4), `${term.item}: ${c.estimate} vs ${term.estimate}`).toBe(true);
      expect(relClose(c.se, term.se, 1e-4), `${term.item} se: ${c.se} vs ${term.se}`).toBe(true);
    }
    expect(fit.items.map((x) => x.rank)).toEqual([6, 5, 4, 3, 2, 1]);
  });
});

describe("Davidson's tie model against a direct SciPy maximisation", () => {
  it('ratings.csv pairs: log-abilities, SEs, nu, log-likelihood', () => {
    const dav = fixtureJson<{ items: { item: string; log_ability: number; se: number }[]; nu: number; log_likelihood: number }>('bt_davidson_reference.json');
    const csv = fixtureCsv('ratings.csv');
    const ratings = numericColumn(csv, 'rating');
    const fit = bradleyTerry(pairsFromRatings(csv.rows.map((r, i) => ({ participant: r.participant, item: r.item, rating: ratings[i] }))), { ties: 'davidson' });
    dav.items.forEach((ref, i) => {
      expect(fit.items[i].item).toBe(ref.item);
      expect(relClose(fit.items[i].log_ability, ref.log_ability, 1e-6)).toBe(true);
      expect(relClose(fit.items[i].se, ref.se, 1e-4)).toBe(true);
    });
    expect(relClose(fit.nu!, dav.nu, 1e-6)).toBe(true);
    expect(relClose(fit.log_likelihood, dav.log_likelihood, 1e-10)).toBe(true);
  });
});

describe('bradleyTerry', () => {
  it('refuses a comparison graph that is not connected, naming the groups', () => {
    expect(() => bradleyTerry([{ winner: 'a', loser: 'b' }, { winner: 'b', loser: 'a' }, { winner: 'c', loser: 'd' }, { winner: 'd', loser: 'c' }]))
      .toThrow(/not connected: \{a, b\} is never compared with \{c, d\}/);
  });
  it('refuses an item that never loses (no finite estimate)', () => {
    expect(() => bradleyTerry([{ winner: 'a', loser: 'b' }, { winner: 'a', loser: 'c' }, { winner: 'b', loser: 'c' }, { winner: 'c', loser: 'b' }]))
      .toThrow(/not strongly connected/);
  });
  it('two items: log-odds of the win share, SE from the binomial', () => {
    const fit = bradleyTerry([{ winner: 'a', loser: 'b', weight: 3 }, { winner: 'b', loser: 'a', weight: 1 }]);
    const d = btContrast(fit, 'a', 'b');
    expect(d.estimate).toBeCloseTo(Math.log(3), 10);
    expect(d.se).toBeCloseTo(Math.sqrt(1 / (4 * 0.75 * 0.25)), 8);
  });
  it("Davidson's ties: nu from the tie rate, abilities from wins", () => {
    // Two equal items, 4 wins each way and 4 ties: P(tie) = nu / (2 + nu) = 1/3, so nu = 1.
    const two = [{ winner: 'a', loser: 'b', weight: 4 }, { winner: 'b', loser: 'a', weight: 4 }, { winner: 'a', loser: 'b', weight: 4, tie: true }];
    const fit2 = bradleyTerry(two, { ties: 'davidson' });
    expect(fit2.nu!).toBeCloseTo(1, 6);
    expect(fit2.items[0].log_ability).toBeCloseTo(0, 6);
    // With a third item never tied, the shared nu drops; a and b stay equal, c weaker.
    const pairs = [...two, { winner: 'a', loser: 'c', weight: 6 }, { winner: 'c', loser: 'a', weight: 2 }, { winner: 'b', loser: 'c', weight: 6 }, { winner: 'c', loser: 'b', weight: 2 }];
    const fit = bradleyTerry(pairs, { ties: 'davidson' });
    expect(fit.items[0].log_ability).toBeCloseTo(fit.items[1].log_ability, 6);
    expect(fit.items[2].rank).toBe(3);
    expect(fit.nu!).toBeLessThan(1);
    expect(fit.items.every((x) => x.se > 0)).toBe(true);
    expect(() => bradleyTerry(pairs.filter((p) => !('tie' in p)), { ties: 'davidson' })).toThrow(/at least one tie/);
  });
  it('validates comparisons, naming the field', () => {
    expect(() => bradleyTerry([{ winner: 'a', loser: 'b', weight: -1 }])).toThrow(/comparison 0: weight/);
  });
});

describe('degenerate ratings', () => {
  it('all-identical ratings: every score 0 and every rank tied at 1 (not 1..6 in input order); the analysis names the tie', async () => {
    const { tiedRanks } = await import('../pipeline/analyze.ts');
    const items = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'];
    const rows = Array.from({ length: 12 }, (_, k) => [0, 1, 2].map((j) => ({ participant: `s${k}`, item: items[(k + j) % 6], rating: 3 }))).flat();
    const fit = bradleyTerry(pairsFromRatings(rows));
    for (const i of fit.items) {
      expect(Math.abs(i.log_ability)).toBeLessThan(1e-12);
      expect(i.rank).toBe(1);
    }
    expect(tiedRanks(fit)).toBe('all 6 puzzles have the same score (every comparison a tie or balanced): no ranking; p1, p2, p3, p4, p5, p6 share rank 1'.replace('p1, p2, p3, p4, p5, p6', fit.items.map((i) => i.item).join(', ')));
  });
  it('partly tied scores share the best rank of their group (competition ranking)', async () => {
    const { tiedRanks } = await import('../pipeline/analyze.ts');
    // a beats b and c twice; b and c tie with each other and are symmetric
    const fit = bradleyTerry([
      { winner: 'a', loser: 'b', weight: 2, tie: false }, { winner: 'a', loser: 'c', weight: 2, tie: false },
      { winner: 'b', loser: 'a', weight: 1, tie: false }, { winner: 'c', loser: 'a', weight: 1, tie: false },
      { winner: 'b', loser: 'c', weight: 1, tie: true },
    ]);
    expect(Object.fromEntries(fit.items.map((i) => [i.item, i.rank]))).toEqual({ a: 1, b: 2, c: 2 });
    expect(tiedRanks(fit)).toBe('tied scores: b, c share rank 2');
  });
});
