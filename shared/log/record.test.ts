// Tests for the log's reader: parseRecord's results and messages, and its move fast path checked against cases generated from the schema.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ClientEvent, ClientStamps, ServerEvent, type LoggedEvent } from '../schema/event.ts';
import { completeLines, isValidClientRecordFast, isValidMoveEvent, isValidMoveRecord, isValidServerRecordFast, isValidStepRecord, parseRecord } from './record.ts';

const T0 = 1_780_000_000_000;

// ---- cases from the schema -------------------------------------------------------------------------------------
//
// The move record's JSON Schema (zod's own export of ClientEvent's move variant with the server's stamps) gives every
// constraint zod checks but its refinements (a stroke's cell_ms, handled by the fixed cases below). From it: one valid
// record per move variant and per enum option, then every record with one value broken at one place, by each rule the
// place has (below a minimum, above a maximum, a fraction for an integer, a string too short or too long or off its
// pattern, an option not in an enum, another constant, an array too short or too long, a property missing, a wrong
// type). A tightened schema changes the JSON Schema, so the cases follow it: the fast path can never stay looser.

type Json = { [k: string]: unknown };
const MOVE_RECORD = (ClientEvent.options.find((o) => o.shape.type.value === 'move') as z.ZodObject).extend(ClientStamps);
const SCHEMA = z.toJSONSchema(MOVE_RECORD, { unrepresentable: 'any' }) as Json;

/** A valid value for a schema (the smallest one it allows); `choice` picks among an enum's options or anyOf/oneOf branches. */
function example(s: Json, choice = 0): unknown {
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[choice % s.enum.length];
  const branches = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (branches) return example(branches[choice % branches.length]);
  switch (s.type) {
    case 'integer':
    case 'number': {
      const lo = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 0;
      return s.type === 'number' && typeof s.maximum === 'number' && lo + 0.5 <= s.maximum ? lo + 0.5 : lo;
    }
    case 'string':
      return 'a'.repeat(Math.max(1, (s.minLength as number | undefined) ?? 1));
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      if (Array.isArray(s.prefixItems)) return (s.prefixItems as Json[]).map((p) => example(p));
      const n = Math.max(1, (s.minItems as number | undefined) ?? 0);
      return Array.from({ length: n }, () => example(s.items as Json));
    }
    case 'object': {
      const out: Json = {};
      for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Json>)) if (((s.required ?? []) as string[]).includes(k)) out[k] = example(v, choice);
      return out;
    }
    default:
      return null;
  }
}

/** Values that break `s` (each one alone makes the schema refuse it). */
function breakers(s: Json): unknown[] {
  const branches = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (branches) {
    // Nullable and union values: a value of a type no branch takes, and each branch's own breakers that no other branch accepts.
    const out: unknown[] = [{ nope: 1 }];
    const allowsNull = branches.some((b) => b.type === 'null');
    for (const b of branches) for (const v of breakers(b)) if (!(v === null && allowsNull) && !branches.some((o) => o !== b && accepts(o, v))) out.push(v);
    return out;
  }
  if (s.const !== undefined) return [`${String(s.const)}x`, null, 7];
  if (Array.isArray(s.enum)) return ['not-an-option', null, 3];
  switch (s.type) {
    case 'integer':
    case 'number': {
      const out: unknown[] = ['1', null, Number.NaN, Infinity, true];
      if (typeof s.minimum === 'number') out.push(s.minimum - 1, s.minimum - 0.001);
      if (typeof s.exclusiveMinimum === 'number') out.push(s.exclusiveMinimum);
      if (typeof s.maximum === 'number') out.push(s.maximum + 1, s.maximum + 0.001);
      if (s.type === 'integer') out.push(((typeof s.minimum === 'number' ? s.minimum : 1) as number) + 0.5);
      return out;
    }
    case 'string': {
      const out: unknown[] = [7, null, ['a']];
      if (typeof s.minLength === 'number' && s.minLength > 0) out.push('');
      if (typeof s.maxLength === 'number') out.push('a'.repeat(s.maxLength + 1));
      if (typeof s.pattern === 'string') out.push('a b', 'a/b', 'ä');
      return out;
    }
    case 'boolean':
      return ['true', 1, null];
    case 'array': {
      const out: unknown[] = ['x', null, { 0: 1 }];
      const good = example(s) as unknown[];
      if (typeof s.minItems === 'number' && s.minItems > 0) out.push(good.slice(0, s.minItems - 1));
      if (typeof s.maxItems === 'number') out.push(Array.from({ length: s.maxItems + 1 }, () => good[0]));
      if (Array.isArray(s.prefixItems)) out.push(good.slice(0, -1), [...good, good[0]]);
      return out;
    }
    case 'object':
      return [null, [], 'x'];
    default:
      return [];
  }
}

/** Whether a value fits a (sub)schema, by zod's own reading of it (used only to keep union breakers honest). */
function accepts(s: Json, v: unknown): boolean {
  return z.fromJSONSchema(s as never).safeParse(v).success;
}

interface Case {
  what: string;
  record: Json;
}

/** Every valid record, and every record broken at one place, from the schema. */
function generate(): { valid: Case[]; broken: Case[] } {
  const valid: Case[] = [];
  const broken: Case[] = [];
  const moveSchemas = (((SCHEMA.properties as Json).payload as Json).properties as Json).move as Json;
  const variants = (moveSchemas.oneOf ?? moveSchemas.anyOf) as Json[];
  const top = SCHEMA.properties as Record<string, Json>;
  const base = (choice: number): Json => {
    const r: Json = {};
    for (const [k, v] of Object.entries(top)) if (k !== 'payload') r[k] = example(v, choice);
    return r;
  };
  variants.forEach((variant, vi) => {
    const enums = Math.max(1, ...Object.values((variant.properties ?? {}) as Record<string, Json>).map((p) => (Array.isArray(p.enum) ? p.enum.length : 1)));
    for (let choice = 0; choice < Math.max(enums, 4); choice++) {
      const move = example(variant, choice) as Json;
      // Optional properties (a stroke's cell_ms) present too: the smallest valid value the refinements allow.
      for (const k of Object.keys((variant.properties ?? {}) as Json)) if (!((variant.required ?? []) as string[]).includes(k) && k === 'cell_ms') move[k] = (move.cells as unknown[]).map(() => 0);
      valid.push({ what: `variant ${vi} choice ${choice}`, record: { ...base(choice), payload: { move } } });
    }
    // Break the move, at each of its properties (and drop each required one).
    const good = example(variant) as Json;
    for (const [k, p] of Object.entries((variant.properties ?? {}) as Record<string, Json>)) {
      for (const v of breakers(p)) broken.push({ what: `move ${String(good.type)}.${k} = ${JSON.stringify(v)}`, record: { ...base(0), payload: { move: { ...good, [k]: v } } } });
      if (p.type === 'array' && p.items) for (const v of breakers(p.items as Json)) broken.push({ what: `move ${String(good.type)}.${k}[0] = ${JSON.stringify(v)}`, record: { ...base(0), payload: { move: { ...good, [k]: [v] } } } });
      if (Array.isArray(p.prefixItems) || (p.items && Array.isArray((p.items as Json).prefixItems))) {
        const tuple = (Array.isArray(p.prefixItems) ? p : (p.items as Json)) as Json;
        (tuple.prefixItems as Json[]).forEach((item, ti) => {
          for (const v of breakers(item)) {
            const cell = (example(tuple) as unknown[]).slice();
            cell[ti] = v;
            broken.push({ what: `move ${String(good.type)}.${k}[0][${ti}] = ${JSON.stringify(v)}`, record: { ...base(0), payload: { move: { ...good, [k]: Array.isArray(p.prefixItems) ? cell : [cell] } } } });
          }
        });
      }
      if (((variant.required ?? []) as string[]).includes(k)) {
        const { [k]: _drop, ...rest } = good;
        broken.push({ what: `move ${String(good.type)} without ${k}`, record: { ...base(0), payload: { move: rest } } });
      }
    }
  });
  // Break the envelope and the stamps, on a fill record.
  const fill = valid[0].record;
  for (const [k, p] of Object.entries(top)) {
    if (k === 'payload') continue;
    for (const v of breakers(p)) broken.push({ what: `${k} = ${JSON.stringify(v)}`, record: { ...fill, [k]: v } });
    const { [k]: _drop, ...rest } = fill;
    broken.push({ what: `without ${k}`, record: rest });
  }
  for (const v of [null, [], 'x', {}, { move: null }]) broken.push({ what: `payload = ${JSON.stringify(v)}`, record: { ...fill, payload: v } });
  return { valid, broken };
}

describe('isValidMoveRecord (the fast path past zod), against cases generated from the schema', () => {
  const { valid, broken } = generate();

  it('generates a real case list: every move variant, hundreds of broken records', () => {
    const types = new Set(valid.map((c) => ((c.record.payload as Json).move as Json).type));
    expect([...types].sort()).toEqual(['clear', 'cross', 'fill', 'hint', 'pencil', 'reset', 'reveal', 'reveal_digit', 'set_digit', 'skip', 'stroke', 'submit', 'undo']);
    expect(broken.length).toBeGreaterThan(250);
    // Among them, the stroke's cells one by one (the tuple's items), and the reveal's state.
    expect(broken.some((c) => c.what.startsWith('move stroke.cells[0][1] = 100'))).toBe(true);
    expect(broken.some((c) => c.what === 'move reveal.state = "not-an-option"')).toBe(true);
    expect(broken.some((c) => c.what.startsWith('move set_digit.digit'))).toBe(true);
  });

  it('accepts every valid record (so zod is skipped), and zod agrees', () => {
    for (const c of valid) {
      expect(MOVE_RECORD.safeParse(c.record).success, `zod: ${c.what} ${JSON.stringify(c.record)}`).toBe(true);
      expect(isValidMoveRecord(c.record), `${c.what} ${JSON.stringify(c.record)}`).toBe(true);
    }
  });

  it('never accepts a record the schema refuses', () => {
    let refused = 0;
    for (const c of broken) {
      if (MOVE_RECORD.safeParse(c.record).success) continue; // (a breaker that happens to fit, e.g. an optional property dropped)
      refused++;
      expect(isValidMoveRecord(c.record), c.what).toBe(false);
      // The same test before the server's stamps (stampClient's fast path) is never looser either.
      const { origin: _o, t_server: _t, config_hash: _c, app_version: _a, ...event } = c.record;
      if (!ClientEvent.safeParse(event).success) expect(isValidMoveEvent(event), c.what).toBe(false);
    }
    expect(refused).toBeGreaterThan(250);
  });

  it('never accepts what the refinements refuse (cell_ms: one offset per cell, <= 0, not decreasing)', () => {
    const stroke = (cell_ms: unknown) => ({ ...valid[0].record, payload: { move: { type: 'stroke', state: 'filled', cells: [[0, 0], [0, 1]], cell_ms } } });
    for (const ms of [[-10], [-10, 5], [-10, -20], [-10, '0'], 'x', [-700_000, -1]]) {
      expect(MOVE_RECORD.safeParse(stroke(ms)).success, JSON.stringify(ms)).toBe(false);
      expect(isValidMoveRecord(stroke(ms)), JSON.stringify(ms)).toBe(false);
    }
    expect(isValidMoveRecord(stroke([-40.5, 0]))).toBe(true);
  });
});

describe('parseRecord', () => {
  const stamps = { origin: 'client', t_server: T0 + 5, config_hash: 'h', app_version: '0.1.0' };
  const envelope = { session_id: 's1', seq: 3, step: 4, phase: 'puzzles', puzzle_id: 'p3', position: 1, t_mono: 10.5, t_wall: T0, source: 'mouse' };

  it('gives a valid record back as written, stamps included', () => {
    const raw = { ...envelope, ...stamps, type: 'rating', payload: { difficulty: 3, guessing: 'Rarely' } };
    const parsed = parseRecord(raw);
    expect(parsed).toEqual({ kind: 'event', event: raw });
    const e = (parsed as { event: LoggedEvent }).event;
    expect(e.origin === 'client' && e.type === 'rating' ? e.payload.difficulty : null).toBe(3);
    const mark = { session_id: 's1', origin: 'server', t_server: T0, config_hash: 'h', app_version: 'v', type: 'session_mark', payload: { mark: 'pilot', by: 'experimenter' } };
    expect(parseRecord(mark)).toEqual({ kind: 'event', event: mark });
  });

  it('names the field of a bad record, with or without full validation', () => {
    expect(parseRecord({ ...envelope, ...stamps, type: 'move', payload: { move: { type: 'fill', row: 100, col: 0 } } })).toMatchObject({ kind: 'error', message: expect.stringMatching(/^client event 'move': .*row/) });
    expect(parseRecord({ ...envelope, ...stamps, type: 'consent', payload: { agreed: 'yes' } }, { validate: false })).toEqual({ kind: 'error', message: "client event 'consent': payload.agreed: expected a boolean" });
    expect(parseRecord({ ...envelope, ...stamps, seq: 0, type: 'focus', payload: { focused: true } }, { validate: false })).toMatchObject({ kind: 'error', message: expect.stringContaining('seq') });
    const mark = { session_id: 's1', origin: 'server', t_server: T0, config_hash: 'h', app_version: 'v', type: 'session_mark', payload: { mark: 'vip' } };
    expect(parseRecord(mark)).toMatchObject({ kind: 'error', message: expect.stringMatching(/^server event 'session_mark': .*mark/) });
    expect(parseRecord(mark, { validate: false })).toMatchObject({ kind: 'error', message: expect.stringContaining('payload.mark') });
    expect(parseRecord([])).toEqual({ kind: 'error', message: 'a record must be a JSON object' });
    expect(parseRecord({ session_id: 's1' })).toEqual({ kind: 'error', message: 't_server: missing or not a number' });
    expect(parseRecord({ session_id: 's1', t_server: 1, origin: 'elsewhere' })).toEqual({ kind: 'error', message: `origin: expected 'client' or 'server', got "elsewhere"` });
  });

  it('leaves a server record of a type it does not know to the caller (a newer log), rather than failing', () => {
    const raw = { session_id: 's1', origin: 'server', t_server: T0, type: 'future_note', payload: {} };
    expect(parseRecord(raw)).toEqual({ kind: 'unknown', type: 'future_note', record: raw });
  });
});

describe('isValidStepRecord (the fast path past zod for step_start and step_end records)', () => {
  const base = {
    session_id: 's1', seq: 3, step: 4, phase: 'puzzles', puzzle_id: 'p3', position: 1, t_mono: 10.5, t_wall: T0, source: 'system',
    origin: 'client', t_server: T0 + 5, config_hash: 'h', app_version: '0.1.0',
  };
  const good = [
    { type: 'step_start', payload: { kind: 'puzzle' } },
    { type: 'step_start', payload: { kind: 'x'.repeat(32) } },
    ...['done', 'solved', 'skipped', 'timeout', 'declined', 'screened_out'].map((reason) => ({ type: 'step_end', payload: { kind: 'puzzle', reason } })),
    { type: 'step_end', puzzle_id: null, position: null, payload: { kind: 'consent', reason: 'done' } },
  ];
  const bad: Record<string, unknown>[] = [
    { type: 'step_start', payload: { kind: 'x'.repeat(33) } }, { type: 'step_start', payload: {} }, { type: 'step_start', payload: { kind: 3 } },
    { type: 'step_start', payload: null }, { type: 'step_end', payload: { kind: 'puzzle' } }, { type: 'step_end', payload: { kind: 'puzzle', reason: 'quit' } },
    { type: 'step_start', seq: 0, payload: { kind: 'puzzle' } }, { type: 'step_start', step: -1, payload: { kind: 'puzzle' } },
    { type: 'step_start', source: 'pen', payload: { kind: 'puzzle' } }, { type: 'step_start', t_wall: 1, payload: { kind: 'puzzle' } },
    { type: 'step_start', phase: 'a b', payload: { kind: 'puzzle' } }, { type: 'step_start', position: 0, payload: { kind: 'puzzle' } },
    { type: 'step_start', t_mono: -1, payload: { kind: 'puzzle' } }, { type: 'step_end', session_id: '', payload: { kind: 'puzzle', reason: 'done' } },
  ];
  it('accepts every valid step record (so zod is skipped) and zod agrees', () => {
    for (const g of good) {
      const r = { ...base, ...g };
      expect(isValidStepRecord(r), JSON.stringify(g)).toBe(true);
      expect(ClientEvent.safeParse(r).success, JSON.stringify(g)).toBe(true);
    }
  });
  it('never accepts a record zod rejects, nor a record of another type', () => {
    for (const b of bad) {
      const r = { ...base, ...b };
      expect(isValidStepRecord(r), JSON.stringify(b)).toBe(false);
      expect(ClientEvent.safeParse(r).success, JSON.stringify(b)).toBe(false);
    }
    expect(isValidStepRecord({ ...base, type: 'consent', payload: { agreed: true } })).toBe(false);
    expect(isValidStepRecord({ ...base, ...good[0], origin: 'server' })).toBe(false);
  });
});

describe('isValidStepRecord against the generated envelope breakers', () => {
  const { broken } = generate();
  const STEP_RECORD = ClientEvent.and(z.object(ClientStamps));
  it('never accepts a step record whose envelope or stamps the schema refuses', () => {
    let refused = 0;
    for (const c of broken) {
      if (c.what.startsWith('move ') || c.what.startsWith('payload')) continue; // (payload breakers are move-specific)
      for (const step of [{ type: 'step_start', payload: { kind: 'puzzle' } }, { type: 'step_end', payload: { kind: 'puzzle', reason: 'solved' } }]) {
        const r = { ...c.record, ...step };
        if (STEP_RECORD.safeParse(r).success) continue;
        refused++;
        expect(isValidStepRecord(r), `${step.type}: ${c.what}`).toBe(false);
      }
    }
    expect(refused).toBeGreaterThan(40);
  });
});

describe('isValidClientRecordFast and isValidServerRecordFast (fast paths past zod for the other frequent records)', () => {
  const base = {
    session_id: 's1', seq: 3, step: 4, phase: 'puzzles', puzzle_id: 'p3', position: 1, t_mono: 10.5, t_wall: T0, source: 'mouse',
    origin: 'client', t_server: T0 + 5, config_hash: 'h', app_version: '0.1.0',
  };
  const server = { type: 'check', session_id: 's1', origin: 'server', t_server: T0, config_hash: 'h', app_version: '0.1.0' };
  const checkPayload = { puzzle_id: 'p3', position: 2, solved: false, wrong_cells: 3 };
  const good = [
    { type: 'submit_result', payload: { solved: true } },
    { type: 'submit_result', payload: { solved: false, extra: 1 } },
    ...[null, 1, 2, 3, 4, 5].map((difficulty) => ({ type: 'rating', payload: { difficulty, guessing: 'Never' } })),
    { type: 'rating', payload: { difficulty: 3, guessing: 'g'.repeat(200) } },
    { type: 'rating', payload: { difficulty: 3, guessing: '' } },
    { type: 'rating_revise', payload: { rated_puzzle_id: 'p1', from: 2, to: 4 } }, { type: 'rating_revise', payload: { rated_puzzle_id: 'p1', from: null, to: null } },
    { type: 'consent', payload: { agreed: false } }, { type: 'hint_shown', payload: { row: 0, col: 9, explanation: 'because' } },
    { type: 'client_start', payload: { user_agent: 'UA', width: 1280.5, height: 720, page_id: 'pg' } },
    { type: 'survey_submit', payload: { survey_id: 'pre', answers: {} } },
    { type: 'survey_submit', payload: { survey_id: 'pre', answers: { a: 3, b: 'text', c: ['x', 'y'], d: null, why_p1: 'x'.repeat(20_000), e: [] } } },
  ];
  const bad: Record<string, unknown>[] = [
    { type: 'submit_result', payload: {} }, { type: 'submit_result', payload: { solved: 1 } }, { type: 'submit_result', payload: null },
    { type: 'submit_result', payload: [true] }, { type: 'rating', payload: { difficulty: 0, guessing: 'Never' } },
    { type: 'rating', payload: { difficulty: 6, guessing: 'Never' } }, { type: 'rating', payload: { difficulty: 2.5, guessing: 'Never' } },
    { type: 'rating', payload: { difficulty: '3', guessing: 'Never' } }, { type: 'rating', payload: { guessing: 'Never' } },
    { type: 'rating', payload: { difficulty: 3 } }, { type: 'rating', payload: { difficulty: 3, guessing: null } },
    { type: 'rating', payload: { difficulty: 3, guessing: 'g'.repeat(201) } }, { type: 'submit_result', seq: 0, payload: { solved: true } },
    { type: 'submit_result', t_wall: 1, payload: { solved: true } }, { type: 'rating', source: 'pen', payload: { difficulty: 3, guessing: 'Never' } },
    { type: 'rating', position: 0, payload: { difficulty: 3, guessing: 'Never' } }, { type: 'submit_result', session_id: 'a b', payload: { solved: true } },
    { type: 'submit_result', t_mono: -1, payload: { solved: true } }, { type: 'submit_result', puzzle_id: '', payload: { solved: true } },
    { type: 'rating_revise', payload: { rated_puzzle_id: '', from: 2, to: 4 } }, { type: 'rating_revise', payload: { rated_puzzle_id: 'p1', from: 2, to: 7 } },
    { type: 'rating_revise', payload: { rated_puzzle_id: 'p1', from: 0, to: 4 } }, { type: 'rating_revise', payload: { rated_puzzle_id: 'p1', to: 4 } },
    { type: 'consent', payload: { agreed: 'yes' } }, { type: 'consent', payload: {} },
    { type: 'hint_shown', payload: { row: -1, col: 0, explanation: '' } }, { type: 'hint_shown', payload: { row: 0, col: 1.5, explanation: '' } },
    { type: 'hint_shown', payload: { row: 0, col: 0, explanation: 'x'.repeat(2_001) } }, { type: 'hint_shown', payload: { row: 0, col: 0 } },
    { type: 'client_start', payload: { user_agent: 'x'.repeat(1_001), width: 1, height: 1, page_id: 'p' } },
    { type: 'client_start', payload: { user_agent: 'UA', width: '1', height: 1, page_id: 'p' } },
    { type: 'client_start', payload: { user_agent: 'UA', width: 1, height: 1, page_id: 'x'.repeat(65) } },
    { type: 'client_start', payload: { user_agent: 'UA', width: 1, height: 1 } },
    { type: 'survey_submit', payload: { survey_id: 'a b', answers: {} } }, { type: 'survey_submit', payload: { survey_id: 'pre', answers: [] } },
    { type: 'survey_submit', payload: { survey_id: 'pre', answers: null } }, { type: 'survey_submit', payload: { survey_id: 'pre' } },
    { type: 'survey_submit', payload: { survey_id: 'pre', answers: { 'a b': 1 } } }, { type: 'survey_submit', payload: { survey_id: 'pre', answers: { ['k'.repeat(81)]: 1 } } },
    { type: 'survey_submit', payload: { survey_id: 'pre', answers: { a: true } } }, { type: 'survey_submit', payload: { survey_id: 'pre', answers: { a: { x: 1 } } } },
    { type: 'survey_submit', payload: { survey_id: 'pre', answers: { a: 'x'.repeat(20_001) } } },
    { type: 'survey_submit', payload: { survey_id: 'pre', answers: { a: ['x'.repeat(501)] } } },
    { type: 'survey_submit', payload: { survey_id: 'pre', answers: { a: Array.from({ length: 51 }, () => 'o') } } },
    { type: 'survey_submit', payload: { survey_id: 'pre', answers: { a: [1] } } },
  ];
  const goodChecks = [checkPayload, { ...checkPayload, position: null }, { ...checkPayload, solved: true, wrong_cells: 0 }, { ...checkPayload, position: -3 }];
  const badChecks: Record<string, unknown>[] = [
    { ...checkPayload, puzzle_id: '' }, { ...checkPayload, puzzle_id: 'a b' }, { ...checkPayload, puzzle_id: 'x'.repeat(65) }, { ...checkPayload, position: 1.5 },
    { ...checkPayload, position: '1' }, { ...checkPayload, solved: 'yes' }, { ...checkPayload, wrong_cells: -1 }, { ...checkPayload, wrong_cells: 0.5 },
    { puzzle_id: 'p3', position: 1, solved: true },
  ];
  const goodServer = [
    { type: 'hint', payload: { puzzle_id: 'p3', row: 0, col: 4, kind: 'cell', reasoning: 'foothold' } },
    { type: 'session_start', payload: { mode: 'general', sequence: ['p1', 'p2'], sequence_id: 5, round: 0 } },
    { type: 'session_start', payload: { mode: 'general', sequence: [], sequence_id: -1, round: 2 } },
    { type: 'session_complete', payload: { code: 'ABC' } },
  ];
  const badServer: Record<string, unknown>[] = [
    { type: 'hint', payload: { puzzle_id: 'p3', row: 0.5, col: 4, kind: 'cell', reasoning: 'r' } }, { type: 'hint', payload: { puzzle_id: 'p3', row: 0, col: 4, kind: 1, reasoning: 'r' } },
    { type: 'hint', payload: { puzzle_id: '', row: 0, col: 4, kind: 'c', reasoning: 'r' } }, { type: 'hint', payload: { puzzle_id: 'p3', row: 0, col: 4, kind: 'c' } },
    { type: 'session_start', payload: { mode: 'general', sequence: ['p 1'], sequence_id: 5, round: 0 } },
    { type: 'session_start', payload: { mode: 'general', sequence: 'p1', sequence_id: 5, round: 0 } },
    { type: 'session_start', payload: { mode: 'general', sequence: [], sequence_id: 5.5, round: 0 } },
    { type: 'session_start', payload: { sequence: [], sequence_id: 5, round: 0 } },
    { type: 'session_complete', payload: { code: 3 } }, { type: 'session_complete', payload: {} }, { type: 'session_complete', payload: null },
  ];
  it('accepts every valid record (so zod is skipped) and zod agrees', () => {
    for (const g of good) {
      const r = { ...base, ...g };
      expect(isValidClientRecordFast(r), JSON.stringify(g)).toBe(true);
      expect(ClientEvent.safeParse(r).success, JSON.stringify(g)).toBe(true);
    }
    for (const p of goodChecks) {
      const r = { ...server, payload: p };
      expect(isValidServerRecordFast(r), JSON.stringify(p)).toBe(true);
      expect(ServerEvent.safeParse(r).success, JSON.stringify(p)).toBe(true);
    }
    for (const g of goodServer) {
      const r = { ...server, ...g };
      expect(isValidServerRecordFast(r), JSON.stringify(g)).toBe(true);
      expect(ServerEvent.safeParse(r).success, JSON.stringify(g)).toBe(true);
    }
  });
  it('never accepts a record zod rejects, nor a record of another type or origin', () => {
    for (const b of bad) {
      const r = { ...base, ...b };
      expect(isValidClientRecordFast(r), JSON.stringify(b)).toBe(false);
      expect(ClientEvent.safeParse(r).success, JSON.stringify(b)).toBe(false);
    }
    for (const p of badChecks) {
      const r = { ...server, payload: p };
      expect(isValidServerRecordFast(r), JSON.stringify(p)).toBe(false);
      expect(ServerEvent.safeParse(r).success, JSON.stringify(p)).toBe(false);
    }
    for (const b of badServer) {
      const r = { ...server, ...b };
      expect(isValidServerRecordFast(r), JSON.stringify(b)).toBe(false);
      expect(ServerEvent.safeParse(r).success, JSON.stringify(b)).toBe(false);
    }
    expect(isValidServerRecordFast({ ...server, type: 'session_mark', payload: { mark: null } })).toBe(false); // (rare: zod's)
    expect(isValidClientRecordFast({ ...base, type: 'visibility', payload: { state: 'visible' } })).toBe(false); // (rare: zod's)
    expect(isValidServerRecordFast({ ...server, session_id: '', payload: checkPayload })).toBe(false);
    expect(isValidServerRecordFast({ ...server, type: 'hint', payload: checkPayload })).toBe(false);
    expect(isValidClientRecordFast({ ...base, type: 'step_start', payload: { kind: 'puzzle' } })).toBe(false);
    expect(isValidClientRecordFast({ ...base, type: 'toString', payload: {} })).toBe(false);
    expect(isValidServerRecordFast({ ...server, origin: 'client', payload: checkPayload })).toBe(false);
    expect(isValidClientRecordFast({ ...base, type: 'focus', payload: { focused: true } })).toBe(false); // (rare: zod's)
    expect(isValidClientRecordFast({ ...base, ...good[0], origin: 'server' })).toBe(false);
  });
  it('a bad record still gets zod\'s message through parseRecord', () => {
    const r = parseRecord({ ...base, type: 'rating', payload: { difficulty: 9, guessing: 'Never' } });
    expect(r.kind).toBe('error');
    expect(r.kind === 'error' && r.message).toMatch(/^client event 'rating': .*difficulty/);
    const c = parseRecord({ ...server, payload: { ...checkPayload, wrong_cells: -2 } });
    expect(c.kind === 'error' && c.message).toMatch(/^server event 'check': .*wrong_cells/);
  });
});

describe('isValidClientRecordFast against the generated envelope breakers', () => {
  const { broken } = generate();
  const RECORD = ClientEvent.and(z.object(ClientStamps));
  it('never accepts a record whose envelope or stamps the schema refuses', () => {
    let refused = 0;
    for (const c of broken) {
      if (c.what.startsWith('move ') || c.what.startsWith('payload')) continue;
      for (const e of [
        { type: 'submit_result', payload: { solved: true } }, { type: 'rating', payload: { difficulty: 2, guessing: 'Often' } },
        { type: 'consent', payload: { agreed: true } }, { type: 'survey_submit', payload: { survey_id: 'pre', answers: { a: 1 } } },
      ]) {
        const r = { ...c.record, ...e };
        if (RECORD.safeParse(r).success) continue;
        refused++;
        expect(isValidClientRecordFast(r), `${e.type}: ${c.what}`).toBe(false);
      }
    }
    expect(refused).toBeGreaterThan(40);
  });
});

describe('completeLines', () => {
  it('keeps every terminated line and leaves out an unterminated last one and empty lines', () => {
    expect(completeLines('{"a":1}\n{"b":2}\n')).toEqual(['{"a":1}', '{"b":2}']);
    expect(completeLines('{"a":1}\n\n{"b":2}\n{"c":')).toEqual(['{"a":1}', '{"b":2}']);
    expect(completeLines('{"c":')).toEqual([]);
    expect(completeLines('')).toEqual([]);
  });
});
