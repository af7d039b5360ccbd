// Start benchmark (issue 4): how soon `npm start` is ready to serve on the embedded store. Runs
// hack/start.mjs (what `npm start` runs, without npm's own start-up) with a free port and a
// fresh data dir (CA, certificates, SQLite file and system namespaces made on the way), then again
// on the same data dir, and reads the command's own `ready in N ms` line, counted from process
// start. The first run may rebuild the start bundle; it is reported apart and not counted.
// Target: ready in under 1 s. BENCH_QUICK=1 runs fewer starts.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runBench } from './lib/process.js';

const runs = process.env['BENCH_QUICK'] === '1' ? 3 : 7;
const start = fileURLToPath(new URL('../../hack/start.mjs', import.meta.url));

/** Starts the command, waits for its ready line, stops it with SIGTERM; the reported ms. */
function readyMs(dataDir: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--enable-source-maps', start, '--secure-port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let ms: number | undefined;
    const onData = (b: Buffer): void => {
      out += b.toString();
      const m = /ready in (\d+) ms/.exec(out);
      if (m && ms === undefined) {
        ms = Number(m[1]);
        proc.kill('SIGTERM');
      }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => (ms !== undefined ? resolve(ms) : reject(new Error(`exited ${code} before ready:\n${out}`))));
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'start-bench-'));
  try {
    const first = await readyMs(join(root, 'warmup'));
    const fresh: number[] = [];
    const existing: number[] = [];
    for (let i = 0; i < runs; i++) {
      const dir = join(root, `d${i}`);
      fresh.push(await readyMs(dir));
      existing.push(await readyMs(dir));
    }
    const ok = median(fresh) < 1000;
    console.log(`Start benchmark: ${cpus().length} vCPU, Node ${process.version}, ${runs} starts each`);
    console.log(`first start (bundle rebuilt if stale): ${first} ms`);
    console.log(`fresh data dir:    median ${median(fresh)} ms (all: ${fresh.join(', ')})  target < 1000 ms: ${ok ? 'PASS' : 'FAIL'}`);
    console.log(`existing data dir: median ${median(existing)} ms (all: ${existing.join(', ')})`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

runBench(main);
