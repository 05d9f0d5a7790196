// Benchmark: the experimenter's exports over a large study (default 10,000 sessions), through the real server.
/*
 * Steps: (1) simulate N bot participants (NONOLAB_BENCH_SESSIONS, default 10,000) and write them as the server would
 * have: one NDJSON file per session under sessions/ and a row per session in SQLite (acked_seq, step and status as
 * the records say), not timed; (2) baselines, same run, same files: (a) read the bytes of every log, (b) read and
 * JSON.parse every record on one thread (the floor of any export of these logs); (3) start the real server (`tsx server/main.ts`) on that directory: time to ready (start-up recovery reads
 * every file); (4) log in and download each export the dashboard offers (events CSV, attempts CSV, participants CSV,
 * raw NDJSON zip, psych-DS zip), timing each and sampling the server's resident memory every 50 ms. Exports stream
 * session by session, so the server's memory should stay flat whatever the study's size: the figure is its peak
 * during an export over its resident size before the first one.
 */
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadStudyConfig } from '../node/studyConfig.ts';
import { SqliteRows, type SessionRow } from '../store/store.ts';
import { simulateSessions } from '../analysis/simulate/index.ts';
import { loggedProgress } from '../shared/study/progress.ts';
import { startServer } from '../tests/support/server.ts';

const N = Number(process.env.NONOLAB_BENCH_SESSIONS ?? 10_000);
const PASSWORD = 'bench-exports-password';
const root = join(import.meta.dirname, '..');
const study = loadStudyConfig(join(root, 'study-config', 'study.json'));
const dataDir = mkdtempSync(join(tmpdir(), 'nonolab-bench-exports-'));
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** Resident memory of a process (Linux /proc), in bytes; NaN elsewhere. */
function rss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** GET a URL and count what arrives (bytes, lines) without keeping it. */
function download(url: string, cookie: string): Promise<{ status: number; bytes: number; lines: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { cookie } }, (res) => {
      let bytes = 0;
      let lines = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, lines }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

try {
  console.log(`sessions: ${N}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  // (1) The study as the server would have left it.
  let t = performance.now();
  mkdirSync(join(dataDir, 'sessions'));
  const store = new SqliteRows(join(dataDir, 'nonolab.sqlite'));
  let records = 0;
  const rows: SessionRow[] = [];
  for (const sim of simulateSessions({ participants: N, seed: 20261130, study })) {
    const recs = sim.records;
    writeFileSync(join(dataDir, 'sessions', `${sim.bot.session_id}.ndjson`), recs.map((r) => JSON.stringify(r)).join('\n') + '\n');
    records += recs.length;
    const { acked_seq: acked, step } = loggedProgress(recs);
    const start = recs[0];
    const last = recs.at(-1)!;
    rows.push({
      id: sim.bot.session_id,
      token_hash: `bench-${sim.bot.session_id}`,
      mode: 'general',
      label: null,
      status: recs.some((r) => r.type === 'session_complete') ? 'complete' : 'active',
      created_at: start.t_server,
      updated_at: last.t_server,
      step,
      step_started_at: last.t_server,
      acked_seq: acked,
      sequence_id: start.type === 'session_start' ? start.payload.sequence_id : 0,
      config_hash: study.hash,
    });
  }
  store.transaction(() => rows.forEach((r) => store.insertSession(r)));
  store.close();
  console.log(`simulate and write (not timed): ${s(performance.now() - t)}; ${records.toLocaleString('en-US')} records`);

  // (2) Floors, on the same files: their bytes read once (I/O, here mostly from the page cache), and read + JSON.parse
  // of every line on one thread (what any export of these logs pays at least; the exports run on one thread too).
  const files = readdirSync(join(dataDir, 'sessions')).map((f) => join(dataDir, 'sessions', f));
  t = performance.now();
  let logBytes = 0;
  for (const f of files) logBytes += readFileSync(f).length;
  console.log(`baseline (a) read every log's bytes: ${s(performance.now() - t)} (${mb(logBytes)} in ${N.toLocaleString('en-US')} files)`);
  t = performance.now();
  for (const f of files) for (const line of readFileSync(f, 'utf8').split('\n')) if (line) JSON.parse(line);
  const parseMs = performance.now() - t;
  console.log(`baseline (b) read + JSON.parse every record, one thread: ${s(parseMs)}`);

  // (3) The real server on that directory.
  t = performance.now();
  const server = await startServer({ dataDir, env: { NONOLAB_ADMIN_PASSWORD: PASSWORD } });
  const pid = server.process.pid!;
  console.log(`server ready (start-up recovery over ${N.toLocaleString('en-US')} sessions): ${s(performance.now() - t)}`);
  try {
    const login = await fetch(`${server.url}/api/admin/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: PASSWORD }) });
    if (login.status !== 200) throw new Error(`login: HTTP ${login.status}`);
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const list = (await (await fetch(`${server.url}/api/admin/exports`, { headers: { cookie } })).json()) as { exports: { id: string }[] };
    const before = rss(pid);
    console.log(`server resident memory before the exports: ${mb(before)}`);
    let failed = false;
    for (const { id } of list.exports) {
      let peak = rss(pid);
      const sampler = setInterval(() => (peak = Math.max(peak, rss(pid))), 50);
      t = performance.now();
      const got = await download(`${server.url}/api/admin/exports/${id}`, cookie);
      const ms = performance.now() - t;
      clearInterval(sampler);
      peak = Math.max(peak, rss(pid));
      if (got.status !== 200) failed = true;
      console.log(
        `export ${id.padEnd(12)} HTTP ${got.status}: ${mb(got.bytes).padStart(8)} (${got.lines.toLocaleString('en-US')} lines) in ${s(ms)}, ` +
          `${(got.bytes / 2 ** 20 / (ms / 1000)).toFixed(0)} MiB/s, ${(ms / parseMs).toFixed(1)}x baseline (b); server memory peak ${mb(peak)} (+${mb(peak - before)})`,
      );
    }
    if (failed) process.exitCode = 1;
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
