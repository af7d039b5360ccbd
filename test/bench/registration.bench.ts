// Registration benchmark (issues 6 and 7): how soon a CustomResourceDefinition written through
// the API is usable. For each of N CRDs (a CronTab-shaped CRD under its own group), created over
// HTTPS against the control plane command on SQLite, it polls every 5 ms for: the CRD
// Established (what `kubectl wait --for=condition=Established` waits for), its resource in
// aggregated discovery, its local APIService `v1.<group>`, and a custom resource accepted; then,
// after the CRD is deleted, the APIService gone. Targets: Established and the APIService within
// 1 s (median and max reported). BENCH_QUICK=1 registers fewer CRDs.
import { performance } from 'node:perf_hooks';
import { ControlPlane } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { runBench } from './lib/process.js';

const count = process.env['BENCH_QUICK'] === '1' ? 3 : 10;

function crd(group: string): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `crontabs.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer' } } } } },
          },
        },
      ],
    },
  };
}

/** Polls `check` every 5 ms until it holds; the ms from `t0`. Fails after 30 s. */
async function until(t0: number, check: () => Promise<boolean>): Promise<number> {
  for (;;) {
    if (await check()) return performance.now() - t0;
    if (performance.now() - t0 > 30_000) throw new Error('not within 30 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const f0 = (n: number): string => n.toFixed(0);

async function main(): Promise<void> {
  const cp = await ControlPlane.start({ backend: 'sqlite' });
  const c = new HttpsClient(cp.credentials);
  const figures = { established: [] as number[], discovery: [] as number[], apiService: [] as number[], firstCreate: [] as number[], apiServiceGone: [] as number[] };
  try {
    for (let i = 0; i < count; i++) {
      const group = `bench${i}.example.com`;
      const t0 = performance.now();
      const created = await c.json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd(group));
      if (created.status !== 201) throw new Error(`create CRD: ${created.status} ${JSON.stringify(created.body)}`);
      const [established, discovery, apiService, firstCreate] = await Promise.all([
        until(t0, async () => {
          const r = await c.json('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.${group}`);
          const conditions = (r.body['status'] as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [];
          return conditions.some((x) => x.type === 'Established' && x.status === 'True');
        }),
        until(t0, async () => (await c.json('GET', `/apis/${group}/v1`)).status === 200),
        until(t0, async () => (await c.json('GET', `/apis/apiregistration.k8s.io/v1/apiservices/v1.${group}`)).status === 200),
        until(t0, async () => {
          const r = await c.json('POST', `/apis/${group}/v1/namespaces/default/crontabs`, {
            apiVersion: `${group}/v1`,
            kind: 'CronTab',
            metadata: { name: 'first' },
            spec: { cronSpec: '* * * * */5' },
          });
          return r.status === 201 || r.status === 409;
        }),
      ]);
      figures.established.push(established);
      figures.discovery.push(discovery);
      figures.apiService.push(apiService);
      figures.firstCreate.push(firstCreate);
      const t1 = performance.now();
      await c.json('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.${group}`);
      figures.apiServiceGone.push(await until(t1, async () => (await c.json('GET', `/apis/apiregistration.k8s.io/v1/apiservices/v1.${group}`)).status === 404));
    }
  } finally {
    c.close();
    await cp.stop();
  }
  const row = (name: string, xs: number[], target?: number): string =>
    `${name.padEnd(44)} median ${f0(median(xs)).padStart(5)} ms  max ${f0(Math.max(...xs)).padStart(5)} ms${target === undefined ? '' : `  target < ${target} ms: ${Math.max(...xs) < target ? 'PASS' : 'FAIL'}`}`;
  console.log(`Registration benchmark: ${count} CRDs, one at a time, control plane on SQLite, polled every 5 ms over HTTPS`);
  console.log(row('CRD created → Established', figures.established, 1000));
  console.log(row('CRD created → /apis/<group>/v1 served', figures.discovery));
  console.log(row('CRD created → first CronTab accepted', figures.firstCreate));
  console.log(row('CRD created → APIService v1.<group> exists', figures.apiService, 1000));
  console.log(row('CRD deleted → APIService v1.<group> gone', figures.apiServiceGone));
}

runBench(main);
