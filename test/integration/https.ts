// A raw HTTPS client for wire-level checks: trusts the server's CA, presents the admin
// credentials from the kubeconfig, keeps connections alive, and never throws on an HTTP error
// status (the tests assert on status codes and Status bodies themselves).
import { Agent, request as httpsRequest, type RequestOptions } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Credentials } from './harness.js';

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string | number>;
  body?: string | Buffer;
  timeoutMs?: number;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** The Status shape every error must have. */
export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  status: 'Failure' | 'Success';
  code: number;
  reason?: string;
  message?: string;
  details?: { name?: string; group?: string; kind?: string; causes?: Array<{ reason?: string; message?: string; field?: string }> };
}

export class HttpsClient {
  readonly agent: Agent;

  /** `anonymous` trusts the CA but presents no credentials (kube's system:anonymous). */
  constructor(
    readonly creds: Credentials,
    opts: { maxSockets?: number; anonymous?: boolean } = {},
  ) {
    this.anonymous = opts.anonymous ?? false;
    this.agent = new Agent({
      keepAlive: true,
      maxSockets: opts.maxSockets ?? 64,
      ca: creds.caPEM,
      ...(creds.certPEM && creds.keyPEM && !this.anonymous ? { cert: creds.certPEM, key: creds.keyPEM } : {}),
    });
  }

  private readonly anonymous: boolean;

  private options(r: RawRequest): RequestOptions {
    const u = new URL(this.creds.server);
    const headers: Record<string, string | number> = { ...(r.headers ?? {}) };
    if (this.anonymous) {
      // no credentials
    } else if (this.creds.token) headers['Authorization'] = `Bearer ${this.creds.token}`;
    else if (this.creds.username && this.creds.password) headers['Authorization'] = `Basic ${Buffer.from(`${this.creds.username}:${this.creds.password}`).toString('base64')}`;
    if (r.body !== undefined && headers['Content-Length'] === undefined) headers['Content-Length'] = Buffer.byteLength(r.body);
    return { host: u.hostname, port: u.port, method: r.method ?? 'GET', path: r.path, headers, agent: this.agent, servername: u.hostname === '127.0.0.1' ? undefined : u.hostname };
  }

  /** Sends one request and reads the whole response. */
  async request(r: RawRequest): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(this.options(r), (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
        });
        res.on('error', reject);
      });
      req.setTimeout(r.timeoutMs ?? 30_000, () => req.destroy(new Error(`${r.method ?? 'GET'} ${r.path.slice(0, 200)}: no response within ${r.timeoutMs ?? 30_000} ms`)));
      req.on('error', reject);
      req.end(r.body);
    });
  }

  /** JSON request helper: sends `body` as JSON, parses the answer. */
  async json(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown>; headers: IncomingHttpHeaders }> {
    const r = await this.request({
      method,
      path,
      headers: { Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(r.text) as Record<string, unknown>;
    } catch {
      throw new Error(`${method} ${path}: ${r.status} with a non-JSON body: ${r.text.slice(0, 500)}`);
    }
    return { status: r.status, body: parsed, headers: r.headers };
  }

  /** Opens a watch; events are parsed line by line as they arrive. */
  async watch(path: string, headers: Record<string, string> = {}): Promise<WatchStream> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(this.options({ path, headers: { Accept: 'application/json', ...headers } }), (res) => resolve(new WatchStream(res, () => req.destroy())));
      req.on('error', reject);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface WatchEvent {
  type: string;
  object: Record<string, unknown>;
}

/** A watch response: status, headers, raw chunks (framing checks) and parsed events. */
export class WatchStream {
  readonly events: WatchEvent[] = [];
  /** performance.now() at which each event of `events` was parsed (latency measurements). */
  readonly arrivals: number[] = [];
  readonly chunks: string[] = [];
  ended = false;
  private buf = '';
  private waiters: Array<() => void> = [];

  constructor(
    readonly res: IncomingMessage,
    private readonly abort: () => void,
  ) {
    res.on('data', (c: Buffer) => {
      const s = c.toString('utf8');
      this.chunks.push(s);
      this.buf += s;
      let i: number;
      while ((i = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, i);
        this.buf = this.buf.slice(i + 1);
        if (line.trim() === '') continue;
        this.events.push(JSON.parse(line) as WatchEvent);
        this.arrivals.push(performance.now());
      }
      this.wake();
    });
    const done = (): void => {
      this.ended = true;
      this.wake();
    };
    res.on('end', done);
    res.on('close', done);
    res.on('error', done);
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  /** Text received after the last newline (must be empty between events: newline framing). */
  get pending(): string {
    return this.buf;
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Waits until `pred` holds over the events received (or the stream ends / times out). */
  async until(pred: (events: WatchEvent[]) => boolean, timeoutMs = 30_000): Promise<WatchEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (!pred(this.events)) {
      if (this.ended) throw new Error(`watch ended before the condition held; events: ${JSON.stringify(this.events.map((e) => e.type))}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`watch condition not met within ${timeoutMs} ms; events: ${JSON.stringify(this.events).slice(0, 2000)}`);
      await new Promise<void>((r) => {
        const t = setTimeout(r, left);
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
    return this.events;
  }

  /** Waits for the server to end the stream. */
  async end(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (Date.now() > deadline) throw new Error(`watch stream not closed by the server within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  close(): void {
    this.abort();
  }
}

/** Parses a body that must be a Kubernetes Status; throws with the body when it is not. */
export function asStatus(text: string): StatusBody {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new Error(`not a JSON Status: ${text.slice(0, 300)}`);
  }
  const s = v as Partial<StatusBody>;
  if (s.kind !== 'Status' || s.apiVersion !== 'v1' || typeof s.code !== 'number') throw new Error(`not a Status: ${text.slice(0, 300)}`);
  return s as StatusBody;
}
