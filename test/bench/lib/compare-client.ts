// The differential probe's client and comparison (hack/compare-upstream.ts): one request sent as
// written (raw bytes, any headers, no Content-Type unless given) to a server, the answer kept raw,
// and two answers compared field by field after the values that differ by nature (uids,
// timestamps, resourceVersions, generated names, continue tokens, Table ages) are normalised.
import { Pool } from 'undici';
import type { Credentials } from '../../integration/harness.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type RawBody = string | Buffer;

/** One server's state as the battery runs: answers saved by name for later requests. */
export interface ServerState {
  readonly label: string;
  readonly saved: Map<string, Json>;
}

/** One request of the battery. A body or path function sees the server's own saved answers. */
export interface Case {
  id: string;
  method: Method;
  path: string | ((s: ServerState) => string);
  /** Sent as is; a function may build it from saved answers (resourceVersions, uids). */
  body?: RawBody | ((s: ServerState) => RawBody);
  /** Content-Type of a body; application/json by default; null sends none. */
  ct?: string | null;
  accept?: string | null;
  headers?: Record<string, string>;
  /** Saves the parsed answer under this name. */
  save?: string;
}

export interface Answer {
  status: number;
  contentType: string;
  warnings: string[];
  text: string;
  json?: Json;
}

export class RawClient {
  private readonly pool: Pool;
  constructor(creds: Credentials) {
    this.pool = new Pool(creds.server, {
      connections: 4,
      pipelining: 1,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
      connect: { ca: creds.caPEM, ...(creds.certPEM && creds.keyPEM ? { cert: creds.certPEM, key: creds.keyPEM } : {}) },
    });
  }

  async send(c: Case, s: ServerState): Promise<Answer> {
    const body = typeof c.body === 'function' ? c.body(s) : c.body;
    const headers: Record<string, string> = {};
    if (c.accept !== null) headers['accept'] = c.accept ?? 'application/json';
    if (body !== undefined && c.ct !== null) headers['content-type'] = c.ct ?? 'application/json';
    Object.assign(headers, c.headers ?? {});
    const path = typeof c.path === 'function' ? c.path(s) : c.path;
    try {
      const r = await this.pool.request({ method: c.method, path, headers, ...(body !== undefined ? { body } : {}) });
      const buf = Buffer.from(await r.body.arrayBuffer());
      const text = buf.toString('utf8');
      const h = (k: string): string[] => {
        const v = r.headers[k];
        return v === undefined ? [] : Array.isArray(v) ? v : [v];
      };
      const a: Answer = { status: r.statusCode, contentType: h('content-type').join(', '), warnings: h('warning'), text };
      try {
        a.json = JSON.parse(text) as Json;
      } catch {
        // not JSON (a watch stream, YAML, text)
      }
      if (c.save !== undefined && a.json !== undefined) s.saved.set(c.save, a.json);
      return a;
    } catch (e) {
      return { status: -1, contentType: '', warnings: [], text: `client error: ${String(e)}` };
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

const VOLATILE = new Set(['uid', 'resourceVersion', 'creationTimestamp', 'time', 'lastTransitionTime', 'deletionTimestamp', 'continue', 'selfLink']);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const AGE = /^\d+(s|m|h|d|y)(\d+(s|m|h|d))?$/;

/** The answer with the values that differ by nature replaced by placeholders. */
export function normalise(v: Json, key = ''): Json {
  if (Array.isArray(v)) return v.map((x) => normalise(x, key));
  if (v !== null && typeof v === 'object') {
    const out: { [k: string]: Json } = {};
    const gen = typeof v['generateName'] === 'string' ? v['generateName'] : undefined;
    for (const [k, x] of Object.entries(v)) {
      if (VOLATILE.has(k) && typeof x === 'string' && x !== '') out[k] = `<${k}>`;
      else if (k === 'name' && gen !== undefined && typeof x === 'string' && x.startsWith(gen)) out[k] = `${gen}<random>`;
      else if (k === 'cells' && Array.isArray(x)) out[k] = x.map((c) => (typeof c === 'string' && AGE.test(c) ? '<age>' : normalise(c, k)));
      else out[k] = normalise(x, k);
    }
    return out;
  }
  if (typeof v === 'string') return v.replace(UUID, '<uuid>');
  return v;
}

/** Differences of two JSON values as `path: a ≠ b` lines (at most `max`). */
export function jsonDiff(a: Json | undefined, b: Json | undefined, path = '', out: string[] = [], max = 12): string[] {
  if (out.length >= max) return out;
  const isObj = (x: Json | undefined): x is { [k: string]: Json } => x !== null && typeof x === 'object' && !Array.isArray(x);
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) jsonDiff(a[k], b[k], `${path}.${k}`, out, max);
  } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => jsonDiff(x, b[i], `${path}[${i}]`, out, max));
  } else if (JSON.stringify(a) !== JSON.stringify(b)) {
    const show = (x: Json | undefined): string => (x === undefined ? '(absent)' : JSON.stringify(x).slice(0, 400));
    out.push(`${path || '(root)'}: upstream ${show(a)} | ours ${show(b)}`);
  }
  return out;
}

/** The ways two answers differ (empty: identical after normalisation). */
export function compareAnswers(up: Answer, ours: Answer): string[] {
  const d: string[] = [];
  if (up.status !== ours.status) d.push(`status: upstream ${up.status} | ours ${ours.status}`);
  const ct = (s: string): string => s.replace(/\s+/g, '').toLowerCase();
  if (ct(up.contentType) !== ct(ours.contentType)) d.push(`content-type: upstream ${JSON.stringify(up.contentType)} | ours ${JSON.stringify(ours.contentType)}`);
  const w = (a: Answer): string => JSON.stringify(a.warnings.map((x) => x.replace(UUID, '<uuid>')));
  if (w(up) !== w(ours)) d.push(`warnings: upstream ${w(up)} | ours ${w(ours)}`);
  if (up.json !== undefined && ours.json !== undefined) {
    d.push(...jsonDiff(normalise(up.json), normalise(ours.json)).map((x) => `body${x}`));
  } else {
    const strip = (t: string): string => t.replace(UUID, '<uuid>').replace(/"(resourceVersion|creationTimestamp|uid|time)":"[^"]*"/g, '"$1":"<x>"');
    if (strip(up.text) !== strip(ours.text)) d.push(`raw body: upstream ${JSON.stringify(up.text.slice(0, 400))} | ours ${JSON.stringify(ours.text.slice(0, 400))}`);
  }
  return d;
}

/** status, reason and message of an answer, for the report. */
export function summary(a: Answer): string {
  const j = a.json;
  if (j !== null && typeof j === 'object' && !Array.isArray(j) && j['kind'] === 'Status') {
    const det = j['details'] === undefined ? '' : ` details=${JSON.stringify(j['details'])}`;
    return `${a.status} ${String(j['reason'] ?? '')} ${JSON.stringify(j['message'] ?? '')}${det}`;
  }
  if (j !== undefined && j !== null && typeof j === 'object' && !Array.isArray(j)) return `${a.status} ${String(j['kind'] ?? '(object)')}`;
  return `${a.status} ${JSON.stringify(a.text.slice(0, 200))}`;
}
