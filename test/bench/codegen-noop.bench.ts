// Codegen with the four CRD sets people run imported (Gateway API standard, cert-manager,
// prometheus-operator, Argo CD: 34 kinds, 8.5 MB of YAML, test/codegen/fixtures/crds/) into a
// new project (the built-in type packages meta/v1, apiextensions/v1 and autoscaling/v1 as its
// apis/, as a user's project starts; its own groups only add parse time to runs that are not
// no-ops). Times, end to end with the CLI (hack/update-codegen: node
// and tsx start-up included) and in process (runCodegen):
// - the import itself, with no cache;
// - a first run with an empty cache, and a run after an edit of apis/ with the cache warm
//   (parse and emit again; CRD YAML and their types from the cache);
// - a no-op run (nothing changed): target under 1 s, both ways.
// BENCH_QUICK=1 takes fewer samples.
import { execFileSync } from 'node:child_process';
import { appendFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { runCodegen } from '../../generator/codegen.js';
import { ROOT, scratchProject } from '../codegen/harness.js';
import { runBench } from './lib/process.js';

const quick = process.env['BENCH_QUICK'] === '1';
const SAMPLES = quick ? 3 : 7;
const TARGET_S = 1;
const SETS = ['gateway-api/standard', 'cert-manager', 'prometheus-operator', 'argo-cd'];

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

runBench(async () => {
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, node ${process.version}`,
  );
  const files = SETS.flatMap((set) => {
    const dir = join(ROOT, 'test/codegen/fixtures/crds', set);
    return readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .map((f) => join(dir, f));
  });
  const project = scratchProject({ withApis: false });
  const cli = (...args: string[]): number => {
    const started = performance.now();
    execFileSync(join(ROOT, 'hack/update-codegen'), args, { cwd: project.root, env: { ...process.env, CODEGEN_ROOT: project.root }, stdio: 'pipe' });
    return (performance.now() - started) / 1000;
  };
  try {
    const startup = median(
      Array.from({ length: SAMPLES }, () => {
        const started = performance.now();
        execFileSync(process.execPath, ['--import', 'tsx', '-e', '0'], { cwd: ROOT, stdio: 'pipe' });
        return (performance.now() - started) / 1000;
      }),
    );
    const imported = cli('--no-cache', '--crd', ...files);
    rmSync(join(ROOT, 'node_modules/.cache/kube-ts-codegen'), { recursive: true, force: true });
    const cold = cli();
    appendFileSync(join(project.root, 'apis/meta/v1/doc.ts'), '\n// an edit that changes no output\n');
    const warm = cli();
    const noopCLI = median(Array.from({ length: SAMPLES }, () => cli()));
    // One in-process run first: it records the run under this process's generator key (the CLI
    // runs' key differs when generator/ was edited in between, as in a shared working tree).
    await runCodegen({ root: project.root });
    const noopInProcess = median(
      await Array.from({ length: SAMPLES * 2 }).reduce<Promise<number[]>>(async (acc) => {
        const out = await acc;
        const started = performance.now();
        const r = await runCodegen({ root: project.root });
        if (!r.upToDate) throw new Error('a no-op run was not up to date');
        return [...out, (performance.now() - started) / 1000];
      }, Promise.resolve([])),
    );
    const verdict = (s: number): string => `${s.toFixed(2)} s (target < ${TARGET_S} s: ${s < TARGET_S ? 'met' : 'MISSED'})`;
    console.log(`node --import tsx start-up alone: ${startup.toFixed(2)} s (median of ${SAMPLES})`);
    console.log(`import of the four sets (--crd, no cache): ${imported.toFixed(2)} s`);
    console.log(`first run, empty cache: ${cold.toFixed(2)} s`);
    console.log(`run after an edit of apis/, cache warm: ${warm.toFixed(2)} s`);
    console.log(`no-op run, CLI end to end: ${verdict(noopCLI)} (median of ${SAMPLES})`);
    console.log(`no-op run, in process: ${verdict(noopInProcess)} (median of ${SAMPLES * 2})`);
  } finally {
    project.dispose();
  }
});
