// The benches' load client: undici's Pool over keep-alive HTTPS with the admin client
// certificate, one request in flight per connection (HTTP/1.1, ALPN http/1.1 only), or with
// `http2` every request as a stream of HTTP/2 connections (ALPN h2), as client-go multiplexes.
// Its CPU per request is a fraction of node:https's, so on a 2-core machine the server, not the
// client, sets the pace.
import { Pool } from 'undici';
import type { Credentials } from '../../integration/harness.js';

export class LoadClient {
  private readonly pool: Pool;

  /** `http2.streams`: requests in flight on each of the `connections` HTTP/2 connections. */
  constructor(creds: Credentials, connections: number, opts: { http2?: { streams: number } } = {}) {
    this.pool = new Pool(creds.server, {
      connections,
      ...(opts.http2 ? { allowH2: true, pipelining: opts.http2.streams, maxConcurrentStreams: opts.http2.streams } : { pipelining: 1 }),
      // 64 TLS handshakes with client certificates at once take seconds on a busy 2-core machine.
      connect: { ca: creds.caPEM, timeout: 60_000, ...(creds.certPEM && creds.keyPEM ? { cert: creds.certPEM, key: creds.keyPEM } : {}) },
    });
  }

  /**
   * Sends one request and fails unless the answer has status `want`; the body is read and
   * dropped. A body that is not a string is sent as JSON (`contentType`, JSON by default).
   */
  async expect(want: number, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, contentType = 'application/json'): Promise<void> {
    const r = await this.pool.request({
      method,
      path,
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': contentType },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    if (r.statusCode === want) {
      await r.body.dump();
      return;
    }
    throw new Error(`${method} ${path}: HTTP ${r.statusCode} (want ${want}): ${(await r.body.text()).slice(0, 300)}`);
  }

  /** A GET whose status and body the caller reads (set-up, not measured). */
  async get(path: string): Promise<{ status: number; text: string }> {
    const r = await this.pool.request({ method: 'GET', path, headers: { accept: 'application/json' } });
    return { status: r.statusCode, text: await r.body.text() };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
