// Acceptance (issue 12): a seeded hostile-input fuzz against the control plane command, on SQLite
// and etcd. Every input class (random bytes, truncated JSON, deep nesting, prototype keys
// anywhere, huge and copy-amplifying patches, Content-Type oddities, YAML tags and aliases,
// protobuf garbage, invalid query parameters, 10,000-term and pathological selectors, unicode,
// odd paths) goes to every verb of built-in kinds (Namespace, Service, Flunder), a custom resource,
// their status and scale subresources and discovery. Every answer must be kube's Status (4xx) or
// a success where the input is valid (checked: a kept key round-trips, a pruned one is gone); /readyz
// answers throughout; afterwards the same process is alive and ready within 1 s, Object.prototype
// is clean, and a list of every kind equals exactly the acknowledged writes.
// Reproduce with FUZZ_SEED=<seed> (printed on failure); FUZZ_COUNT sets the size; FUZZ_REPORT=<file>
// appends every failure to a file; a longer run is the bench (`npm run bench -- fuzz`).
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { after, before, it } from 'node:test';
import { describeBackends } from '../integration/harness.js';
import { READYZ_AFTER_MS, READYZ_DURING_MS, runFuzz, setupFuzz, summary, type FuzzEnv } from './runner.js';
import { aliveAndReady, listsMatchModel, noPollution } from './verify.js';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261125);
const COUNT = Number(process.env['FUZZ_COUNT'] ?? 800);

describeBackends('hostile input fuzz', (cp, backend) => {
  let env: FuzzEnv;
  let pid = -1;

  before(async () => {
    pid = cp().pid;
    env = await setupFuzz(cp().credentials, String(SEED % 100_000));
  });
  after(() => env?.close());

  it(`${COUNT} requests (FUZZ_SEED=${SEED}) each answer kube's Status or succeed where valid`, async (t) => {
    const report = await runFuzz(env, cp().credentials, { seed: SEED, count: COUNT, readyzLimitMs: READYZ_DURING_MS });
    t.diagnostic(summary(report));
    // FUZZ_REPORT=<file>: every failure, not only the first ones, for triage.
    const out = process.env['FUZZ_REPORT'];
    if (out) appendFileSync(out, [`# ${backend}: ${summary(report)}`, ...report.readyz.failures, ...report.failures, ''].join('\n'));
    assert.equal(cp().exited(), undefined, `the server exited during the fuzz (FUZZ_SEED=${SEED}):\n${cp().log().slice(-4000)}`);
    const problems = [...report.readyz.failures.slice(0, 5), ...report.failures.slice(0, 40)];
    if (problems.length > 0)
      assert.fail(
        `${report.failures.length} of ${report.count} answers wrong, ${report.readyz.failures.length} of ${report.readyz.probes} /readyz probes failed (FUZZ_SEED=${SEED} FUZZ_COUNT=${COUNT}); the first:\n${problems.join('\n')}`,
      );
  });

  it('afterwards: same process, ready within 1 s, /metrics answers, no prototype pollution', async () => {
    const problems = [...(await aliveAndReady(env, cp(), pid, READYZ_AFTER_MS)), ...(await noPollution(env, String(SEED % 100_000)))];
    assert.deepEqual(problems, [], `FUZZ_SEED=${SEED}:\n${problems.join('\n')}`);
  });

  it('afterwards: a list of every kind equals the acknowledged writes', async () => {
    const problems = await listsMatchModel(env);
    assert.deepEqual(problems, [], `the lists differ from the acknowledged writes (FUZZ_SEED=${SEED}):\n${problems.slice(0, 20).join('\n')}`);
  });
});
