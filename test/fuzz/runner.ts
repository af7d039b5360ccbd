// Runs a seeded fuzz against a running control plane: sets up the targets (a namespace, kept
// objects of every kind, the CRD), sends the cases with bounded concurrency (requests on one
// object one at a time, in case order), judges each answer, keeps the model of acknowledged
// writes, and probes /readyz throughout. Shared by the test (test/fuzz) and the bench.
import { performance } from 'node:perf_hooks';
import { HttpsClient, type RawResponse } from '../integration/https.js';
import type { Credentials } from '../integration/harness.js';
import type { FuzzCase, Sent } from './cases.js';
import { nextCase } from './generators/index.js';
import { judge } from './judge.js';
import { Model } from './model.js';
import { Rand } from './prng.js';
import { CANARY, type FuzzContext } from './requests.js';
import { installCRD, itemPath, namespaceTarget, targets, type Obj, type Target } from './targets.js';

export interface FuzzEnv {
  client: HttpsClient;
  ctx: FuzzContext;
  model: Model;
  close(): void;
}

export interface FuzzReport {
  seed: number;
  count: number;
  ms: number;
  failures: string[];
  perCategory: Map<string, { n: number; failed: number; ms: number }>;
  readyz: { probes: number; maxMs: number; failures: string[] };
}

const KEEP = 4;
const SLOTS = 6;
export const CONCURRENCY = 8;
/**
 * /readyz while the fuzz runs: generous, for a 2-core machine busy with other suites (a request
 * that stalls the event loop stalls it far longer); after the run, the issue's 1 s.
 */
export const READYZ_DURING_MS = 5000;
export const READYZ_AFTER_MS = 1000;

const targetById = (id: string): Target | undefined => targets.find((t) => t.id === id);

/** Lists one kind in the fuzz's scope (its namespace, or the whole kind when cluster-scoped). */
export async function listScope(client: HttpsClient, t: Target, ns: string): Promise<Obj[]> {
  const r = await client.json('GET', t.collection(ns));
  if (r.status !== 200) throw new Error(`list ${t.collection(ns)}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body['items'] as Obj[];
}

/** Creates the namespace, the CRD and the kept objects; the model starts as a listing of every kind. */
export async function setupFuzz(creds: Credentials, tag: string): Promise<FuzzEnv> {
  const client = new HttpsClient(creds, { maxSockets: CONCURRENCY });
  const ns = `fuzz-${tag}`;
  const names = (prefix: string, n: number): string[] => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
  const ctx: FuzzContext = {
    ns,
    keep: { namespace: [ns, ...names(`fuzz-keep-${tag}`, KEEP - 1)], service: names('keep', KEEP), flunder: names('keep', KEEP), crontab: names('keep', KEEP) },
    slots: { namespace: names(`fz-slot-${tag}`, SLOTS), service: names('fz-slot', SLOTS), flunder: names('fz-slot', SLOTS), crontab: names('fz-slot', SLOTS) },
  };
  for (const name of ctx.keep.namespace) await mustCreate(client, namespaceTarget, ns, name);
  await installCRD(client, ns);
  for (const t of targets) if (t !== namespaceTarget) for (const name of ctx.keep[t.id]) await mustCreate(client, t, ns, name);
  const model = new Model();
  for (const t of targets) for (const o of await listScope(client, t, ns)) model.set(t, o);
  return { client, ctx, model, close: () => client.close() };
}

async function mustCreate(client: HttpsClient, t: Target, ns: string, name: string): Promise<void> {
  const r = await client.json('POST', t.collection(ns), t.manifest(name, ns));
  if (r.status !== 201) throw new Error(`create ${t.id} ${name}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
}

/** Requests on one object run one at a time, in the order of their cases. */
class ObjectLocks {
  private readonly tails = new Map<string, Promise<void>>();

  /** Queues behind earlier holders of `key`; resolves with the release function once it is ours. */
  acquire(key: string | undefined): Promise<() => void> {
    if (key === undefined) return Promise.resolve(() => undefined);
    const prev = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    this.tails.set(
      key,
      prev.then(() => mine),
    );
    return prev.then(() => release);
  }
}

/** Records what a 2xx write did (nothing for reads, dry runs and refused requests). */
async function acknowledge(env: FuzzEnv, fc: FuzzCase, sent: Sent, res: RawResponse): Promise<void> {
  const t = targetById(fc.target);
  const method = sent.req.method ?? 'GET';
  if (!t || method === 'GET' || method === 'HEAD' || res.status < 200 || res.status >= 300) return;
  if (sent.dryRun || /[?&]dryRun=All(&|$)/.test(sent.req.path)) return;
  let body: Obj;
  try {
    body = JSON.parse(res.text) as Obj;
  } catch {
    return;
  }
  if (sent.refresh || /\/scale(\?|$)/.test(sent.req.path)) {
    const name = (body['metadata'] as { name?: string } | undefined)?.name ?? '';
    const r = await env.client.json('GET', itemPath(t, env.ctx.ns, name));
    if (r.status === 200) env.model.set(t, r.body);
    return;
  }
  if (method === 'DELETE') {
    if (Array.isArray(body['items'])) for (const item of body['items'] as Obj[]) env.model.deleted(t, item);
    else if (body['kind'] !== 'Status') env.model.deleted(t, body);
    else if (fc.object !== undefined) env.model.remove(fc.object);
    return;
  }
  if (body['kind'] !== 'Status') env.model.set(t, body);
}

/** Probes /readyz every 250 ms on a connection of its own until stopped. */
function readyzProber(creds: Credentials, limitMs: number): { stop(): Promise<FuzzReport['readyz']> } {
  const client = new HttpsClient(creds, { maxSockets: 1 });
  const out: FuzzReport['readyz'] = { probes: 0, maxMs: 0, failures: [] };
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      const r = await client.request({ path: '/readyz', timeoutMs: 30_000 }).catch((e: Error) => e);
      const ms = performance.now() - t0;
      out.probes++;
      out.maxMs = Math.max(out.maxMs, ms);
      if (r instanceof Error || r.status !== 200) out.failures.push(`/readyz: ${r instanceof Error ? r.message : `${r.status} ${r.text.slice(0, 200)}`}`);
      else if (ms > limitMs) out.failures.push(`/readyz took ${ms.toFixed(0)} ms (limit ${limitMs} ms)`);
      await new Promise((res) => setTimeout(res, 250));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      client.close();
      return out;
    },
  };
}

function describeRequest(fc: FuzzCase, sent: Sent): string {
  const body = sent.req.body === undefined ? '' : ` body=${JSON.stringify((Buffer.isBuffer(sent.req.body) ? sent.req.body.toString('latin1') : sent.req.body).slice(0, 400))}`;
  return `[${fc.category}] ${fc.target} ${fc.verb}: ${sent.req.method ?? 'GET'} ${sent.req.path.slice(0, 200)} ${String(sent.req.headers?.['Content-Type'] ?? '')}${body}`;
}

/** Sends `count` cases drawn from `seed`; judges every answer and keeps the model up to date. */
export async function runFuzz(env: FuzzEnv, creds: Credentials, opts: { seed: number; count: number; readyzLimitMs: number }): Promise<FuzzReport> {
  const rand = new Rand(opts.seed);
  const cases = Array.from({ length: opts.count }, () => nextCase(rand, env.ctx));
  const locks = new ObjectLocks();
  const report: FuzzReport = { seed: opts.seed, count: opts.count, ms: 0, failures: [], perCategory: new Map(), readyz: { probes: 0, maxMs: 0, failures: [] } };
  const prober = readyzProber(creds, opts.readyzLimitMs);
  const started = performance.now();
  let next = 0;
  // A server that is gone or stalls would make every later case wait for its timeout: stop.
  let stopped: string | undefined;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (;;) {
        const i = next++;
        if (i >= cases.length || stopped !== undefined) return;
        const fc = cases[i] as FuzzCase;
        const release = await locks.acquire(fc.object);
        try {
          const sent = fc.build(env.model);
          const t0 = performance.now();
          const res = await env.client.request({ ...sent.req, timeoutMs: 30_000 }).catch((e: Error) => e);
          const why = judge(fc, sent.req.method ?? 'GET', sent.req.path, sent.expect, res);
          const cat = report.perCategory.get(fc.category) ?? { n: 0, failed: 0, ms: 0 };
          cat.n++;
          cat.ms += performance.now() - t0;
          if (why) {
            cat.failed++;
            report.failures.push(`#${i} ${describeRequest(fc, sent)}: ${why}`);
          }
          report.perCategory.set(fc.category, cat);
          if (!(res instanceof Error)) await acknowledge(env, fc, sent, res);
          else if (fc.answer === 'status' && /no response within|ECONNREFUSED/.test(res.message)) stopped ??= `#${i}: ${res.message}`;
        } finally {
          release();
        }
      }
    }),
  );
  report.ms = performance.now() - started;
  if (stopped !== undefined) report.failures.unshift(`stopped sending after ${stopped} (the server is gone or stalled); ${cases.length - Math.min(next, cases.length)} cases not sent`);
  report.readyz = await prober.stop();
  return report;
}

/** One line: totals, then per category passed/sent and the time its requests took (summed over the workers). */
export function summary(r: FuzzReport): string {
  const cats = [...r.perCategory].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k} ${v.n - v.failed}/${v.n} (${(v.ms / 1000).toFixed(1)} s)`);
  return `${r.count} requests (seed ${r.seed}) in ${(r.ms / 1000).toFixed(1)} s; /readyz ${r.readyz.probes} probes, max ${r.readyz.maxMs.toFixed(0)} ms; ${cats.join(', ')}`;
}

/** Paths in a JSON value whose key is the pollution canary (own keys only: JSON has no others). */
export function canaryPaths(v: unknown, path = ''): string[] {
  if (typeof v !== 'object' || v === null) return [];
  const out: string[] = [];
  for (const [k, child] of Object.entries(v)) {
    if (k === CANARY || k === 'isAdmin') out.push(`${path}.${k}`);
    out.push(...canaryPaths(child, `${path}.${k}`));
  }
  return out;
}
