// HTTP/2 as kube-apiserver offers it: ALPN h2 with HTTP/1.1 fallback on the one secure port.
// Over h2: requests with client-certificate authentication, watches, the aggregator proxy (h2 on
// the client side, HTTP/1.1 to the backend, no pseudo-header or connection header crossing
// over), kubectl (Go negotiates h2 when offered), and graceful shutdown (GOAWAY, then every
// open stream, a watch included, ends normally: END_STREAM, no RST_STREAM).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { connect as http2Connect, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { connect as tlsConnect } from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { json, registration, TestBackend } from '../aggregator/proxy-backend.js';
import { availability, startAggregatorEnv, type AggregatorEnv } from '../aggregator/proxy-env.js';
import { readCredentials, type Credentials } from './harness.js';
import { kubectlBinary, kubectlUnavailable } from './kubectl.js';

const GROUP = 'h2.example.com';
const SERVICE = { namespace: 'default', name: 'h2-api' } as const;
const THINGS = `/apis/${GROUP}/v1/namespaces/default/things`;

interface H2Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function h2Session(creds: Credentials, opts: { anonymous?: boolean } = {}): ClientHttp2Session {
  const session = http2Connect(creds.server, { ca: creds.caPEM, ...(opts.anonymous ? {} : { cert: creds.certPEM, key: creds.keyPEM }) });
  session.on('error', () => undefined);
  return session;
}

function h2Request(session: ClientHttp2Session, path: string, opts: { method?: string; body?: string } = {}): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': path, ':method': opts.method ?? 'GET', ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}) });
    let headers: IncomingHttpHeaders = {};
    let body = '';
    stream.setEncoding('utf8');
    stream.on('response', (h) => (headers = h));
    stream.on('data', (c: string) => (body += c));
    stream.on('end', () => resolve({ status: Number(headers[':status']), headers, body }));
    stream.on('error', reject);
    stream.end(opts.body);
  });
}

function alpn(creds: Credentials, protocols: string[]): Promise<string | false | null> {
  const u = new URL(creds.server);
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: u.hostname, port: Number(u.port), ca: creds.caPEM, ALPNProtocols: protocols }, () => {
      resolve(socket.alpnProtocol);
      socket.end();
    });
    socket.on('error', reject);
  });
}

describe('HTTP/2', () => {
  let env: AggregatorEnv;
  let backend: TestBackend;
  let creds: Credentials;

  before(async () => {
    env = await startAggregatorEnv();
    creds = readCredentials(env.plane.kubeconfigPath);
    backend = await TestBackend.start({ group: GROUP, version: 'v1', service: SERVICE, dataDir: env.dataDir });
    backend.routes.push((req, res) => {
      if (req.url !== `${THINGS}/answer-headers`) return false;
      // Connection-specific headers from an HTTP/1.1 backend must not reach an HTTP/2 client.
      res.setHeader('Connection', 'keep-alive, x-hop');
      res.setHeader('Keep-Alive', 'timeout=5');
      res.setHeader('X-Hop', 'dropped');
      json(res, 200, { ok: true });
      return true;
    });
    const r = registration({ group: GROUP, version: 'v1', port: backend.port, caPEM: backend.caPEM }, SERVICE);
    await env.cs.coreV1().services(SERVICE.namespace).create(r.service);
    await env.cs.coreV1().endpoints(SERVICE.namespace).create(r.endpoints);
    await env.cs.apiregistrationV1().apiservices().create(r.apiService);
    await availability(env.cs, `v1.${GROUP}`, 'True', 'Passed');
  });
  after(async () => {
    await backend?.stop();
    await env?.close();
  });

  test('ALPN offers h2 and falls back to http/1.1', async () => {
    assert.equal(await alpn(creds, ['h2', 'http/1.1']), 'h2');
    assert.equal(await alpn(creds, ['http/1.1']), 'http/1.1');
    const list = await env.admin.json('GET', '/api/v1/namespaces');
    assert.equal(list.status, 200);
  });

  test('requests over h2 carry the client certificate; a Status error is the same as over HTTP/1.1', async () => {
    const session = h2Session(creds);
    try {
      const list = await h2Request(session, '/api/v1/namespaces');
      assert.equal(list.status, 200, list.body);
      assert.equal((JSON.parse(list.body) as { kind: string }).kind, 'NamespaceList');
      const missing = await h2Request(session, '/api/v1/namespaces/nope');
      assert.equal(missing.status, 404);
      assert.deepEqual(JSON.parse(missing.body), (await env.admin.json('GET', '/api/v1/namespaces/nope')).body);
      // the aggregator proxy: h2 in, HTTP/1.1 out, the user forwarded from the certificate
      const echoed = await h2Request(session, `${THINGS}/x?y=1`, { method: 'POST', body: '{"a":1}' });
      assert.equal(echoed.status, 200, echoed.body);
      const echo = JSON.parse(echoed.body) as { method: string; url: string; user: { name: string }; body: string };
      assert.deepEqual({ method: echo.method, url: echo.url, user: echo.user.name, body: echo.body }, { method: 'POST', url: `${THINGS}/x?y=1`, user: 'system:admin', body: '{"a":1}' });
      const seen = backend.last(`${THINGS}/x`);
      assert.ok(seen !== undefined);
      assert.deepEqual(
        Object.keys(seen.headers).filter((h) => h.startsWith(':')),
        [],
        'no HTTP/2 pseudo-header reaches the backend',
      );
      const hop = await h2Request(session, `${THINGS}/answer-headers`);
      assert.equal(hop.status, 200, hop.body);
      assert.deepEqual([hop.headers['connection'], hop.headers['keep-alive'], hop.headers['x-hop']], [undefined, undefined, undefined]);
    } finally {
      session.close();
    }
    // Without a certificate the caller is system:anonymous, whom RBAC's bootstrap policy allows
    // no aggregated resource: the aggregator authorizes before it proxies (kube's order), so the
    // answer is its 403 over h2 and the backend never sees the request.
    const anonymous = h2Session(creds, { anonymous: true });
    try {
      const denied = await h2Request(anonymous, `${THINGS}/anonymous`);
      assert.equal(denied.status, 403, denied.body);
      const st = JSON.parse(denied.body) as { reason: string; message: string };
      assert.deepEqual(
        [st.reason, st.message],
        ['Forbidden', `things.${GROUP} "anonymous" is forbidden: User "system:anonymous" cannot get resource "things" in API group "${GROUP}" in the namespace "default"`],
      );
      assert.equal(backend.last(`${THINGS}/anonymous`), undefined, 'not proxied');
    } finally {
      anonymous.close();
    }
  });

  test('kubectl negotiates h2', { skip: kubectlUnavailable() ?? false }, async () => {
    const bin = kubectlBinary() as string;
    const { HOME: _home, KUBECONFIG: _kc, ...rest } = process.env;
    const child = spawn(bin, ['--kubeconfig', env.plane.kubeconfigPath, 'get', 'namespace', 'default', '-o', 'name'], {
      env: { ...rest, HOME: env.dataDir, GODEBUG: 'http2debug=1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(code, 0, stderr);
    assert.equal(stdout.trim(), 'namespace/default');
    // Go's HTTP/2 debug log: the request went over an h2 client connection.
    assert.match(stderr, /http2: Transport (creating client conn|encoding header)/);
  });

  test('graceful shutdown: GOAWAY, the open watch ends with END_STREAM, in-flight requests are answered', async () => {
    const session = h2Session(creds);
    let goaway: number | undefined;
    session.on('goaway', (code) => (goaway = code));
    const watch = session.request({ ':path': '/api/v1/namespaces/default/endpoints?watch=true' });
    let watchStatus = 0;
    let events = '';
    watch.setEncoding('utf8');
    watch.on('response', (h) => (watchStatus = Number(h[':status'])));
    watch.on('data', (c: string) => (events += c));
    const watchEnded = new Promise<{ ended: boolean; rstCode: number | undefined; error: string | undefined }>((resolve) => {
      let ended = false;
      let error: string | undefined;
      watch.on('end', () => (ended = true));
      watch.on('error', (err) => (error = err.message));
      watch.on('close', () => resolve({ ended, rstCode: watch.rstCode, error }));
    });
    const created = await h2Request(session, '/api/v1/namespaces/default/endpoints', { method: 'POST', body: JSON.stringify({ metadata: { name: 'h2-e1' } }) });
    assert.equal(created.status, 201, created.body);
    for (let i = 0; !events.includes('"h2-e1"'); i++) {
      assert.ok(i < 600, `no ADDED event for h2-e1 in the watch: ${events.slice(0, 500)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await env.plane.stop();
    assert.equal(watchStatus, 200);
    assert.deepEqual(await watchEnded, { ended: true, rstCode: 0, error: undefined });
    assert.equal(goaway, 0, 'GOAWAY with NO_ERROR');
    session.destroy();
  });
});
