// Start benchmark (issues 4 and 17): how soon `npm start` is ready to serve on the embedded store,
// and how much memory it holds once idle. Runs hack/start.mjs with the node flags of package.json's
// start script (what `npm start` runs, without npm's own start-up), a free port and a fresh data
// dir (CA, certificates, SQLite file and system namespaces made on the way), then again on the
// same data dir, and reads the command's own `ready in N ms` line, counted from process start.
// The first run may rebuild the start bundle; it is reported apart and not counted.
// On the existing data dir the server is then left idle and measured: RSS from /proc (summed over
// the process and every process below it) 8 s after ready and again 60 s after, when V8's memory
// reducer has given back the young generation that start-up grew (25-30 MiB; it did so 40-50 s
// after ready on a loaded 2-vCPU machine), then heapUsed/heapTotal after a full GC, which a
// preload (--expose-gc and a SIGUSR2 handler, nothing else) reports on request.
// Then the same existing data dirs with --workers auto (one worker per core behind a supervising
// primary): its ready line (every worker serving), and idle RSS per process and in total.
// Targets: ready in under 1 s; idle RSS under 100 MiB for one process. BENCH_QUICK=1 runs fewer
// starts.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processTree, runBench } from './lib/process.js';

const quick = process.env['BENCH_QUICK'] === '1';
const runs = quick ? 3 : 7;
/** When, after ready, the idle server's RSS is read (the last one also ends the idle wait). */
const IDLE_CHECKPOINTS_MS = [8000, 60000];
/** How many of the existing-data-dir starts stay up for the idle measurement (60 s each). */
const idleRuns = quick ? 1 : 2;
const root = fileURLToPath(new URL('../..', import.meta.url));
const start = join(root, 'hack/start.mjs');

/** The node flags of package.json's start script (`node <flags> hack/start.mjs`). */
function startFlags(): string[] {
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start'] ?? '';
  const words = script.split(/\s+/);
  return words.slice(words.indexOf('node') + 1, words.indexOf('hack/start.mjs'));
}

/** Loaded before the command: on SIGUSR2, a full GC, then process.memoryUsage() as one stderr line. */
const memoryProbe = `data:text/javascript,${encodeURIComponent(
  "process.on('SIGUSR2', () => { globalThis.gc(); globalThis.gc(); process.stderr.write('MEMORY ' + JSON.stringify(process.memoryUsage()) + '\\n'); });",
)}`;

export interface StartFigures {
  readonly readyMs: number;
  /** Idle RSS in MiB summed over the process tree, at each of IDLE_CHECKPOINTS_MS; NaN off Linux; empty when not measured. */
  readonly rssMiB: readonly number[];
  /** RSS of each process of the tree (the command first) at the last checkpoint, MiB. */
  readonly rssPerProcessMiB: readonly number[];
  /** The command's own process after a full GC, MiB; NaN when not measured. */
  readonly heapUsedMiB: number;
  readonly heapTotalMiB: number;
}

const MiB = 1024 * 1024;

function rssMiB(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? NaN : Number(kb) / 1024;
  } catch {
    return NaN;
  }
}

/**
 * Starts the command with `args` (after --secure-port 0 --data-dir), waits for its ready line,
 * then (idle: true) leaves it alone, reading its RSS at IDLE_CHECKPOINTS_MS and its heap after a
 * full GC; stops it with SIGTERM. The --workers rows call this with ['--workers', 'auto'] and
 * report rssPerProcessMiB (primary first) and the totals.
 */
export function measureStart(dataDir: string, args: readonly string[], idle: boolean): Promise<StartFigures> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...startFlags(), '--expose-gc', '--import', memoryProbe, start, '--secure-port', '0', '--data-dir', dataDir, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let readyMs: number | undefined;
    let figures: StartFigures | undefined;
    const stop = (f: StartFigures): void => {
      figures = f;
      proc.kill('SIGTERM');
    };
    const onReady = (ms: number): void => {
      if (!idle) return stop({ readyMs: ms, rssMiB: [], rssPerProcessMiB: [], heapUsedMiB: NaN, heapTotalMiB: NaN });
      const rss: number[] = [];
      let perProcess: number[] = [];
      for (const at of IDLE_CHECKPOINTS_MS) {
        setTimeout(() => {
          perProcess = processTree(proc.pid!).map(rssMiB);
          rss.push(perProcess.reduce((a, b) => a + b, 0));
        }, at);
      }
      setTimeout(
        () => {
          const marker = out.length;
          proc.kill('SIGUSR2');
          const wait = setInterval(() => {
            const m = /MEMORY (\{.*\})\n/.exec(out.slice(marker));
            if (!m) return;
            clearInterval(wait);
            const mem = JSON.parse(m[1]!) as NodeJS.MemoryUsage;
            stop({ readyMs: ms, rssMiB: rss, rssPerProcessMiB: perProcess, heapUsedMiB: mem.heapUsed / MiB, heapTotalMiB: mem.heapTotal / MiB });
          }, 50);
        },
        Math.max(...IDLE_CHECKPOINTS_MS) + 100,
      );
    };
    const onData = (b: Buffer): void => {
      out += b.toString();
      const m = /ready in (\d+) ms/.exec(out);
      if (m && readyMs === undefined) onReady((readyMs = Number(m[1])));
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => (figures !== undefined ? resolve(figures) : reject(new Error(`exited ${code} before measured:\n${out}`))));
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const range = (xs: number[], digits = 0): string => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'start-bench-'));
  try {
    const first = await measureStart(join(dir, 'warmup'), [], false);
    const fresh: number[] = [];
    const existing: StartFigures[] = [];
    for (let i = 0; i < runs; i++) {
      const dataDir = join(dir, `d${i}`);
      fresh.push((await measureStart(dataDir, [], false)).readyMs);
      existing.push(await measureStart(dataDir, [], i < idleRuns));
    }
    const ready = existing.map((f) => f.readyMs);
    const idle = existing.filter((f) => f.rssMiB.length > 0);
    const rssAt = (k: number): number[] => idle.map((f) => f.rssMiB[k] ?? NaN);
    const settled = rssAt(IDLE_CHECKPOINTS_MS.length - 1);
    const verdict = (ok: boolean): string => (ok ? 'PASS' : 'FAIL');
    console.log(`Start benchmark: ${cpus().length} vCPU, Node ${process.version}, ${runs} starts each, node flags: ${startFlags().join(' ') || '(none)'}`);
    console.log(`first start (bundle rebuilt if stale): ${first.readyMs} ms`);
    console.log(`fresh data dir:    ready median ${median(fresh)} ms (all: ${fresh.join(', ')})  target < 1000 ms: ${verdict(median(fresh) < 1000)}`);
    console.log(`existing data dir: ready median ${median(ready)} ms (all: ${ready.join(', ')})  target < 1000 ms: ${verdict(median(ready) < 1000)}`);
    const heap = (pick: (f: StartFigures) => number): string => range(idle.map(pick), 1);
    const rssCheckpoints = IDLE_CHECKPOINTS_MS.map((at, k) => `${at / 1000} s after ready ${range(rssAt(k))} MiB`).join(', ');
    console.log(`idle, one process (${idle.length} runs): RSS ${rssCheckpoints}  target < 100 MiB: ${verdict(median(settled) < 100)}`);
    console.log(`idle, one process, after a full GC: heapUsed ${heap((f) => f.heapUsedMiB)} MiB, heapTotal ${heap((f) => f.heapTotalMiB)} MiB`);
    // --workers auto (issue 17): the same existing data dirs, served by one primary and one worker
    // per core; ready is the primary's line (every worker serving), RSS per process and in total.
    const workers = availableParallelism();
    const auto: StartFigures[] = [];
    for (let i = 0; i < runs; i++) auto.push(await measureStart(join(dir, `d${i}`), ['--workers', 'auto'], i < idleRuns));
    const autoReady = auto.map((f) => f.readyMs);
    const autoIdle = auto.filter((f) => f.rssMiB.length > 0);
    const autoRSS = (k: number): number[] => autoIdle.map((f) => f.rssMiB[k] ?? NaN);
    const perProcess = (k: number): number[] => autoIdle.map((f) => f.rssPerProcessMiB[k] ?? NaN);
    console.log(
      `--workers auto (${workers} workers), existing data dir: ready median ${median(autoReady)} ms (all: ${autoReady.join(', ')}), ${(median(autoReady) / median(ready)).toFixed(1)}× one process`,
    );
    const autoCheckpoints = IDLE_CHECKPOINTS_MS.map((at, k) => `${at / 1000} s after ready ${range(autoRSS(k))} MiB`).join(', ');
    console.log(`idle, --workers auto (${autoIdle.length} runs): RSS in total (primary and workers) ${autoCheckpoints}`);
    const processes = Math.max(0, ...autoIdle.map((f) => f.rssPerProcessMiB.length));
    const rows = Array.from({ length: processes }, (_, k) => `${k === 0 ? (workers > 1 ? 'primary' : 'the process') : `worker ${k}`} ${range(perProcess(k))}`);
    console.log(`idle, --workers auto, RSS per process ${IDLE_CHECKPOINTS_MS.at(-1)! / 1000} s after ready (MiB): ${rows.join(', ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
