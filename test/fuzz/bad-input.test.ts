// Acceptance (issue 4, bad input): thousands of bad requests from a seeded PRNG against the
// control plane command. Each must answer a Status with the expected code and reason (4xx,
// never 5xx); afterwards the server is ready, every object created before the fuzz is intact
// (same uid and resourceVersion, nothing added), and the process never restarted.
// Reproduce a run with FUZZ_SEED=<seed> (printed on failure); FUZZ_COUNT sets the size.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeBackends, type Backend } from '../integration/harness.js';
import { HttpsClient, asStatus, type RawResponse } from '../integration/https.js';
import { flunderV1beta1 } from '../integration/objects.js';
import { nextCase, type FuzzCase, type FuzzContext } from './generators.js';
import { Rand } from './prng.js';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261121);
const COUNT: Record<Backend, number> = { sqlite: Number(process.env['FUZZ_COUNT'] ?? 3000), etcd3: Number(process.env['FUZZ_COUNT'] ?? 1000) };
const CONCURRENCY = 8;
const KEEP = 30;

interface Snapshot {
  uid: string;
  resourceVersion: string;
}

/** Checks one answer against the case; returns a failure description or undefined. */
function judge(fc: FuzzCase, res: RawResponse | Error): string | undefined {
  if (fc.answer === 'parser') {
    if (res instanceof Error) return /ECONNRESET|EPIPE|socket hang up/.test(res.message) ? undefined : `transport error ${res.message}`;
    return res.status === 431 || res.status === 400 || (res.status >= 400 && res.status < 500 && isStatus(res)) ? undefined : `got ${res.status}, want 431 from the HTTP parser or a 4xx Status`;
  }
  if (res instanceof Error) return `transport error: ${res.message}`;
  const want = fc.expect.map((e) => `${e.code} ${e.reason}`).join(' or ');
  if (res.status >= 500) return `5xx: got ${res.status} ${res.text.slice(0, 300)}; want ${want}`;
  if (fc.req.method === 'HEAD') return fc.expect.some((e) => e.code === res.status) ? undefined : `got ${res.status}, want ${want}`;
  let st;
  try {
    st = asStatus(res.text);
  } catch (e) {
    return `got ${res.status} without a Status body (${(e as Error).message}); want ${want}`;
  }
  if (st.code !== res.status) return `Status.code ${st.code} differs from HTTP ${res.status}`;
  if (st.status !== 'Failure') return `Status.status ${st.status}`;
  if (!fc.expect.some((e) => e.code === res.status && e.reason === st.reason)) return `got ${res.status} ${st.reason ?? ''} "${(st.message ?? '').slice(0, 200)}"; want ${want}`;
  return undefined;
}

function isStatus(res: RawResponse): boolean {
  try {
    asStatus(res.text);
    return true;
  } catch {
    return false;
  }
}

describeBackends('bad input fuzz', (cp, backend) => {
  let c: HttpsClient;
  const ctx: FuzzContext = { ns: 'fuzz-keep', keep: Array.from({ length: KEEP }, (_, i) => `keep-${i}`) };
  const before0 = new Map<string, Snapshot>();
  let pid = -1;

  before(async () => {
    c = new HttpsClient(cp().credentials, { maxSockets: CONCURRENCY });
    pid = cp().pid;
    const ns = await c.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ctx.ns } });
    assert.equal(ns.status, 201, JSON.stringify(ns.body));
    for (const name of ctx.keep) {
      const r = await c.json('POST', `/apis/wardle.example.com/v1beta1/namespaces/${ctx.ns}/flunders`, flunderV1beta1.manifest(name, ctx.ns));
      assert.equal(r.status, 201, JSON.stringify(r.body));
      const m = r.body['metadata'] as Snapshot;
      before0.set(name, { uid: m.uid, resourceVersion: m.resourceVersion });
    }
  });
  after(() => c.close());

  it(`${COUNT[backend]} bad requests (seed ${SEED}) each answer the expected Status`, async (t) => {
    const rand = new Rand(SEED);
    const cases: FuzzCase[] = Array.from({ length: COUNT[backend] }, () => nextCase(rand, ctx));
    const failures: string[] = [];
    const perCategory = new Map<string, { n: number; failed: number }>();
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (;;) {
          const i = next++;
          if (i >= cases.length) return;
          const fc = cases[i] as FuzzCase;
          const res = await c.request({ ...fc.req, timeoutMs: 30_000 }).catch((e: Error) => e);
          const why = judge(fc, res);
          const cat = perCategory.get(fc.category) ?? { n: 0, failed: 0 };
          cat.n++;
          if (why) {
            cat.failed++;
            failures.push(`#${i} [${fc.category}] ${fc.req.method ?? 'GET'} ${fc.req.path.slice(0, 160)} ${String(fc.req.headers?.['Content-Type'] ?? '')} body=${JSON.stringify(String(fc.req.body ?? '').slice(0, 120))}: ${why}`);
          }
          perCategory.set(fc.category, cat);
        }
      }),
    );
    t.diagnostic(`${cases.length} requests in ${((Date.now() - started) / 1000).toFixed(1)} s; per category: ${[...perCategory].map(([k, v]) => `${k} ${v.n - v.failed}/${v.n}`).join(', ')}`);
    assert.equal(cp().exited(), undefined, `the server exited during the fuzz:\n${cp().log().slice(-4000)}`);
    if (failures.length > 0) assert.fail(`${failures.length} of ${cases.length} answers were wrong (FUZZ_SEED=${SEED}); the first ones:\n${failures.slice(0, 30).join('\n')}`);
  });

  it('afterwards: ready, same process, every object intact, nothing added', async () => {
    assert.equal(cp().exited(), undefined, cp().log().slice(-4000));
    assert.equal(cp().pid, pid);
    const ready = await c.request({ path: '/readyz' });
    assert.equal(ready.status, 200, ready.text);
    const list = await c.json('GET', `/apis/wardle.example.com/v1beta1/namespaces/${ctx.ns}/flunders`);
    assert.equal(list.status, 200);
    const items = list.body['items'] as Array<{ metadata: { name: string } & Snapshot }>;
    assert.deepEqual(items.map((i) => i.metadata.name).sort(), [...ctx.keep].sort(), 'exactly the objects created before the fuzz');
    for (const i of items) assert.deepEqual({ uid: i.metadata.uid, resourceVersion: i.metadata.resourceVersion }, before0.get(i.metadata.name), `${i.metadata.name} unchanged`);
    const all = await c.json('GET', '/apis/wardle.example.com/v1beta1/flunders');
    const names = (all.body['items'] as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name).sort();
    assert.deepEqual(names, [...ctx.keep].sort(), 'no Flunder created anywhere by the fuzz');
  });
});
