// Fuzz bench (issue 12): the hostile-input fuzz of test/fuzz at a size the test cannot afford,
// on SQLite and etcd: FUZZ_COUNT requests (default 20,000; BENCH_QUICK=1: 3,000) from FUZZ_SEED
// (default: a new seed each run, printed), then the same checks as the test (same process, ready
// within 1 s, no prototype pollution, lists equal to the acknowledged writes). Prints requests/s,
// the slowest /readyz during the run and every category; fails when any answer or check is wrong.
import { cpus } from 'node:os';
import { ControlPlane, backends, etcdUnavailable } from '../integration/harness.js';
import { READYZ_AFTER_MS, READYZ_DURING_MS, runFuzz, setupFuzz, summary } from '../fuzz/runner.js';
import { aliveAndReady, listsMatchModel, noPollution } from '../fuzz/verify.js';
import { runBench } from './lib/process.js';

const count = Number(process.env['FUZZ_COUNT'] ?? (process.env['BENCH_QUICK'] === '1' ? 3000 : 20_000));
const seed = Number(process.env['FUZZ_SEED'] ?? Date.now() % 1_000_000_007);

async function main(): Promise<void> {
  console.log(`Fuzz bench: ${cpus().length} vCPU, Node ${process.version}, ${count} requests per backend, FUZZ_SEED=${seed}`);
  let failed = 0;
  for (const backend of backends) {
    if (backend === 'etcd3' && etcdUnavailable()) {
      console.log('etcd3: skipped (etcd not installed)');
      continue;
    }
    const cp = await ControlPlane.start({ backend });
    const env = await setupFuzz(cp.credentials, String(seed % 100_000));
    try {
      const report = await runFuzz(env, cp.credentials, { seed, count, readyzLimitMs: READYZ_DURING_MS });
      const after = [...(await aliveAndReady(env, cp, cp.pid, READYZ_AFTER_MS)), ...(await noPollution(env, String(seed % 100_000))), ...(await listsMatchModel(env))];
      const problems = [...report.readyz.failures, ...report.failures, ...after];
      console.log(`${backend}: ${(count / (report.ms / 1000)).toFixed(0)} requests/s; ${summary(report)}`);
      console.log(
        `${backend}: ${report.failures.length} wrong answers, ${report.readyz.failures.length} slow or failed /readyz, ${after.length} problems afterwards: ${problems.length === 0 ? 'PASS' : 'FAIL'}`,
      );
      for (const p of problems.slice(0, 50)) console.log(`  ${p}`);
      failed += problems.length;
    } finally {
      env.close();
      await cp.stop();
    }
  }
  if (failed > 0) throw new Error(`${failed} problems (FUZZ_SEED=${seed} FUZZ_COUNT=${count})`);
}

runBench(main);
