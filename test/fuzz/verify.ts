// What must hold after a fuzz run, shared by the test and the bench; each returns its problems
// (empty: fine). The process is the same and alive, /readyz answers in time and /metrics
// answers; objects made afterwards carry no inherited field (Object.prototype is clean); a list
// of every kind equals the model of acknowledged writes.
import { performance } from 'node:perf_hooks';
import { until } from '../integration/assertions.js';
import type { ControlPlane } from '../integration/harness.js';
import { canaryPaths, listScope, type FuzzEnv } from './runner.js';
import { itemPath, targets } from './targets.js';

export async function aliveAndReady(env: FuzzEnv, cp: ControlPlane, pid: number, readyzLimitMs: number): Promise<string[]> {
  if (cp.exited()) return [`the server exited: ${JSON.stringify(cp.exited())}\n${cp.log().slice(-4000)}`];
  const out: string[] = [];
  if (cp.pid !== pid) out.push(`the server restarted: pid ${cp.pid}, was ${pid}`);
  const t0 = performance.now();
  const ready = await env.client.request({ path: '/readyz', timeoutMs: 30_000 }).catch((e: Error) => e);
  const ms = performance.now() - t0;
  if (ready instanceof Error || ready.status !== 200) out.push(`/readyz: ${ready instanceof Error ? ready.message : `${ready.status} ${ready.text.slice(0, 300)}`}`);
  else if (ms > readyzLimitMs) out.push(`/readyz took ${ms.toFixed(0)} ms (limit ${readyzLimitMs} ms)`);
  const metrics = await env.client.request({ path: '/metrics' }).catch((e: Error) => e);
  if (metrics instanceof Error || metrics.status !== 200) out.push(`/metrics: ${metrics instanceof Error ? metrics.message : `${metrics.status} ${metrics.text.slice(0, 300)}`}`);
  return out;
}

/**
 * A polluted Object.prototype shows in objects made afterwards (for…in copies, spreads,
 * defaulting): one fresh object of every kind, created and read back, must carry none of the
 * keys the fuzz tried to plant. The fresh objects join the model.
 */
export async function noPollution(env: FuzzEnv, tag: string): Promise<string[]> {
  const out: string[] = [];
  for (const t of targets) {
    const name = `fz-fresh-${tag}`;
    const created = await env.client.json('POST', t.collection(env.ctx.ns), t.manifest(name, env.ctx.ns));
    if (created.status !== 201) {
      out.push(`create ${t.id} ${name}: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
      continue;
    }
    const got = await env.client.json('GET', itemPath(t, env.ctx.ns, name));
    const planted = [...canaryPaths(created.body), ...canaryPaths(got.body)];
    if (got.status !== 200 || planted.length > 0) out.push(`${t.id} ${name}: ${got.status}, inherited fields ${planted.join(', ')}: ${JSON.stringify(got.body).slice(0, 300)}`);
    if (got.status === 200) env.model.set(t, got.body);
  }
  return out;
}

/** Lists every kind and compares it with the model; waits (bounded) for Namespaces being finalized. */
export async function listsMatchModel(env: FuzzEnv): Promise<string[]> {
  const out: string[] = [];
  for (const t of targets) {
    let diff: string[] = [];
    await until(
      `${t.id} list equal to the model`,
      async () => {
        diff = env.model.diff(t, t.namespaced ? env.ctx.ns : '', await listScope(env.client, t, env.ctx.ns));
        return diff.length === 0 ? true : undefined;
      },
      t.namespaced ? 1 : 30_000,
    ).catch(() => out.push(...diff.map((d) => `${t.id}: ${d}`)));
  }
  return out;
}
