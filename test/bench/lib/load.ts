// The benches' load client: undici's Pool over keep-alive HTTPS with the admin client
// certificate, one request in flight per connection. Its CPU per request is a fraction of
// node:https's, so on a 2-core machine the server, not the client, sets the pace.
import { Pool } from 'undici';
import type { Credentials } from '../../integration/harness.js';

export class LoadClient {
  private readonly pool: Pool;

  constructor(creds: Credentials, connections: number) {
    this.pool = new Pool(creds.server, {
      connections,
      pipelining: 1,
      connect: { ca: creds.caPEM, ...(creds.certPEM && creds.keyPEM ? { cert: creds.certPEM, key: creds.keyPEM } : {}) },
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

  close(): Promise<void> {
    return this.pool.close();
  }
}
