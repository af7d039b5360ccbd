// Before and after: our control plane from another checkout (BENCH_AB_BASE, for example a git
// worktree of an earlier commit, with node_modules in place) against this one, under the
// CronTab workload of the side-by-side bench (test/bench/lib/crontab-workload.ts): creates,
// consistent gets by name, merge patches and consistent lists, with requests/s, p50/p99 and
// the server's CPU per request. The two take turns, BENCH_ROUNDS times (3; every second round
// in reverse order), each on a fresh etcd of its own or a fresh SQLite data dir. On a machine
// where one run of a server moves 10-20 % from the next, a change is read from several rounds'
// CPU per request, not from one run's requests/s.
//
// BENCH_BACKEND=etcd3|sqlite (etcd3), BENCH_WORKERS=1|auto (1), BENCH_QUICK=1 shrinks every
// size. Without BENCH_AB_BASE the bench says so and passes.
//   git worktree add /tmp/base <commit> && ln -s "$PWD/node_modules" /tmp/base/node_modules
//   BENCH_AB_BASE=/tmp/base npm run bench -- ab
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { meanFigures, measureCronTabs, ours, workloadSizes, type Figures } from './lib/crontab-workload.js';
import { runBench } from './lib/process.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const backend = process.env['BENCH_BACKEND'] === 'sqlite' ? 'sqlite' : 'etcd3';
const workers = process.env['BENCH_WORKERS'] === 'auto' ? 'auto' : '1';

const rows: ReadonlyArray<readonly [string, (f: Figures) => number, number]> = [
  ['creates/s', (f) => f.creates.perSecond, 0],
  ['server CPU ms per create', (f) => f.cpu.create, 3],
  ['gets/s', (f) => f.gets.perSecond, 0],
  ['server CPU ms per get', (f) => f.cpu.get, 3],
  ['merge patches/s', (f) => f.patches.perSecond, 0],
  ['server CPU ms per patch', (f) => f.cpu.patch, 3],
  ['consistent list of 1,000, median ms', (f) => f.listMs, 1],
];

async function main(): Promise<void> {
  const base = process.env['BENCH_AB_BASE'];
  if (base === undefined || base === '') {
    console.log('ab: skipped, BENCH_AB_BASE is not set (the path of another checkout to compare this one with; see the comment at the top of test/bench/ab.bench.ts)');
    return;
  }
  if (!existsSync(join(base, 'node_modules'))) throw new Error(`${base} has no node_modules (link this checkout's)`);
  const load = (): string =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(`${base} (base) against this checkout (this): ${backend}, --workers ${workers}, ${cpus().length} vCPU, Node ${process.version}, ${ROUNDS} rounds, load average ${load()} at start`);
  const sides = [
    { label: 'base', root: base, runs: [] as Figures[] },
    { label: 'this', root: undefined, runs: [] as Figures[] },
  ];
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const subject = await ours(backend, workers, side.root);
      try {
        side.runs.push(await measureCronTabs(subject, round, workloadSizes));
      } finally {
        await subject.stop();
      }
    }
  }
  const fmt = (v: number, digits: number): string => (digits === 0 ? Math.round(v).toLocaleString('en-US') : v.toFixed(digits));
  const [a, b] = sides as [(typeof sides)[0], (typeof sides)[0]];
  const meanA = meanFigures(a.runs);
  const meanB = meanFigures(b.runs);
  console.log('\nfigure                               base (rounds)                     this (rounds)                     this / base');
  for (const [title, pick, digits] of rows) {
    const each = (runs: Figures[]): string => runs.map((f) => fmt(pick(f), digits)).join(', ');
    console.log(
      `${title.padEnd(37)}${`${fmt(pick(meanA), digits)} (${each(a.runs)})`.padEnd(34)}${`${fmt(pick(meanB), digits)} (${each(b.runs)})`.padEnd(34)}${(pick(meanB) / pick(meanA)).toFixed(2)}×`,
    );
  }
  console.log(`\nload average ${load()} at the end`);
}

runBench(main);
