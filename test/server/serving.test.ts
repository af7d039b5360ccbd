import 'reflect-metadata';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import type { Authenticator } from '../../runtime/authentication/authenticator.js';
import { Gate, json, sleep, startServer } from './harness.js';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** A throwaway self-signed certificate and its PEM key. */
async function selfSigned(cn: string, usage: 'server' | 'client'): Promise<{ cert: string; key: string }> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: Date.now().toString(16),
    name: `CN=${cn}`,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 3_600_000),
    signingAlgorithm: ALG,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyCertSign, true),
      new x509.ExtendedKeyUsageExtension([usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
      ...(usage === 'server'
        ? [
            new x509.SubjectAlternativeNameExtension([
              { type: 'ip', value: '127.0.0.1' },
              { type: 'dns', value: 'localhost' },
            ]),
          ]
        : []),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return { cert: cert.toString('pem'), key: `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n` };
}

function httpsGet(url: string, opts: { ca: string; cert?: string; key?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca: opts.ca, cert: opts.cert, key: opts.key }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serving', () => {
  it('serves HTTPS with the given certificate, and hands client certificates to the authenticator', async () => {
    const serving = await selfSigned('localhost', 'server');
    const client = await selfSigned('jane', 'client');
    const certAuthenticator: Authenticator = {
      async authenticate(req) {
        const socket = req.raw.socket as TLSSocket;
        if (!socket.authorized) return undefined;
        const peer = socket.getPeerCertificate();
        return { user: { name: String(peer.subject.CN), groups: ['system:authenticated'] } };
      },
    };
    const t = await startServer({
      config: { authenticator: certAuthenticator },
      serving: { tls: { cert: serving.cert, key: serving.key, clientCA: client.cert } },
      setup: (s) => s.mux.handle('/whoami', async (req, res) => res.writeJSON(200, { user: req.user?.name })),
    });
    try {
      assert.match(t.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      const anonymous = await httpsGet(`${t.url}/whoami`, { ca: serving.cert });
      assert.equal(anonymous.status, 401);
      assert.equal(JSON.parse(anonymous.body).reason, 'Unauthorized');
      const jane = await httpsGet(`${t.url}/whoami`, { ca: serving.cert, cert: client.cert, key: client.key });
      assert.equal(jane.status, 200);
      assert.deepEqual(JSON.parse(jane.body), { user: 'jane' });
      await assert.rejects(httpsGet(`${t.url}/whoami`, { ca: client.cert }), /self[- ]signed|unable to verify|certificate/i);
    } finally {
      await t.close();
    }
  });

  it('leaves bodies unparsed for the handler, in any content type, and limits them to 3 MiB', async () => {
    const t = await startServer({
      setup: (s) =>
        s.mux.handlePrefix('/apis/', async (req, res) => {
          const body = await req.readBody();
          res.writeJSON(200, { contentType: req.headers['content-type'] ?? null, length: body.length, head: body.subarray(0, 12).toString() });
        }),
    });
    try {
      const url = `${t.url}/apis/g/v1/things`;
      for (const [contentType, body] of [
        ['application/json', '{"not json'],
        ['application/vnd.kubernetes.protobuf', '\x6b\x38\x73\x00binary'],
        ['application/apply-patch+yaml', 'a: [1'],
        [undefined, 'no type at all'],
      ] as const) {
        const r = await fetch(url, { method: 'PATCH', body, headers: contentType ? { 'content-type': contentType } : {} });
        assert.equal(r.status, 200);
        const got = await json(r);
        assert.equal(got.length, Buffer.byteLength(body));
        assert.equal(got.head, Buffer.from(body).subarray(0, 12).toString());
      }
      const big = await fetch(url, { method: 'POST', body: Buffer.alloc(3 * 1024 * 1024 + 1, 'a'), headers: { 'content-type': 'application/json' } });
      assert.equal(big.status, 413);
      const status = await json(big);
      assert.equal(status.reason, 'RequestEntityTooLarge');
      // a chunked body without Content-Length is cut off at the limit too
      const stream = new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < 5; i++) c.enqueue(new Uint8Array(1024 * 1024));
          c.close();
        },
      });
      const chunked = await fetch(url, { method: 'POST', body: stream, duplex: 'half', headers: { 'content-type': 'application/json' } } as RequestInit);
      assert.equal(chunked.status, 413);
      assert.equal((await fetch(`${t.url}/apis/g/v1/things`, { method: 'POST', body: '{}' })).status, 200);
    } finally {
      await t.close();
    }
  });

  it('answers odd methods, paths and malformed HTTP as kube does (a 400 Status for malformed HTTP), never a framework page', async () => {
    const t = await startServer();
    try {
      for (const [method, path] of [
        ['OPTIONS', '/apis'],
        ['GET', '/%zz/%%'],
        ['DELETE', '/'],
        ['GET', `/apis/${'x'.repeat(5000)}`],
        ['GET', '//double//slash'],
      ] as const) {
        const r = await fetch(`${t.url}${path}`, { method });
        assert.ok(r.status === 404 || r.status === 200, `${method} ${path}: ${r.status}`);
        // kube's end of the chain: Go's http.NotFound, plain text
        if (r.status === 404) assert.equal(await r.text(), '404 page not found\n');
        else await r.text();
      }
      const { port } = new URL(t.url);
      const raw = await new Promise<string>((resolve, reject) => {
        const s = connect(Number(port), '127.0.0.1', () => s.write('GARBAGE / HTTP/1.1\r\n\r\n'));
        let data = '';
        s.on('data', (d) => (data += d.toString()));
        s.on('end', () => resolve(data));
        s.on('error', reject);
      });
      assert.match(raw, /^HTTP\/1\.1 400 Bad Request\r\n/);
      assert.match(raw, /"kind":"Status"/);
      assert.match(raw, /"reason":"BadRequest"/);
      assert.equal((await fetch(`${t.url}/healthz`)).status, 200);
    } finally {
      await t.close();
    }
  });

  it('shuts down gracefully: readyz fails first, watches end, slow requests finish, then the port closes', async () => {
    const slowStarted = new Gate();
    let readyzDuringHook = '';
    let watchSawAbort = false;
    const t = await startServer({
      setup: (s) => {
        s.mux.handlePrefix('/apis/', async (req, res) => {
          if (req.info.verb === 'watch') {
            const stream = res.stream('application/json');
            await stream.write('{"type":"ADDED","object":{}}\n');
            await new Promise((resolve) => req.signal.addEventListener('abort', resolve, { once: true }));
            watchSawAbort = true;
            stream.end();
            return;
          }
          await slowStarted.wait();
          await sleep(800);
          res.writeJSON(200, { finished: true });
        });
      },
    });
    t.server.addPreShutdownHook('check-readyz', async () => {
      const r = await fetch(`${t.url}/readyz?verbose`);
      readyzDuringHook = `${r.status} ${await r.text()}`;
    });
    const watch = await fetch(`${t.url}/apis/g/v1/things?watch=true`);
    assert.equal(watch.status, 200);
    const watchBody = watch.text();
    const slow = fetch(`${t.url}/apis/g/v1/things/slow`);
    await slowStarted.untilArrived(1);
    slowStarted.release();

    const started = performance.now();
    await t.serving.shutdown({ drainTimeoutMs: 10_000 });
    assert.ok(performance.now() - started < 9_000);

    assert.match(readyzDuringHook, /^500 /);
    assert.match(readyzDuringHook, /\[-\]shutdown failed: reason withheld\n/);
    assert.equal(watchSawAbort, true);
    assert.equal(await watchBody, '{"type":"ADDED","object":{}}\n');
    const slowRes = await slow;
    assert.equal(slowRes.status, 200);
    assert.deepEqual(await slowRes.json(), { finished: true });
    await assert.rejects(fetch(`${t.url}/healthz`));
    await t.serving.shutdown();
  });

  it('--shutdown-delay-duration keeps serving while readyz fails; --shutdown-send-retry-after then answers new requests 429 until the drain is over', async () => {
    const gate = new Gate();
    const t = await startServer({
      config: { shutdownDelayDurationMs: 5_000, shutdownSendRetryAfter: true },
      setup: (s) =>
        s.mux.handlePrefix('/apis/', async (req, res) => {
          if (req.query.get('block') === 'true') await gate.wait();
          res.writeJSON(200, { served: true });
        }),
    });
    const signals = t.server.config.lifecycleSignals;
    const keptAlive = new Agent({ keepAlive: true, maxSockets: 1 });
    /** A new connection for each request. */
    const fresh = new Agent({ keepAlive: false });
    const get = (path: string, agent: Agent = keptAlive): Promise<{ status: number; headers: Record<string, unknown>; body: string }> =>
      new Promise((resolve, reject) => {
        const req = httpRequest(`${t.url}${path}`, { agent }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        });
        req.on('error', (err) => reject(new Error(`${path}: ${err.message}`)));
        req.end();
      });
    try {
      assert.equal((await get('/apis/g/v1/things')).status, 200);
      const slow = get('/apis/g/v1/things/slow?block=true', fresh);
      await gate.untilArrived(1);
      const shutdown = t.serving.shutdown({ drainTimeoutMs: 60_000 });
      // Within the delay: readyz fails, requests are still served on the kept-alive connection.
      assert.equal((await get('/readyz', fresh)).status, 500);
      assert.equal((await get('/apis/g/v1/things')).status, 200);
      assert.equal(signals.notAcceptingNewRequest.signaled, false, 'the 5 s delay passed before the request was answered');
      await signals.notAcceptingNewRequest.wait();
      const refused = await get('/apis/g/v1/things');
      assert.deepEqual(
        { status: refused.status, retryAfter: refused.headers['retry-after'], connection: refused.headers['connection'], type: refused.headers['content-type'], body: refused.body },
        { status: 429, retryAfter: '5', connection: 'close', type: 'text/plain; charset=utf-8', body: 'The apiserver is shutting down, please try again later.\n' },
      );
      // the listener stays open until the drain is over: a new connection gets the same answer
      assert.equal((await get('/apis/g/v1/things', fresh)).status, 429);
      // probes are exempt
      assert.equal((await get('/healthz', fresh)).status, 200);
      gate.release();
      assert.equal((await slow).status, 200);
      await shutdown;
      await assert.rejects(get('/healthz', fresh));
    } finally {
      keptAlive.destroy();
      fresh.destroy();
      await t.serving.shutdown();
    }
  });

  it('a drain deadline aborts requests that outlive it', async () => {
    let sawAbort = false;
    const gate = new Gate();
    const t = await startServer({
      setup: (s) =>
        s.mux.handle('/stuck', async (req, res) => {
          await gate.wait();
          await new Promise((resolve) => req.signal.addEventListener('abort', resolve, { once: true }));
          sawAbort = true;
          res.writeJSON(200, {});
        }),
    });
    const stuck = fetch(`${t.url}/stuck`).then(
      (r) => r.status,
      () => 'connection closed',
    );
    await gate.untilArrived(1);
    gate.release();
    await t.serving.shutdown({ drainTimeoutMs: 200 });
    assert.equal(sawAbort, true);
    assert.ok([200, 'connection closed'].includes(await stuck));
  });
});
