// `npm run bench:server`: N bot participants play the study through the real server's HTTP API; events/s, ack
// latency, and the bare durable-append ceiling of this disk measured in the same run with the same batch sizes.
//
// Three server runs, each with BOTS bots (default 500) that every one play a whole study (start, consent, tutorial,
// warmup, survey, three puzzles with checks, ratings, post survey, completion) through tests/support/bots.ts, which
// speaks the API as the browser's outbox does:
//   paced      each bot makes BURST events every THINK ms on average (default 5 per 200 ms: 25 events/s per bot,
//              12,500/s offered at 500 bots): the load the first goal is stated for (>= 10,000 events/s, p99 < 50 ms).
//              Its events/s cannot exceed what the bots offer, so its ratio to the ceiling says little.
//   lockstep   the same bots without pauses, but each waits for the acknowledgement of its last action before the
//              next: every request carries one action's BURST events, as in the paced run, and the server answers
//              as many as it can. Its events/s over the sequential ceiling at the same batch sizes is the second goal
//              (>= 0.5): how close the server comes to a bare loop doing nothing but durable appends.
//   saturated  the same bots with no pause at all: each sends everything unacknowledged (up to 200 events) as soon as
//              the last request is answered, so batches grow; the most events per second this server takes here.
// Then the ceiling of each run, on the same disk with the same batch sizes (events and bytes) that run's requests had:
//   sequential a bare Node loop: writeSync + fdatasyncSync per batch, one after another (what the server did before
//              group commit);
//   parallel   BOTS bare async writers, one file each, write + fdatasync per batch on the libuv pool (the same
//              UV_THREADPOOL_SIZE as the server), all at once: the disk's limit for per-batch durable appends.
// The ratio printed is the run's events/s over each ceiling.
// Then the same bots against the PostgreSQL store (NONOLAB_DATABASE_URL) on a throwaway cluster in a temporary
// directory (tests/support/postgres.ts, fsync on, synchronous commit), with 1 and with 2 server processes
// (NONOLAB_WORKERS): events/s, p99, and CPU per server process and of PostgreSQL's processes.
// Options (env): BOTS, THINK, BURST, NOISE (extra moves per puzzle), RAMP (arrival spread of the paced run, s; the
// others start every bot at once), CEILING_SECONDS, UV_THREADPOOL_SIZE (default 64, for the server and the ceiling
// alike), RUNS=paced,lockstep,saturated, PROFILE=dir (the server writes a V8 CPU profile there when it stops),
// TIMELINE=1 (per-second latencies on stderr), STORES=sqlite,postgres:1,postgres:2 (store:processes; the PostgreSQL
// setups run PG_RUNS, default paced,saturated).
import { spawnSync } from 'node:child_process';

if (!process.env.UV_THREADPOOL_SIZE) {
  // The pool size is read once, when the pool first starts: set it before anything here uses it.
  const run = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, UV_THREADPOOL_SIZE: '64' } });
  process.exit(run.status ?? 1);
}

const { closeSync, fdatasync, fdatasyncSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, write, writeSync } = await import('node:fs');
const { cpus, loadavg, tmpdir, totalmem, type, release } = await import('node:os');
const { join } = await import('node:path');
const { execSync } = await import('node:child_process');
const { monitorEventLoopDelay } = await import('node:perf_hooks');
const { Bot, HttpClient } = await import('../tests/support/bots.ts');
const { defaultConfig, startServer } = await import('../tests/support/server.ts');
const { readDbLogs, readLogs, verifyBots, verifyDbStore, verifyStore } = await import('../tests/reliability/verify.ts');
const { startCluster } = await import('../tests/support/postgres.ts');
type BotStats = import('../tests/support/bots.ts').BotStats;

const BOTS = Number(process.env.BOTS ?? 500);
const THINK = Number(process.env.THINK ?? 200);
const BURST = Number(process.env.BURST ?? 5);
const NOISE = Number(process.env.NOISE ?? 60);
const RAMP = Number(process.env.RAMP ?? 10);
const CEILING_SECONDS = Number(process.env.CEILING_SECONDS ?? 5);
const RUNS = (process.env.RUNS ?? 'paced,lockstep,saturated').split(',') as Mode[];
const POOL = Number(process.env.UV_THREADPOOL_SIZE);
const PROFILE = process.env.PROFILE;
const TIMELINE = process.env.TIMELINE === '1';
interface Setup {
  store: 'sqlite' | 'postgres';
  workers: number;
}
const SETUPS: Setup[] = (process.env.STORES ?? 'sqlite,postgres:1,postgres:2').split(',').map((s) => {
  const [store, workers] = s.split(':');
  if (store !== 'sqlite' && store !== 'postgres') throw new Error(`STORES: unknown store '${store}' (sqlite, postgres:N)`);
  return { store, workers: Number(workers ?? 1) };
});
const PG_RUNS = (process.env.PG_RUNS ?? 'paced,saturated').split(',') as Mode[];

const quantile = (sorted: number[], q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function machine(): string {
  let disk = '';
  try {
    disk = execSync(`df -PT ${tmpdir()} | tail -1 | awk '{print $1" "$2}'`).toString().trim();
  } catch {
    // no df
  }
  return `${cpus().length} x ${cpus()[0]?.model ?? '?'}, ${fmt(totalmem() / 2 ** 30, 1)} GiB, ${type()} ${release()}, Node ${process.version}, data dir on ${tmpdir()} (${disk})`;
}

interface RunResult {
  name: string;
  setup: Setup;
  /** CPU over wall time of each server process (its workers with NONOLAB_WORKERS), and of PostgreSQL's processes. */
  perProcessCpu: number[];
  databaseCpu: number;
  sessions: number;
  completed: number;
  events: number;
  requests: number;
  seconds: number;
  eventsPerSecond: number;
  p50: number;
  p99: number;
  /** The server's own time per events request (its Server-Timing header: request to answer, fsync included). */
  serverP50: number;
  serverP99: number;
  max: number;
  meanBatch: number;
  failures: number;
  problems: string[];
  batches: { events: number; bytes: number }[];
  totalEvents: number;
  totalSeconds: number;
  /** CPU time over wall time (1 = one core busy) of the server process and of this (bots) process. */
  serverCpu: number;
  /** Of which in the kernel (system time: write, fdatasync, sockets). */
  serverSys: number;
  /** Connection attempts dropped by a full listen queue, and SYN retransmissions, during the run (machine-wide). */
  listenOverflows: number;
  synRetrans: number;
  botsCpu: number;
  /** The machine's 1-minute load average when the run started and when it ended (other work on the machine counts). */
  loadBefore: number;
  load: number;
  /** Event-loop delay of the bots' process (ms). */
  botLoop: { p50: number; p99: number };
  /** Events the bots made per second over the whole run. */
  offered: number;
}

const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;
/** utime and stime of a process (all its threads) from /proc (Linux), in seconds; NaN elsewhere. */
function processCpu(pid: number | undefined): { user: number; sys: number } {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { user: Number(fields[11]) / 100, sys: Number(fields[12]) / 100 };
  } catch {
    return { user: NaN, sys: NaN };
  }
}

/**
 * TCP counters of the machine (Linux /proc/net/netstat): connections dropped because a listen queue was full, and SYN
 * retransmissions. A dropped connection attempt is retried by the kernel after 1 s, 3 s, 7 s...: seconds of latency
 * that no server code shows.
 */
function tcpCounters(): { listenOverflows: number; synRetrans: number } {
  try {
    const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n').filter((l) => l.startsWith('TcpExt:'));
    const names = lines[0].split(' ');
    const values = lines[1].split(' ').map(Number);
    const get = (n: string) => values[names.indexOf(n)] ?? NaN;
    return { listenOverflows: get('ListenOverflows'), synRetrans: get('TCPSynRetrans') };
  } catch {
    return { listenOverflows: NaN, synRetrans: NaN };
  }
}

/**
 * A module (data: URL, for --import in NODE_OPTIONS, where --cpu-prof is not allowed) that CPU-profiles the process's
 * main thread from start to exit and writes the profile into `dir`.
 */
function profilerModule(dir: string): string {
  const code = `import { Session } from 'node:inspector'; import { writeFileSync } from 'node:fs';
const s = new Session(); s.connect(); s.post('Profiler.enable'); s.post('Profiler.start');
process.on('exit', () => s.post('Profiler.stop', (err, r) => { if (!err) writeFileSync(${JSON.stringify(dir)} + '/server-' + process.pid + '.cpuprofile', JSON.stringify(r.profile)); }));`;
  return `data:text/javascript,${encodeURIComponent(code)}`;
}

type Mode = 'paced' | 'lockstep' | 'saturated';

/** The pids of a PostgreSQL cluster's processes: the postmaster (first line of postmaster.pid) and its children. */
function postgresPids(dataDir: string): number[] {
  try {
    const master = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === master;
        } catch {
          return false;
        }
      })
      .map(Number);
    return [master, ...children];
  } catch {
    return [];
  }
}

/** CPU seconds of processes (one that has ended meanwhile counts 0: a PostgreSQL backend that closed). */
const cpuOf = (pids: number[]) => pids.map((pid) => processCpu(pid)).reduce((s, c) => s + (Number.isFinite(c.user + c.sys) ? c.user + c.sys : 0), 0);

async function serverRun(name: Mode, setup: Setup = { store: 'sqlite', workers: 1 }, database?: { url: string; dataDir: string }): Promise<RunResult> {
  const config = defaultConfig();
  const server = await startServer({
    env: {
      NONOLAB_START_LIMIT: '1000000',
      UV_THREADPOOL_SIZE: String(POOL),
      NONOLAB_WORKERS: String(setup.workers),
      ...(database ? { NONOLAB_DATABASE_URL: database.url } : {}),
      ...(PROFILE ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${profilerModule(PROFILE)}`.trim() } : {}),
    },
  });
  // Every worker listening before the bots come (each prints its pid once).
  const workerPids = (): number[] => [...server.output().matchAll(/nonolab: worker \d+ \(pid (\d+)\) serving/g)].map((m) => Number(m[1]));
  while (setup.workers > 1 && workerPids().length < setup.workers) await new Promise((r) => setTimeout(r, 50));
  const serverPids = setup.workers > 1 ? workerPids() : [server.process.pid!];
  // PostgreSQL's processes now (postmaster, background writers, the connections the server opened at start-up), with
  // their CPU so far; a backend forked during the run (a connection the pool opens under load) counts from 0.
  const db0 = new Map((database ? postgresPids(database.dataDir) : []).map((pid) => [pid, cpuOf([pid])]));
  const perProcess0 = serverPids.map((pid) => cpuOf([pid]));
  const http = new HttpClient(server.url, { maxSockets: BOTS * 2, timeoutMs: 60_000 });
  const stats: BotStats = { acks: [], failures: 0 };
  const bots = Array.from({ length: BOTS }, (_, i) => new Bot({ http, config, seed: 1 + i, thinkMs: name === 'paced' ? THINK : 0, lockstep: name === 'lockstep', burst: BURST, noiseMoves: NOISE, stats }));
  process.stderr.write(`[${name}] ${BOTS} bots playing against ${server.url} (data ${server.dataDir}) ...\n`);
  const loadBefore = loadavg()[0];
  const t0 = performance.now();
  const cpu0 = { server: processCpu(server.process.pid), bots: cpuSeconds(process.cpuUsage()) };
  const tcp0 = tcpCounters();
  // The bots' own event loop: a lag here delays their think times and inflates the latencies they measure.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const progress = setInterval(() => {
    const done = stats.acks.reduce((s, a) => s + a.events, 0);
    process.stderr.write(`[${name}] ${((performance.now() - t0) / 1000).toFixed(0)} s: ${fmt(done)} events acknowledged\n`);
  }, 5_000);
  // Paced: participants arrive spread over RAMP seconds (as they do in a study), not all in one instant. The runs that
  // measure the server's most start every bot at once, so that all BOTS play for most of the run.
  const ramp = name === 'paced' ? RAMP : 0;
  const started: number[] = [];
  const finished: number[] = [];
  const results = await Promise.allSettled(
    bots.map(async (b, i) => {
      await new Promise((r) => setTimeout(r, (ramp * 1000 * i) / BOTS));
      await b.start();
      started.push(performance.now());
      await b.play();
      finished.push(performance.now());
    }),
  );
  clearInterval(progress);
  const t1 = performance.now();
  const serverCpu = processCpu(server.process.pid);
  const perProcessCpu = serverPids.map((pid, i) => (cpuOf([pid]) - perProcess0[i]) / ((t1 - t0) / 1000));
  const databaseCpu = (database ? postgresPids(database.dataDir) : []).reduce((sum, pid) => sum + cpuOf([pid]) - (db0.get(pid) ?? 0), 0) / ((t1 - t0) / 1000);
  const cpu = { user: serverCpu.user - cpu0.server.user, sys: serverCpu.sys - cpu0.server.sys, bots: cpuSeconds(process.cpuUsage()) - cpu0.bots };
  const tcp1 = tcpCounters();
  const load = loadavg()[0];
  loop.disable();
  const botLoop = { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6 };
  http.close();
  await server.stop();
  const problems = results.flatMap((r, i) => (r.status === 'rejected' ? [`bot ${i}: ${String(r.reason)}`] : []));
  const logs = database ? await readDbLogs(database.url) : readLogs(server.dataDir);
  problems.push(...verifyBots(logs, bots), ...(database ? await verifyDbStore(database.url, logs) : verifyStore(server.dataDir, logs)));
  rmSync(server.dataDir, { recursive: true, force: true });

  // Steady state: from the moment every bot has its session to the moment the first one finishes (all BOTS playing).
  const from = Math.max(...started);
  const to = Math.min(...finished);
  const acks = to - from > 2_000 ? stats.acks.filter((a) => a.at >= from && a.at <= to) : stats.acks;
  const first = to - from > 2_000 ? from : Math.min(...acks.map((a) => a.at - a.ms));
  const last = to - from > 2_000 ? to : Math.max(...acks.map((a) => a.at));
  const events = acks.reduce((s, a) => s + a.events, 0);
  const seconds = (last - first) / 1000;
  const lat = acks.map((a) => a.ms).sort((a, b) => a - b);
  const own = acks.flatMap((a) => (a.serverMs === undefined ? [] : [a.serverMs])).sort((a, b) => a - b);
  if (TIMELINE) {
    // Per second of the run (by acknowledgement time): requests, p50/p99/max latency: shows whether slow answers come in waves.
    const bySecond = new Map<number, number[]>();
    for (const a of stats.acks) {
      const s = Math.floor((a.at - t0) / 1000);
      if (!bySecond.has(s)) bySecond.set(s, []);
      bySecond.get(s)!.push(a.ms);
    }
    for (const [s, ms] of [...bySecond].sort((a, b) => a[0] - b[0])) {
      ms.sort((a, b) => a - b);
      process.stderr.write(`[${name}] t=${s}s ${ms.length} acks p50 ${fmt(quantile(ms, 0.5), 1)} p99 ${fmt(quantile(ms, 0.99), 1)} max ${fmt(ms.at(-1)!, 0)} ms\n`);
    }
  }
  return {
    name,
    setup,
    perProcessCpu,
    databaseCpu,
    sessions: bots.filter((b) => b.sessionId).length,
    completed: bots.filter((b) => b.completionCode).length,
    events,
    requests: acks.length,
    seconds,
    eventsPerSecond: events / seconds,
    p50: quantile(lat, 0.5),
    serverP50: quantile(own, 0.5),
    serverP99: quantile(own, 0.99),
    p99: quantile(lat, 0.99),
    max: lat.at(-1) ?? NaN,
    meanBatch: events / acks.length,
    failures: stats.failures,
    problems,
    batches: acks.map((a) => ({ events: a.events, bytes: a.bytes })),
    totalEvents: stats.acks.reduce((s, a) => s + a.events, 0),
    totalSeconds: (t1 - t0) / 1000,
    serverCpu: (cpu.user + cpu.sys) / ((t1 - t0) / 1000),
    serverSys: cpu.sys / ((t1 - t0) / 1000),
    listenOverflows: tcp1.listenOverflows - tcp0.listenOverflows,
    synRetrans: tcp1.synRetrans - tcp0.synRetrans,
    botsCpu: cpu.bots / ((t1 - t0) / 1000),
    loadBefore,
    load,
    botLoop,
    offered: bots.reduce((n, b) => n + b.events.length, 0) / ((t1 - t0) / 1000),
  };
}

interface Ceiling {
  appendsPerSecond: number;
  eventsPerSecond: number;
}

/** Bare loop: writeSync + fdatasyncSync per batch, replaying the batch sizes in order over BOTS files. */
function sequentialCeiling(dir: string, batches: { events: number; bytes: number }[]): Ceiling {
  const fds = Array.from({ length: BOTS }, (_, i) => openSync(join(dir, `seq-${i}.ndjson`), 'a'));
  const line = '{"pad":"' + 'x'.repeat(200) + '"}\n';
  let n = 0;
  let events = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < CEILING_SECONDS * 1000) {
    const b = batches[n % batches.length];
    const fd = fds[n % fds.length];
    writeSync(fd, line.repeat(Math.ceil(b.bytes / line.length)).slice(0, b.bytes - 1) + '\n');
    fdatasyncSync(fd);
    n++;
    events += b.events;
  }
  const s = (performance.now() - t0) / 1000;
  for (const fd of fds) closeSync(fd);
  return { appendsPerSecond: n / s, eventsPerSecond: events / s };
}

/** BOTS bare async writers at once, one file each: write + fdatasync per batch on the libuv pool. */
async function parallelCeiling(dir: string, batches: { events: number; bytes: number }[]): Promise<Ceiling> {
  const line = '{"pad":"' + 'x'.repeat(200) + '"}\n';
  const w = (fd: number, buf: Buffer) => new Promise<void>((res, rej) => write(fd, buf, (e) => (e ? rej(e) : res())));
  const sync = (fd: number) => new Promise<void>((res, rej) => fdatasync(fd, (e) => (e ? rej(e) : res())));
  let n = 0;
  let events = 0;
  const t0 = performance.now();
  const deadline = t0 + CEILING_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: BOTS }, async (_, i) => {
      const fd = openSync(join(dir, `par-${i}.ndjson`), 'a');
      let k = i;
      while (performance.now() < deadline) {
        const b = batches[k % batches.length];
        k += BOTS;
        await w(fd, Buffer.from(line.repeat(Math.ceil(b.bytes / line.length)).slice(0, b.bytes - 1) + '\n'));
        await sync(fd);
        n++;
        events += b.events;
      }
      closeSync(fd);
    }),
  );
  const s = (performance.now() - t0) / 1000;
  return { appendsPerSecond: n / s, eventsPerSecond: events / s };
}

const setupName = (s: Setup) => (s.store === 'sqlite' ? 'SQLite' : `PostgreSQL, ${s.workers} process${s.workers > 1 ? 'es' : ''}`);

function printRun(r: RunResult): void {
  if (r.setup.store !== 'sqlite' || r.setup.workers > 1) console.log(`[${setupName(r.setup)}]`);
  console.log(
    `${r.name.padEnd(10)} sessions started ${r.sessions}, completed ${r.completed}; ${fmt(r.events)} events in ${fmt(r.requests)} requests ` +
      `(mean batch ${fmt(r.meanBatch, 1)}) over ${fmt(r.seconds, 1)} s with all bots playing: ${fmt(r.eventsPerSecond)} events/s; ack latency p50 ${fmt(r.p50, 1)} ms, ` +
      `p99 ${fmt(r.p99, 1)} ms, max ${fmt(r.max, 0)} ms (the server's own time p50 ${fmt(r.serverP50, 1)} ms, p99 ${fmt(r.serverP99, 1)} ms); ${r.failures} retried requests; whole run ${fmt(r.totalEvents)} events in ${fmt(r.totalSeconds, 1)} s`,
  );
  console.log(
    `  cpu: server${r.setup.workers > 1 ? ' (the primary, which forks the workers)' : ''} ${fmt(r.serverCpu * 100)}% of one core (${fmt(r.serverSys * 100)}% in the kernel), bots ${fmt(r.botsCpu * 100)}%; machine load average ${fmt(r.loadBefore, 1)} at the start, ${fmt(r.load, 1)} at the end; ` +
      `bots' event-loop delay p50 ${fmt(r.botLoop.p50, 1)} ms, p99 ${fmt(r.botLoop.p99, 1)} ms; bots made ${fmt(r.offered)} events/s over the whole run; ` +
      `tcp: ${r.listenOverflows} connections dropped by a full listen queue, ${r.synRetrans} SYN retransmissions`,
  );
  console.log(
    `  cpu per server process: ${r.perProcessCpu.map((c) => `${fmt(c * 100)}%`).join(', ')} of one core${r.setup.store === 'postgres' ? `; PostgreSQL's processes ${fmt(r.databaseCpu * 100)}%` : ''}`,
  );
  if (r.problems.length > 0) console.log(`  PROBLEMS (${r.problems.length}):\n  ${r.problems.slice(0, 10).join('\n  ')}`);
  else if (r.setup.store === 'postgres') console.log(`  verified: every acknowledged event in PostgreSQL once and in order, records parse, the rows agree`);
  else console.log(`  verified: every acknowledged event in the NDJSON once and in order, files parse, SQLite agrees`);
}

console.log(`machine: ${machine()}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`bots: ${BOTS}; paced: ${BURST} events every ~${THINK} ms per bot; ${NOISE} extra moves per puzzle; UV_THREADPOOL_SIZE=${POOL}`);
const runs: RunResult[] = [];
const allRuns: RunResult[] = [];
for (const name of [...RUNS, ...PG_RUNS])
  if (!['paced', 'lockstep', 'saturated'].includes(name)) throw new Error(`RUNS/PG_RUNS: unknown run '${name}' (paced, lockstep, saturated)`);
if (SETUPS.some((s) => s.store === 'sqlite'))
  for (const name of RUNS) {
    const r = await serverRun(name);
    runs.push(r);
    allRuns.push(r);
    printRun(r);
  }
const pgSetups = SETUPS.filter((s) => s.store === 'postgres');
if (pgSetups.length > 0) {
  // One throwaway cluster, fsync on (durable commits, as in production), a fresh database per run.
  const cluster = await startCluster({ fsync: true });
  process.env.NONOLAB_TEST_DATABASE_URL = cluster.url;
  try {
    for (const setup of pgSetups)
      for (const name of PG_RUNS) {
        const r = await serverRun(name, setup, { url: await cluster.database(), dataDir: join(cluster.dir, 'data') });
        allRuns.push(r);
        printRun(r);
      }
  } finally {
    cluster.stop();
  }
}
if (allRuns.length > 1) {
  console.log(`summary at ${BOTS} bots (load: the machine's 1-minute load average at the start and end of each run; other work counts)`);
  console.log('store      run        events/s   p99 ms   cpu per server process      PostgreSQL cpu   load');
  for (const r of allRuns)
    console.log(
      `${(r.setup.store === 'sqlite' ? 'sqlite' : `pg x${r.setup.workers}`).padEnd(10)} ${r.name.padEnd(10)} ${fmt(r.eventsPerSecond).padStart(8)} ${fmt(r.p99, 1).padStart(8)}   ` +
        `${r.perProcessCpu.map((c) => `${fmt(c * 100)}%`).join(' + ').padEnd(27)} ${(r.setup.store === 'postgres' ? `${fmt(r.databaseCpu * 100)}%` : '-').padEnd(16)} ` +
        `${fmt(r.loadBefore, 1)} -> ${fmt(r.load, 1)}`,
    );
}
// The ceiling for each run, replaying that run's own batch sizes (events and bytes) on the same disk.
const dir = mkdtempSync(join(tmpdir(), 'nonolab-ceiling-'));
const ratios = new Map<string, { seq: number; par: number }>();
try {
  for (const r of runs) {
    const seq = sequentialCeiling(dir, r.batches);
    const par = await parallelCeiling(dir, r.batches);
    ratios.set(r.name, { seq: r.eventsPerSecond / seq.eventsPerSecond, par: r.eventsPerSecond / par.eventsPerSecond });
    console.log(`ceiling    with the ${r.name} run's batch sizes (mean ${fmt(r.meanBatch, 1)} events), same disk:`);
    console.log(`  sequential writeSync+fdatasyncSync: ${fmt(seq.appendsPerSecond)} appends/s = ${fmt(seq.eventsPerSecond)} events/s`);
    console.log(`  parallel   ${BOTS} writers, write+fdatasync: ${fmt(par.appendsPerSecond)} appends/s = ${fmt(par.eventsPerSecond)} events/s`);
    console.log(`ratio      ${r.name} server / ceiling: ${fmt(ratios.get(r.name)!.seq, 2)} x sequential, ${fmt(ratios.get(r.name)!.par, 2)} x parallel`);
  }
  const paced = runs.find((r) => r.name === 'paced');
  if (paced)
    console.log(
      `goal       >= 10,000 events/s at ${BOTS} bots with p99 < 50 ms (paced run): ${paced.eventsPerSecond >= 10_000 && paced.p99 < 50 ? 'met' : 'NOT met'} ` +
        `(${fmt(paced.eventsPerSecond)} events/s, p99 ${fmt(paced.p99, 1)} ms)`,
    );
  const lockstep = runs.find((r) => r.name === 'lockstep');
  if (lockstep) {
    const q = ratios.get('lockstep')!;
    console.log(
      `goal       >= 0.5 x the bare sequential ceiling at the same batch sizes (lockstep run, the server's most): ${q.seq >= 0.5 ? 'met' : 'NOT met'} ` +
        `(${fmt(q.seq, 2)} x; ${fmt(q.par, 2)} x the ${BOTS} parallel writers)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (allRuns.some((r) => r.problems.length > 0)) process.exit(1);
