// A differential probe against an upstream server: the same battery of requests (hostile bodies,
// YAML, names, metadata, query parameters, Accept and Content-Type headers, patches, apply,
// subresources, deletes, invalid CRDs) sent to k8s.io/apiextensions-apiserver and to our control
// plane, and every difference in status, Content-Type, Warning headers and body (Status reason,
// message, details, code; success bodies with uids, timestamps, resourceVersions and generated
// names normalised) written out.
//
// Run:
//   npx tsx hack/compare-upstream.ts [/path/to/apiextensions-apiserver]
//   (or BENCH_KUBE_APISERVER=/tmp/kubebuild/bin/apiextensions-apiserver npx tsx hack/compare-upstream.ts)
// Options (env): COMPARE_OUT (directory of the output, $TMPDIR/compare-upstream by default: diff-raw.md and
// results.json), COMPARE_ONLY (a substring: only the cases whose id holds it, after the set-up).
//
// Ours is one control plane on SQLite, run from source; it is also the upstream server's
// delegation core (authentication, authorization and the namespaces of NamespaceLifecycle), so
// a namespace created on it exists for both. Upstream runs on a fresh etcd of its own
// (test/bench/lib/upstream.ts). Only the processes started here are stopped.
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControlPlane } from '../test/integration/harness.js';
import { battery1, NS, W, G } from '../test/bench/lib/compare-battery.js';
import { battery2 } from '../test/bench/lib/compare-battery2.js';
import { compareAnswers, RawClient, summary, type Answer, type Case, type ServerState } from '../test/bench/lib/compare-client.js';
import { CRD_PATH, crdInvalidCases, gizmoCRD, widgetCRD } from '../test/bench/lib/compare-crds.js';
import { postNamespace } from '../test/bench/lib/crontab-workload.js';
import { LoadClient } from '../test/bench/lib/load.js';
import { upstream } from '../test/bench/lib/upstream.js';

interface Result {
  n: number;
  id: string;
  method: string;
  path: string;
  contentType: string | null;
  body: string;
  upstream: Answer;
  ours: Answer;
  diffs: string[];
}

const describeBody = (b: string | Buffer | undefined): string => {
  if (b === undefined) return '(none)';
  const s = Buffer.isBuffer(b) ? b.toString('latin1') : b;
  return s.length > 300 ? `${JSON.stringify(s.slice(0, 300))}… (${s.length} bytes)` : JSON.stringify(s);
};

async function waitServed(client: RawClient, state: ServerState, path: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const a = await client.send({ id: 'wait', method: 'GET', path }, state);
    if (a.status === 200) return;
    if (Date.now() > deadline) throw new Error(`${state.label}: ${path} not served in 60 s: ${a.status} ${a.text.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function report(results: readonly Result[], bin: string): string {
  const diff = results.filter((r) => r.diffs.length > 0);
  const out = [`# Differential probe: ${bin} vs ours`, '', `${results.length} requests, ${results.length - diff.length} identical after normalisation, ${diff.length} different.`, ''];
  for (const r of diff) {
    out.push(`## ${r.n}. ${r.id}`, '', `\`${r.method} ${r.path}\`${r.contentType ? ` Content-Type: ${r.contentType}` : ''} body: ${r.body}`, '');
    out.push(`- upstream: ${summary(r.upstream)}`, `- ours:     ${summary(r.ours)}`);
    for (const d of r.diffs) out.push(`  - ${d}`);
    out.push('');
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  const bin = process.argv[2] ?? process.env['BENCH_KUBE_APISERVER'];
  if (bin === undefined || bin === '') throw new Error('usage: npx tsx hack/compare-upstream.ts <path of apiextensions-apiserver> (or BENCH_KUBE_APISERVER)');
  const outDir = process.env['COMPARE_OUT'] ?? join(tmpdir(), 'compare-upstream');
  const only = process.env['COMPARE_ONLY'];
  mkdirSync(outDir, { recursive: true });
  const core = await ControlPlane.start({ backend: 'sqlite' });
  const results: Result[] = [];
  try {
    const up = await upstream(bin, core);
    const coreLoad = new LoadClient(core.credentials, 1);
    const clients = { up: new RawClient(up.credentials), ours: new RawClient(core.credentials) };
    const states: { up: ServerState; ours: ServerState } = { up: { label: 'upstream', saved: new Map() }, ours: { label: 'ours', saved: new Map() } };
    try {
      for (const ns of [NS]) await postNamespace(coreLoad, ns);
      const run = async (c: Case): Promise<void> => {
        const [a, b] = await Promise.all([clients.up.send(c, states.up), clients.ours.send(c, states.ours)]);
        const body = typeof c.body === 'function' ? c.body(states.up) : c.body;
        const path = typeof c.path === 'function' ? c.path(states.up) : c.path;
        const contentType = body === undefined || c.ct === null ? null : (c.ct ?? 'application/json');
        results.push({ n: results.length + 1, id: c.id, method: c.method, path, contentType, body: describeBody(body), upstream: a, ours: b, diffs: compareAnswers(a, b) });
      };
      await run({ id: 'create CRD widgets', method: 'POST', path: CRD_PATH, body: JSON.stringify(widgetCRD()) });
      await run({ id: 'create CRD gizmos', method: 'POST', path: CRD_PATH, body: JSON.stringify(gizmoCRD()) });
      for (const [k, client] of [['up', clients.up] as const, ['ours', clients.ours] as const]) {
        await waitServed(client, states[k], W);
        await waitServed(client, states[k], G);
      }
      await run({ id: 'create CRD widgets again (exists)', method: 'POST', path: CRD_PATH, body: JSON.stringify(widgetCRD()) });
      await run({ id: 'get CRD widgets', method: 'GET', path: `${CRD_PATH}/widgets.probe.example.com` });
      const cases = [...crdInvalidCases, ...battery1(), ...battery2()].filter((c) => only === undefined || c.id.includes(only));
      for (const c of cases) await run(c);
    } finally {
      await clients.up.close();
      await clients.ours.close();
      await coreLoad.close();
      await up.stop();
    }
  } finally {
    await core.stop();
  }
  writeFileSync(join(outDir, 'results.json'), JSON.stringify(results, null, 1));
  writeFileSync(join(outDir, 'diff-raw.md'), report(results, bin));
  const d = results.filter((r) => r.diffs.length > 0).length;
  console.log(`${results.length} requests, ${results.length - d} identical, ${d} different: ${join(outDir, 'diff-raw.md')}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
