// What RBAC costs a request through the server (issue 14's target: authorization adds less than
// 10 % CPU per request at 1,000 roles and 1,000 bindings). Two control planes on SQLite, started
// as users run them, hold the same policy — 500 ClusterRoles, 500 Roles over 50 namespaces, 500
// ClusterRoleBindings and 500 RoleBindings naming other users, groups and service accounts, plus
// one RoleBinding granting `alice` get on flunders in ns-0 — one with --authorization-mode
// AlwaysAllow, one with RBAC (the default). A static-token user `alice` (no admin certificate, so
// the privileged-group shortcut does not apply) GETs one Flunder by name over keep-alive HTTPS
// (undici, 16 connections): the server's CPU per GET (/proc/<pid>/stat) in each mode, rounds
// alternating between the two servers so a change of machine load hits both alike.
// BENCH_QUICK=1 shrinks the rounds. Run: npm run bench -- rbac-http
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { ControlPlane } from '../integration/harness.js';
import { LoadClient } from './lib/load.js';
import { runBench, withCpu } from './lib/process.js';

const quick = process.env['BENCH_QUICK'] === '1';
const ROUNDS = quick ? 2 : 5;
const GETS = quick ? 4000 : 20_000;
const CONNECTIONS = 16;
const POLICY = 1000;
const NAMESPACES = 50;
const G = 'rbac.authorization.k8s.io';
const RBAC = `/apis/${G}/v1`;
const FLUNDER = '/apis/wardle.example.com/v1alpha1/namespaces/ns-0/flunders/f1';

/** Runs `fns` with at most `n` in flight. */
async function pooled(n: number, fns: (() => Promise<void>)[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < fns.length) await (fns[next++] ?? (() => Promise.resolve()))();
    }),
  );
}

/** The policy, written as the admin (system:masters: no escalation check stands in the way). */
async function writePolicy(admin: LoadClient): Promise<void> {
  await pooled(
    8,
    Array.from({ length: NAMESPACES }, (_, i) => () => admin.expect(201, 'POST', '/api/v1/namespaces', { metadata: { name: `ns-${i}` } })),
  );
  const rules = (i: number): object[] => [
    { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: [`res-${i}`, `res-${i}/status`] },
    { verbs: ['create', 'update'], apiGroups: [`group-${i % 7}.example.com`], resources: [`kind-${i}s`] },
  ];
  const subjects = (i: number, ns: string): object[] => [
    { kind: 'User', apiGroup: G, name: `user-${i}` },
    { kind: 'Group', apiGroup: G, name: `group-${i}` },
    { kind: 'ServiceAccount', name: `sa-${i}`, namespace: ns },
  ];
  const writes: (() => Promise<void>)[] = [];
  for (let i = 0; i < POLICY / 2; i++) {
    const ns = `ns-${i % NAMESPACES}`;
    writes.push(() => admin.expect(201, 'POST', `${RBAC}/clusterroles`, { metadata: { name: `cr-${i}` }, rules: rules(i) }));
    writes.push(() => admin.expect(201, 'POST', `${RBAC}/namespaces/${ns}/roles`, { metadata: { name: `role-${i}` }, rules: rules(i) }));
    writes.push(() =>
      admin.expect(201, 'POST', `${RBAC}/clusterrolebindings`, { metadata: { name: `crb-${i}` }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: `cr-${i}` }, subjects: subjects(i, ns) }),
    );
    writes.push(() =>
      admin.expect(201, 'POST', `${RBAC}/namespaces/${ns}/rolebindings`, { metadata: { name: `rb-${i}` }, roleRef: { apiGroup: G, kind: 'Role', name: `role-${i}` }, subjects: subjects(i, ns) }),
    );
  }
  writes.push(() =>
    admin.expect(201, 'POST', `${RBAC}/clusterroles`, { metadata: { name: 'flunder-reader' }, rules: [{ verbs: ['get'], apiGroups: ['wardle.example.com'], resources: ['flunders'] }] }),
  );
  writes.push(() =>
    admin.expect(201, 'POST', `${RBAC}/namespaces/ns-0/rolebindings`, {
      metadata: { name: 'alice-reads' },
      roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'flunder-reader' },
      subjects: [{ kind: 'User', apiGroup: G, name: 'alice' }],
    }),
  );
  await pooled(32, writes);
  await admin.expect(201, 'POST', '/apis/wardle.example.com/v1alpha1/namespaces/ns-0/flunders', { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'f1' } });
}

/** alice's client: her bearer token, no client certificate. */
function alicePool(cp: ControlPlane): Pool {
  return new Pool(cp.url, { connections: CONNECTIONS, pipelining: 1, connect: { ca: cp.credentials.caPEM, timeout: 60_000 } });
}

async function get(pool: Pool): Promise<number> {
  const r = await pool.request({ method: 'GET', path: FLUNDER, headers: { accept: 'application/json', authorization: 'Bearer alice-token' } });
  await r.body.dump();
  return r.statusCode;
}

async function gets(pool: Pool, n: number): Promise<void> {
  await pooled(
    CONNECTIONS,
    Array.from({ length: n }, () => async () => {
      const status = await get(pool);
      if (status !== 200) throw new Error(`GET ${FLUNDER} as alice: HTTP ${status}`);
    }),
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'rbac-http-bench-'));
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(tokens, 'alice-token,alice,alice-uid,"devs"\n');
  const modes = ['AlwaysAllow', 'RBAC'] as const;
  const servers: { mode: (typeof modes)[number]; cp: ControlPlane; pool: Pool; cpu: number[] }[] = [];
  try {
    for (const mode of modes) {
      const cp = await ControlPlane.start({ backend: 'sqlite', extraArgs: ['--token-auth-file', tokens, '--authorization-mode', mode], readyTimeoutMs: 120_000 });
      const admin = new LoadClient(cp.credentials, 32);
      const t0 = performance.now();
      await writePolicy(admin);
      await admin.close();
      const pool = alicePool(cp);
      // RBAC reads the policy from a watch: wait until alice's grant is there.
      while ((await get(pool)) !== 200) await new Promise((r) => setTimeout(r, 50));
      console.log(`${mode}: policy written and seen in ${Math.round(performance.now() - t0)} ms`);
      servers.push({ mode, cp, pool, cpu: [] });
    }
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ${GETS.toLocaleString('en-US')} GETs per round, ${ROUNDS} rounds alternating`,
    );
    for (const s of servers) await gets(s.pool, GETS / 4);
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of servers) {
        const [, cpu] = await withCpu(s.cp.pid, GETS, () => gets(s.pool, GETS));
        s.cpu.push(cpu.server * 1000);
      }
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
    const [allow, rbac] = servers.map((s) => median(s.cpu));
    for (const s of servers) console.log(`${s.mode}: server CPU per GET ${median(s.cpu).toFixed(1)} µs (rounds: ${s.cpu.map((c) => c.toFixed(1)).join(', ')})`);
    if (allow !== undefined && rbac !== undefined) {
      const share = ((rbac - allow) / allow) * 100;
      console.log(`RBAC adds ${(rbac - allow).toFixed(1)} µs per GET, ${share.toFixed(1)} % (target < 10 %: ${share < 10 ? 'PASS' : 'FAIL'})`);
    }
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    for (const s of servers) {
      await s.pool.close();
      await s.cp.stop();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
