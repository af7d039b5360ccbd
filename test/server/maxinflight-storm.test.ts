// --max-requests-inflight under a read storm. Reads answered at once (as from the watch cache)
// never overlap inside the filter of a single-threaded server, so the limit must count requests
// from the moment node parsed them: with a limit of 1 and hundreds of connections sending at
// once, some reads must get kube's 429 while probes and system:masters are still served and the
// server keeps answering. Nothing here depends on the machine's speed: many requests are parsed
// in one turn of the event loop whatever it is.
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { describe, it } from 'node:test';
import type { Authenticator } from '../../runtime/authentication/authenticator.js';
import { until } from '../integration/assertions.js';
import { startServer } from './harness.js';

const CONNECTIONS = 200;
const REQUESTS = 2_000;

const users: Authenticator = {
  async authenticate(req) {
    if (req.headers.authorization === 'Bearer admin') return { user: { name: 'admin', groups: ['system:masters', 'system:authenticated'] } };
    return { user: { name: 'jane', groups: ['system:authenticated'] } };
  },
};

function get(url: string, agent: Agent | undefined, headers: Record<string, string> = {}): Promise<{ status: number; retryAfter: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('max in flight under a read storm', () => {
  it('answers some reads 429 with kube Status, serves /readyz and system:masters, and stays responsive', { timeout: 300_000 }, async () => {
    const t = await startServer({
      config: { maxRequestsInFlight: 1, authenticator: users },
      setup: (s) => s.mux.handlePrefix('/api/', async (_req, res) => res.writeJSON(200, { kind: 'ConfigMap', apiVersion: 'v1' })),
    });
    const storm = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    try {
      const url = `${t.url}/api/v1/namespaces/default/configmaps/c1`;
      const statuses = new Map<number, number>();
      let tooMany: { retryAfter: string | undefined; body: string } | undefined;
      const reads = Array.from({ length: REQUESTS }, () =>
        get(url, storm).then((r) => {
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (r.status === 429) tooMany ??= r;
        }),
      );
      // While the storm runs: probes and the super-user are not limited.
      const [readyz, admin] = await Promise.all([get(`${t.url}/readyz`, undefined), get(url, undefined, { authorization: 'Bearer admin' })]);
      await Promise.all(reads);

      assert.equal(readyz.status, 200, readyz.body);
      assert.equal(admin.status, 200, admin.body);
      assert.deepEqual(
        [...statuses.keys()].filter((s) => s !== 200 && s !== 429),
        [],
        `only 200 and 429: ${JSON.stringify([...statuses])}`,
      );
      assert.ok((statuses.get(429) ?? 0) > 0, `no read was refused: ${JSON.stringify([...statuses])}`);
      assert.ok((statuses.get(200) ?? 0) > 0, `no read was served: ${JSON.stringify([...statuses])}`);
      assert.ok(tooMany !== undefined);
      assert.equal(tooMany.retryAfter, '1');
      assert.deepEqual(JSON.parse(tooMany.body), {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Too many requests, please try again later.',
        reason: 'TooManyRequests',
        details: { retryAfterSeconds: 1 },
        code: 429,
      });
      // The storm is over: the count went back down and a read is served again.
      await until('the read-only count to go back to 0', () => (t.server.config.requestsInFlight.inFlight('readOnly') === 0 ? true : undefined));
      assert.equal((await get(url, undefined)).status, 200);
    } finally {
      storm.destroy();
      await t.close();
    }
  });
});
