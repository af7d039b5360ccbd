// Acceptance (issue 12): a seeded hostile-input fuzz against the control plane command, on SQLite
// and etcd. Every input class (random bytes, truncated JSON, deep nesting, prototype keys
// anywhere, huge and copy-amplifying patches, Content-Type oddities, YAML tags and aliases,
// protobuf garbage, invalid query parameters, 10,000-term and pathological selectors, unicode,
// odd paths) goes to every verb of built-in kinds (Namespace, Service, Flunder), a custom resource,
// their status and scale subresources and discovery. Every answer must be kube's Status (4xx) or
// a success where the input is valid; afterwards the same process is alive and ready within 1 s,
// Object.prototype is clean, and a list of every kind equals exactly the acknowledged writes.
// Reproduce with FUZZ_SEED=<seed> (printed on failure); FUZZ_COUNT sets the size; a longer run
// is the bench (`npm run bench -- fuzz`).
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { after, before, it } from 'node:test';
import { until } from '../integration/assertions.js';
import { describeBackends } from '../integration/harness.js';
import { canaryPaths, listScope, runFuzz, setupFuzz, summary, type FuzzEnv } from './runner.js';
import { itemPath, targets } from './targets.js';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261125);
const COUNT = Number(process.env['FUZZ_COUNT'] ?? 800);
/** /readyz during the run: generous for a busy 2-core machine; after the run kube's 1 s. */
const READYZ_DURING_MS = 2000;
const READYZ_AFTER_MS = 1000;

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
    if (problems.length > 0) assert.fail(`${report.failures.length} of ${report.count} answers wrong, ${report.readyz.failures.length} of ${report.readyz.probes} /readyz probes failed (FUZZ_SEED=${SEED} FUZZ_COUNT=${COUNT}); the first:\n${problems.join('\n')}`);
  });

  it('afterwards: same process, ready within 1 s, /metrics answers, no prototype pollution', async () => {
    assert.equal(cp().exited(), undefined, cp().log().slice(-4000));
    assert.equal(cp().pid, pid);
    const t0 = performance.now();
    const ready = await env.client.request({ path: '/readyz', timeoutMs: 10_000 });
    const ms = performance.now() - t0;
    assert.equal(ready.status, 200, ready.text);
    assert.ok(ms <= READYZ_AFTER_MS, `/readyz took ${ms.toFixed(0)} ms`);
    const metrics = await env.client.request({ path: '/metrics' });
    assert.equal(metrics.status, 200, metrics.text.slice(0, 500));
    // A polluted Object.prototype shows in objects made afterwards (for…in, spreads, defaults).
    for (const t of targets) {
      const name = `fz-fresh-${SEED % 100_000}`;
      const created = await env.client.json('POST', t.collection(env.ctx.ns), t.manifest(name, env.ctx.ns));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const got = await env.client.json('GET', itemPath(t, env.ctx.ns, name));
      assert.equal(got.status, 200);
      assert.deepEqual([...canaryPaths(created.body), ...canaryPaths(got.body)], [], `${t.id} ${name} carries inherited fields: ${JSON.stringify(got.body)}`);
      env.model.set(t, got.body);
    }
  });

  it('afterwards: a list of every kind equals the acknowledged writes', async () => {
    for (const t of targets) {
      let diff: string[] = [];
      // Namespaces being deleted end when their controller gets to them: poll for that only.
      await until(`${t.id} list equal to the model`, async () => {
        diff = env.model.diff(t, t.namespaced ? env.ctx.ns : '', await listScope(env.client, t, env.ctx.ns));
        return diff.length === 0 ? true : undefined;
      }, t.namespaced ? 1 : 30_000).catch(() => assert.fail(`${t.id}: the list differs from the acknowledged writes (FUZZ_SEED=${SEED}):\n${diff.slice(0, 20).join('\n')}`));
    }
  });
});
