// Reliability checks on a server's data directory (or its PostgreSQL database): records parse, bots' acknowledged events
// are there once and in order, no sequence went to two sessions, the rows agree with the logs.
import Database from 'better-sqlite3';
import pg from 'pg';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LoggedEvent } from '../../shared/schema/event.ts';
import type { Bot } from '../support/bots.ts';

export interface LogFile {
  sessionId: string;
  records: Record<string, any>[];
}

/** A logged line as a LoggedEvent; throws naming where it came from if it is not one. */
function parsedRecord(line: string, where: string): Record<string, any> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new Error(`${where}: not JSON: ${line.slice(0, 80)}`);
  }
  const parsed = LoggedEvent.safeParse(value);
  if (!parsed.success) throw new Error(`${where}: not a LoggedEvent: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`);
  return value as Record<string, any>;
}

/** Every session's records from a PostgreSQL database's events table, in log order (places 1..n, no gap). */
export async function readDbLogs(databaseUrl: string): Promise<Map<string, LogFile>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows = (await client.query('SELECT session_id, n, seq, line FROM events ORDER BY session_id, n')).rows as { session_id: string; n: number; seq: number | null; line: string }[];
    const out = new Map<string, LogFile>();
    for (const r of rows) {
      let file = out.get(r.session_id);
      if (!file) out.set(r.session_id, (file = { sessionId: r.session_id, records: [] }));
      if (r.n !== file.records.length + 1) throw new Error(`${r.session_id}: place ${r.n} follows ${file.records.length} (a gap in the log)`);
      const record = parsedRecord(r.line, `${r.session_id} place ${r.n}`);
      if ((record.origin === 'client' ? record.seq : null) !== r.seq) throw new Error(`${r.session_id} place ${r.n}: seq column ${r.seq}, record ${record.seq}`);
      file.records.push(record);
    }
    return out;
  } finally {
    await client.end();
  }
}

/** Read every session file; throws naming file and line if a line is torn or not a valid LoggedEvent. */
export function readLogs(dataDir: string): Map<string, LogFile> {
  const dir = join(dataDir, 'sessions');
  const out = new Map<string, LogFile>();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.ndjson')) continue;
    const text = readFileSync(join(dir, name), 'utf8');
    if (text.length > 0 && !text.endsWith('\n')) throw new Error(`${name}: does not end in a newline (torn last line)`);
    const records = text
      .split('\n')
      .filter((l) => l.length > 0)
      .map((line, i) => parsedRecord(line, `${name} line ${i + 1}`));
    const sessionId = name.slice(0, -'.ndjson'.length);
    out.set(sessionId, { sessionId, records });
  }
  return out;
}

/** Problems found (empty when everything holds). */
export function verifyBots(logs: Map<string, LogFile>, bots: readonly Bot[]): string[] {
  const problems: string[] = [];
  for (const bot of bots) {
    const file = logs.get(bot.sessionId);
    if (!file) {
      problems.push(`bot ${bot.sessionId}: no NDJSON file`);
      continue;
    }
    const client = file.records.filter((r) => r.origin === 'client');
    const seqs = client.map((r) => r.seq as number);
    const inOrder = seqs.every((s, i) => s === i + 1);
    if (!inOrder) problems.push(`bot ${bot.sessionId}: client seqs not 1..n in order: ${seqs.slice(0, 30).join(',')}${seqs.length > 30 ? ',...' : ''}`);
    if (client.length < bot.ackedSeq) problems.push(`bot ${bot.sessionId}: acknowledged ${bot.ackedSeq} but the file holds ${client.length}`);
    if (client.length > bot.events.length) problems.push(`bot ${bot.sessionId}: file holds ${client.length} events, the bot made ${bot.events.length}`);
    for (let i = 0; i < Math.min(client.length, bot.events.length); i++) {
      const want = bot.events[i];
      const got = client[i];
      if (got.type !== want.type || JSON.stringify(got.payload) !== JSON.stringify(want.payload) || got.step !== want.step || got.t_mono !== want.t_mono) {
        problems.push(`bot ${bot.sessionId}: event seq ${i + 1} differs: file ${JSON.stringify(got).slice(0, 120)} vs bot ${JSON.stringify(want).slice(0, 120)}`);
        break;
      }
    }
    if (!file.records[0] || file.records[0].type !== 'session_start') problems.push(`bot ${bot.sessionId}: first record is not session_start`);
  }
  return problems;
}

interface SessionFacts {
  id: string;
  acked_seq: number;
  step: number;
  status: string;
  sequence_id: number;
}
interface SequenceFacts {
  id: number;
  status: string;
  session_id: string | null;
}

/** Sequences, SQLite rows and files agree. Open after the server has stopped (or read-only while it runs). */
export function verifyStore(dataDir: string, logs: Map<string, LogFile>): string[] {
  const db = new Database(join(dataDir, 'nonolab.sqlite'), { readonly: true });
  try {
    const sessions = db.prepare('SELECT id, acked_seq, step, status, sequence_id FROM sessions').all() as SessionFacts[];
    const sequences = db.prepare('SELECT id, status, session_id FROM sequences').all() as SequenceFacts[];
    return verifyRows(sessions, sequences, logs);
  } finally {
    db.close();
  }
}

/** The same checks on a PostgreSQL database (its sessions and sequences rows against its events). */
export async function verifyDbStore(databaseUrl: string, logs: Map<string, LogFile>): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const sessions = (await client.query('SELECT id, acked_seq, step, status, sequence_id FROM sessions')).rows as SessionFacts[];
    const sequences = (await client.query('SELECT id, status, session_id FROM sequences')).rows as SequenceFacts[];
    return verifyRows(sessions, sequences, logs);
  } finally {
    await client.end();
  }
}

function verifyRows(sessions: SessionFacts[], sequences: SequenceFacts[], logs: Map<string, LogFile>): string[] {
  const problems: string[] = [];
  {
    const seqOwner = new Map<number, string>();
    for (const s of sessions) {
      if (s.sequence_id === 0) continue; // no sequence yet: leased at consent
      const other = seqOwner.get(s.sequence_id);
      if (other) problems.push(`sequence ${s.sequence_id} given to sessions ${other} and ${s.id}`);
      seqOwner.set(s.sequence_id, s.id);
    }
    for (const q of sequences) {
      if (q.session_id && seqOwner.get(q.id) !== q.session_id) problems.push(`sequence ${q.id} names session ${q.session_id}, which does not hold it`);
      if (q.status !== 'free' && !q.session_id) problems.push(`sequence ${q.id} is ${q.status} without a session`);
    }
    // Files: each starts with session_start; the sequence it names (or the sequence_assigned record at consent names)
    // is given to no other session that still exists.
    const startedWith = new Map<number, string>();
    for (const [id, file] of logs) {
      const start = file.records.find((r) => r.type === 'session_start');
      if (!start) {
        problems.push(`${id}: no session_start record`);
        continue;
      }
      const named = sequenceNamed(file.records);
      if (named === null) continue;
      const prev = startedWith.get(named);
      if (prev) problems.push(`the logs of ${prev} and ${id} both name sequence ${named}`);
      startedWith.set(named, id);
    }
    const rowIds = new Set(sessions.map((s) => s.id));
    for (const id of logs.keys()) if (!rowIds.has(id)) problems.push(`${id}: NDJSON file without a SQLite row`);
    for (const s of sessions) {
      const file = logs.get(s.id);
      if (!file) {
        problems.push(`${s.id}: SQLite row without an NDJSON file`);
        continue;
      }
      let acked = 0;
      let step = 0;
      for (const r of file.records)
        if (r.origin === 'client' && r.seq === acked + 1) {
          acked += 1;
          if (r.type === 'step_end') step = Math.max(step, r.step + 1);
        }
      if (acked !== s.acked_seq) problems.push(`${s.id}: SQLite acked_seq ${s.acked_seq}, the file holds ${acked}`);
      if (step !== s.step) problems.push(`${s.id}: SQLite step ${s.step}, the file says ${step}`);
      const named = sequenceNamed(file.records);
      // A lease committed at consent whose record a crash kept from the file: the consent was never acknowledged, and
      // its retry writes the record (so the file may name none yet, as long as no consent was acknowledged).
      const consented = file.records.some((r) => r.origin === 'client' && r.type === 'step_end' && r.payload?.kind === 'consent' && r.payload?.reason === 'done');
      if (named !== null ? named !== s.sequence_id : consented && s.sequence_id !== 0) problems.push(`${s.id}: SQLite sequence ${s.sequence_id}, the file ${named}`);
    }
  }
  return problems;
}

/** The sequence a session's log names: session_start's, or the sequence_assigned record's (leased at consent). */
function sequenceNamed(records: readonly any[]): number | null {
  const assigned = records.find((r) => r.type === 'sequence_assigned');
  if (assigned) return assigned.payload.sequence_id as number;
  const start = records.find((r) => r.type === 'session_start');
  return start && start.payload.sequence.length > 0 ? (start.payload.sequence_id as number) : null;
}

/** SHA-256 of every file under a directory (relative path -> hash), for byte-for-byte comparisons. */
export function hashTree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(root, path), createHash('sha256').update(readFileSync(path)).digest('hex'));
    }
  };
  walk(root);
  return out;
}
