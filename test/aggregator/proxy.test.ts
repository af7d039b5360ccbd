// The aggregator's proxy in the control plane (in this process, SQLite), in front of an
// aggregated server in this process that trusts only the front-proxy CA: the user forwarded in
// X-Remote-* headers (client certificate, token, and a front proxy's own user with extras),
// spoofed X-Remote-* and the client's Authorization stripped, query and status passed through,
// request bodies streamed, watches streamed event by event, an upgrade piped both ways, the
// group discovery handler, and requests of the in-process loopback client.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { readCredentials } from '../integration/harness.js';
import { asStatus, HttpsClient } from '../integration/https.js';
import { grantUsers } from '../integration/rbac-user.js';
import { json, registration, TestBackend } from './proxy-backend.js';
import { availability, startAggregatorEnv, TOKEN, until, type AggregatorEnv } from './proxy-env.js';

const GROUP = 'proxy.example.com';
const SERVICE = { namespace: 'default', name: 'proxy-api' } as const;
const THINGS = `/apis/${GROUP}/v1/namespaces/default/things`;

interface Echo {
  method: string;
  url: string;
  user: { name: string; uid?: string; groups: string[]; extra?: Record<string, string[]> };
  body: string;
}

describe('aggregator proxy', () => {
  let env: AggregatorEnv;
  let backend: TestBackend;
  /** Watch responses of the backend, in order of arrival; the tests write events to them. */
  const watchResponses: ServerResponse[] = [];
  let slowArrived!: () => void;
  const slow = new Promise<void>((resolve) => {
    slowArrived = resolve;
  });
  const nextWatch = (n: number): Promise<ServerResponse> => until(`backend watch #${n}`, async () => watchResponses[n - 1]);

  before(async () => {
    env = await startAggregatorEnv();
    backend = await TestBackend.start({ group: GROUP, version: 'v1', service: SERVICE, dataDir: env.dataDir });
    backend.routes.push((req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith(`${THINGS}?watch=true`) === true) {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
        res.flushHeaders();
        watchResponses.push(res);
        return true;
      }
      if (req.url === `${THINGS}/slow`) {
        slowArrived();
        setTimeout(() => json(res, 200, { slow: true }), 300);
        return true;
      }
      if (req.url === `${THINGS}/missing`) {
        json(res, 404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 404, reason: 'NotFound', message: 'things "missing" not found' });
        return true;
      }
      return false;
    });
    const r = registration({ group: GROUP, version: 'v1', port: backend.port, caPEM: backend.caPEM }, SERVICE);
    await env.cs.coreV1().services(SERVICE.namespace).create(r.service);
    await env.cs.coreV1().endpoints(SERVICE.namespace).create(r.endpoints);
    await env.cs.apiregistrationV1().apiservices().create(r.apiService);
    await availability(env.cs, `v1.${GROUP}`, 'True', 'Passed');
    // The control plane authorizes before it proxies (RBAC by default): the token user tina and
    // the front proxy's alice may list things in default through a RoleBinding the admin makes.
    await grantUsers(env.admin, ['tina', 'alice'], 'things-reader', [{ verbs: ['list'], apiGroups: [GROUP], resources: ['things'] }], {
      verb: 'list',
      group: GROUP,
      resource: 'things',
      namespace: 'default',
    });
  });
  after(async () => {
    await backend?.stop();
    await env?.close();
  });

  const echo = async (client: HttpsClient, path: string, headers: Record<string, string> = {}): Promise<Echo> => {
    const r = await client.request({ path, headers: { Accept: 'application/json', ...headers } });
    assert.equal(r.status, 200, r.text);
    return JSON.parse(r.text) as Echo;
  };

  test('discovery of the group version comes from the backend; /apis/<group> lists it', async () => {
    const list = await env.admin.json('GET', `/apis/${GROUP}/v1`);
    assert.equal(list.status, 200);
    assert.equal(list.body['kind'], 'APIResourceList');
    assert.equal((list.body['resources'] as { name: string }[])[0]?.name, 'things');
    const group = await env.admin.json('GET', `/apis/${GROUP}`);
    assert.deepEqual(group.body, {
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: GROUP,
      versions: [{ groupVersion: `${GROUP}/v1`, version: 'v1' }],
      preferredVersion: { groupVersion: `${GROUP}/v1`, version: 'v1' },
    });
  });

  test('the authenticated user is forwarded in X-Remote-* headers over the front-proxy certificate; path and query are kept', async () => {
    const e = await echo(env.admin, `${THINGS}?labelSelector=app%3Dweb&limit=5`);
    assert.equal(e.method, 'GET');
    assert.equal(e.url, `${THINGS}?labelSelector=app%3Dweb&limit=5`);
    assert.deepEqual(e.user, { name: 'system:admin', groups: ['system:masters', 'system:authenticated'] });
    const seen = backend.last(THINGS)!;
    assert.deepEqual(seen.headers['x-remote-user'], ['system:admin']);
    assert.deepEqual(seen.headers['x-remote-group'], ['system:masters', 'system:authenticated']);
  });

  test('X-Remote-* headers a client sends are never believed nor passed on', async () => {
    const e = await echo(env.admin, THINGS, { 'X-Remote-User': 'mallory', 'X-Remote-Group': 'system:masters', 'X-Remote-Extra-Scopes': 'all', 'X-Remote-Uid': '0' });
    assert.deepEqual(e.user, { name: 'system:admin', groups: ['system:masters', 'system:authenticated'] });
    const seen = backend.last(THINGS)!;
    assert.deepEqual(seen.headers['x-remote-user'], ['system:admin']);
    assert.equal(seen.headers['x-remote-extra-scopes'], undefined);
    assert.equal(seen.headers['x-remote-uid'], undefined);
  });

  test("a bearer token's user (uid, groups) is forwarded and the Authorization header is not", async () => {
    const creds = readCredentials(env.plane.kubeconfigPath);
    const tina = new HttpsClient({ server: creds.server, caPEM: creds.caPEM, token: TOKEN });
    try {
      const e = await echo(tina, THINGS);
      assert.deepEqual(e.user, { name: 'tina', uid: 'tina-uid', groups: ['devs', 'ops', 'system:authenticated'] });
      const seen = backend.last(THINGS)!;
      assert.equal(seen.headers['authorization'], undefined);
      assert.deepEqual(seen.headers['x-remote-uid'], ['tina-uid']);
    } finally {
      tina.close();
    }
  });

  test("a front proxy's user with extras arrives with the extra keys percent-encoded and decoded again", async () => {
    const creds = readCredentials(env.plane.kubeconfigPath);
    const frontProxy = new HttpsClient({
      server: creds.server,
      caPEM: creds.caPEM,
      certPEM: readFileSync(join(env.dataDir, 'pki', 'front-proxy-client.crt'), 'utf8'),
      keyPEM: readFileSync(join(env.dataDir, 'pki', 'front-proxy-client.key'), 'utf8'),
    });
    try {
      const e = await echo(frontProxy, THINGS, { 'X-Remote-User': 'alice', 'X-Remote-Group': 'team-a', 'X-Remote-Extra-Scopes.example.com%2Fteam': 'blue' });
      assert.deepEqual(e.user, { name: 'alice', groups: ['team-a', 'system:authenticated'], extra: { 'scopes.example.com/team': ['blue'] } });
      const seen = backend.last(THINGS)!;
      assert.deepEqual(seen.headers['x-remote-extra-scopes.example.com%2fteam'], ['blue']);
    } finally {
      frontProxy.close();
    }
  });

  test("a request body streams through (1 MiB), and the backend's status and Status come back as sent", async () => {
    const body = 'x'.repeat(1024 * 1024);
    const r = await env.admin.request({ method: 'POST', path: THINGS, headers: { 'Content-Type': 'application/json' }, body });
    assert.equal(r.status, 200, r.text.slice(0, 500));
    const e = JSON.parse(r.text) as Echo;
    assert.equal(e.method, 'POST');
    assert.equal(e.body.length, body.length);
    const missing = await env.admin.request({ path: `${THINGS}/missing` });
    assert.equal(missing.status, 404);
    assert.equal(asStatus(missing.text).message, 'things "missing" not found');
  });

  test('a watch streams event by event: each arrives before the backend sends the next', async () => {
    const watch = await env.admin.watch(`${THINGS}?watch=true`);
    assert.equal(watch.status, 200);
    assert.equal(watch.res.headers['content-type'], 'application/json');
    const res = await nextWatch(1);
    for (let i = 1; i <= 3; i++) {
      res.write(`${JSON.stringify({ type: 'ADDED', object: { kind: 'Thing', metadata: { name: `t${i}` } } })}\n`);
      const events = await watch.until((es) => es.length === i);
      assert.equal((events[i - 1]?.object['metadata'] as { name: string }).name, `t${i}`);
    }
    res.end();
    await watch.end();
    assert.equal(watch.events.length, 3);
  });

  test("a client leaving a quiet watch ends the backend's watch, over HTTPS and in process", async () => {
    const closed = (res: ServerResponse): Promise<void> => new Promise((resolve) => (res.destroyed || res.writableEnded ? resolve() : res.once('close', () => resolve())));
    const watch = await env.admin.watch(`${THINGS}?watch=true`);
    const res = await nextWatch(2);
    watch.close();
    await closed(res);

    const inProcess = await env.plane.loopback.watch<{ metadata: { name: string } }>({ path: THINGS, query: { watch: true } });
    const res3 = await nextWatch(3);
    res3.write(`${JSON.stringify({ type: 'ADDED', object: { kind: 'Thing', metadata: { name: 'quiet' } } })}\n`);
    const first = await inProcess[Symbol.asyncIterator]().next();
    assert.equal(first.done, false);
    assert.equal((first.value as { object: { metadata: { name: string } } }).object.metadata.name, 'quiet');
    inProcess.stop();
    await closed(res3);
  });

  test('an upgrade request is switched and piped both ways, as the user', async () => {
    const creds = readCredentials(env.plane.kubeconfigPath);
    const url = new URL(creds.server);
    const socket = connect({ host: url.hostname, port: Number(url.port), ca: creds.caPEM, cert: creds.certPEM, key: creds.keyPEM });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('secureConnect', () => resolve());
        socket.once('error', reject);
      });
      let received = '';
      const arrived = (what: string): Promise<void> =>
        new Promise((resolve, reject) => {
          const check = (): void => {
            if (received.includes(what)) {
              socket.off('data', onData);
              resolve();
            }
          };
          const onData = (d: Buffer): void => {
            received += d.toString('utf8');
            check();
          };
          socket.on('data', onData);
          socket.once('close', () => reject(new Error(`closed before ${JSON.stringify(what)}; got ${JSON.stringify(received)}`)));
          check();
        });
      socket.write(`GET ${THINGS}/x/exec?command=cat HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: test-stream\r\n\r\n`);
      await arrived('\r\n\r\n');
      const [head = ''] = received.split('\r\n\r\n');
      assert.match(head, /^HTTP\/1\.1 101 /);
      assert.match(head, /^Upgrade: test-stream$/im);
      assert.match(head, /^X-Backend-User: system:admin$/im);
      received = '';
      socket.write('ping');
      await arrived('echo:ping');
      socket.write('pong');
      await arrived('echo:pong');
      assert.deepEqual(backend.last(`${THINGS}/x/exec`)?.headers['x-remote-user'], ['system:admin']);
    } finally {
      socket.destroy();
    }
  });

  test('the in-process loopback client is proxied too, as system:apiserver', async () => {
    const e = await env.plane.loopback.request<Echo>({ method: 'GET', path: THINGS, query: { limit: 1 } });
    assert.equal(e.user.name, 'system:apiserver');
    assert.equal(e.url, `${THINGS}?limit=1`);
    const posted = await env.plane.loopback.request<Echo>({ method: 'POST', path: THINGS, body: { hello: 'world' } });
    assert.equal(posted.body, JSON.stringify({ hello: 'world' }));
  });

  // Last: it stops the control plane.
  test('a proxied request in flight when shutdown begins completes', async () => {
    const pending = env.admin.request({ path: `${THINGS}/slow` });
    await slow;
    const stopped = env.plane.stop();
    const r = await pending;
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(JSON.parse(r.text), { slow: true });
    await stopped;
  });
});
