// `nonolab analyze --database URL`: the sessions' logs read straight from the PostgreSQL store (its events table, one
// row per record in log order), a slice of sessions at a time, extracted as the files would be: no export step.
import pg from 'pg';
import { schemaOf } from '../../store/studies.ts';
import { REGISTRY_SCHEMA } from '../../store/registryDb.ts';
import { parseSessionNdjson, type SessionLog } from '../../shared/signals/index.ts';
import { extractLogs, mergeExtracts, type ExtractContext, type Extracted, type SkippedSession } from './extract.ts';

/** Sessions read per query: memory stays bounded by a slice, not the study. */
const SLICE = 250;

/** The ids of every session with records, in order. */
export async function databaseSessionIds(client: pg.Client): Promise<string[]> {
  return (await client.query('SELECT DISTINCT session_id FROM events ORDER BY session_id')).rows.map((r: { session_id: string }) => r.session_id);
}

/** Extract every session of the database (skipped and bad sessions as with files: `ctx.skipBadSessions`). */
/** The schema of the study `slug` (its registry row says whether it is the first: `public`), else an error naming it. */
async function useStudy(client: pg.Client, slug: string): Promise<void> {
  const row = (await client.query(`SELECT first FROM ${REGISTRY_SCHEMA}.studies WHERE slug = $1`, [slug]).catch(() => ({ rows: [] }))).rows[0] as { first: number } | undefined;
  if (!row) throw new Error(`--study ${slug}: no such study in this database`);
  const schema = schemaOf({ slug, first: row.first === 1 });
  if (schema) await client.query(`SET search_path TO ${schema}`);
}

/**
 * Extract every session of the database (skipped and bad sessions as with files: `ctx.skipBadSessions`): the first
 * study's, or with `study` that study's (a study beyond the first has its tables in its own schema).
 */
export async function extractDatabase(url: string, ctx: ExtractContext, opts: { onSessions?: (n: number) => void; onSession?: (done: number) => void; study?: string } = {}): Promise<Extracted> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`--database: cannot connect (${(err as Error).message})`);
  }
  try {
    if (opts.study !== undefined) await useStudy(client, opts.study);
    const ids = await databaseSessionIds(client);
    if (ids.length === 0) throw new Error('--database: no session has records in this database');
    opts.onSessions?.(ids.length);
    const parts: Extracted[] = [];
    let done = 0;
    for (let i = 0; i < ids.length; i += SLICE) {
      const slice = ids.slice(i, i + SLICE);
      const rows = (await client.query('SELECT session_id, line FROM events WHERE session_id = ANY($1::text[]) ORDER BY session_id, n', [slice])).rows as { session_id: string; line: string }[];
      const texts = new Map<string, string[]>();
      for (const r of rows) {
        let list = texts.get(r.session_id);
        if (!list) texts.set(r.session_id, (list = []));
        list.push(r.line);
      }
      const skipped: SkippedSession[] = [];
      const logs: SessionLog[] = [];
      for (const id of slice) {
        const name = `${id} (database)`;
        try {
          logs.push(parseSessionNdjson(`${(texts.get(id) ?? []).join('\n')}\n`, name, { validate: ctx.validate ?? true }));
        } catch (err) {
          if (!ctx.skipBadSessions) throw err;
          skipped.push({ file: name, error: (err as Error).message });
        }
      }
      const base = done;
      parts.push(extractLogs(logs, ctx, (n) => opts.onSession?.(base + n), skipped));
      done += slice.length;
    }
    return mergeExtracts(parts);
  } finally {
    await client.end();
  }
}
