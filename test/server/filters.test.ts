import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newConflict, newServerTimeout } from '../../runtime/apimachinery/errors/index.js';
import type { AuditEvent, AuditSink } from '../../runtime/endpoints/filters/audit.js';
import { fixedUserAuthenticator, unionAuthenticator, type Authenticator } from '../../runtime/authentication/authenticator.js';
import { alwaysDenyAuthorizer, type Attributes, type Authorizer } from '../../runtime/authorization/authorizer.js';
import type { APIRequest } from '../../runtime/apimachinery/request/http.js';
import { Gate, json, sleep, startServer, type TestServer } from './harness.js';

const JANE = { name: 'jane', groups: ['system:authenticated'] };

describe('panic recovery', () => {
  let t: TestServer;
  before(async () => {
    t = await startServer({
      setup: (s) => {
        s.mux.handle('/throw', async () => {
          throw new Error('boom: secret detail');
        });
        s.mux.handle('/reject', () => Promise.reject(new TypeError('bad')));
        s.mux.handle('/status', async () => {
          throw newConflict({ group: 'wardle.example.com', resource: 'flunders' }, 'x', 'stale');
        });
        s.mux.handle('/servertimeout', async () => {
          throw newServerTimeout({ group: '', resource: 'configmaps' }, 'create', 2);
        });
        s.mux.handle('/ok', async (_req, res) => res.writeJSON(200, { ok: true }));
        s.mux.handle('/half', async (_req, res) => {
          const stream = res.stream('application/json');
          await stream.write('{"partial":');
          throw new Error('midway');
        });
      },
    });
  });
  after(() => t.close());

  it('answers a throw with 500 InternalError and keeps serving', async () => {
    for (const path of ['/throw', '/reject']) {
      const r = await fetch(`${t.url}${path}`);
      assert.equal(r.status, 500);
      const body = await json(r);
      assert.equal(body.kind, 'Status');
      assert.equal(body.reason, 'InternalError');
      assert.equal(body.message, 'Internal error occurred: This request caused apiserver to panic. Look in the logs for details.');
      assert.ok(!JSON.stringify(body).includes('secret detail'));
    }
    const r = await fetch(`${t.url}/ok`);
    assert.equal(r.status, 200);
  });

  it('writes a thrown StatusError as its own Status', async () => {
    const r = await fetch(`${t.url}/status`);
    assert.equal(r.status, 409);
    assert.equal((await json(r)).reason, 'Conflict');
  });

  it("sets Retry-After wherever the Status asks for one, a 500 ServerTimeout included (kube's ErrorNegotiated)", async () => {
    const r = await fetch(`${t.url}/servertimeout`);
    assert.equal(r.status, 500);
    assert.equal(r.headers.get('retry-after'), '2');
    const body = await json(r);
    assert.equal(body.reason, 'ServerTimeout');
    assert.equal(body.message, 'The create operation against configmaps could not be completed at this time, please try again.');
  });

  it('cuts the connection when the failure comes after the headers', async () => {
    const r = await fetch(`${t.url}/half`);
    assert.equal(r.status, 200);
    await assert.rejects(r.text());
    assert.equal((await fetch(`${t.url}/ok`)).status, 200);
  });
});

describe('request timeout', () => {
  let t: TestServer;
  const aborted: string[] = [];
  before(async () => {
    t = await startServer({
      config: { requestTimeoutMs: 400 },
      setup: (s) => {
        s.mux.handlePrefix('/apis/', async (req, res) => {
          if (req.info.verb === 'watch') {
            const stream = res.stream('application/json');
            for (let i = 0; i < 4; i++) {
              await stream.write(`{"type":"ADDED","n":${i}}\n`);
              await sleep(250);
            }
            stream.end();
            return;
          }
          try {
            await sleep(Number(req.query.get('sleepMs') ?? 10_000), req.signal);
          } catch {
            aborted.push(req.path);
            res.writeJSON(200, { tooLate: true });
            return;
          }
          res.writeJSON(200, { slept: true });
        });
      },
    });
  });
  after(() => t.close());

  it('answers 504 Timeout at the server deadline and aborts the handler', async () => {
    const r = await fetch(`${t.url}/apis/g/v1/things`);
    assert.equal(r.status, 504);
    const body = await json(r);
    assert.equal(body.reason, 'Timeout');
    assert.equal(body.message, 'Timeout: request did not complete within the allotted timeout');
    await sleep(50);
    assert.deepEqual(aborted, ['/apis/g/v1/things']);
  });

  it("a write times out as kube's finisher answers it (504, requested timeout - context deadline exceeded)", async () => {
    const r = await fetch(`${t.url}/apis/g/v1/things`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
    assert.equal(r.status, 504);
    const body = await json(r);
    assert.equal(body.reason, 'Timeout');
    assert.equal(body.message, 'Timeout: request did not complete within requested timeout - context deadline exceeded');
  });

  it('requests that finish in time are untouched', async () => {
    const r = await fetch(`${t.url}/apis/g/v1/things?sleepMs=10`);
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { slept: true });
  });

  it('watches are exempt', async () => {
    const r = await fetch(`${t.url}/apis/g/v1/things?watch=true`);
    assert.equal(r.status, 200);
    const lines = (await r.text()).trim().split('\n');
    assert.equal(lines.length, 4);
  });

  it('rejects a malformed timeout parameter with 400', async () => {
    const r = await fetch(`${t.url}/apis/g/v1/things?timeout=5x`);
    assert.equal(r.status, 400);
    assert.equal((await json(r)).message, 'invalid timeout specified in the request URL - time: unknown unit "x" in duration "5x"');
  });
});

describe('timeout query parameter', () => {
  it('timeout=1s shortens the 60 s default, and cannot lengthen it', async () => {
    const t = await startServer({
      setup: (s) =>
        s.mux.handlePrefix('/apis/', async (req, res) => {
          await sleep(Number(req.query.get('sleepMs')), req.signal).catch(() => undefined);
          res.writeJSON(200, {});
        }),
    });
    try {
      const started = performance.now();
      const r = await fetch(`${t.url}/apis/g/v1/things?timeout=1s&sleepMs=20000`);
      assert.equal(r.status, 504);
      const elapsed = performance.now() - started;
      assert.ok(elapsed >= 900 && elapsed < 10_000, `took ${elapsed} ms`);
      const ok = await fetch(`${t.url}/apis/g/v1/things?timeout=10m&sleepMs=10`);
      assert.equal(ok.status, 200);
    } finally {
      await t.close();
    }
  });
});

describe('max in flight', () => {
  it('answers 429 with Retry-After once the read-only limit is reached; long-running and mutating requests are counted apart', async () => {
    const gate = new Gate();
    const t = await startServer({
      config: { maxRequestsInFlight: 2, maxMutatingRequestsInFlight: 1, authenticator: fixedUserAuthenticator(JANE) },
      setup: (s) =>
        s.mux.handlePrefix('/apis/', async (req, res) => {
          if (req.query.get('block') === 'true') await gate.wait();
          if (req.info.verb === 'watch') {
            const stream = res.stream('application/json');
            await new Promise((resolve) => req.signal.addEventListener('abort', resolve, { once: true }));
            stream.end();
            return;
          }
          res.writeJSON(200, { verb: req.info.verb });
        }),
    });
    try {
      const watchAbort = new AbortController();
      const watch = await fetch(`${t.url}/apis/g/v1/things?watch=true`, { signal: watchAbort.signal });
      assert.equal(watch.status, 200);
      const blocked = [fetch(`${t.url}/apis/g/v1/things?block=true`), fetch(`${t.url}/apis/g/v1/things/a?block=true`)];
      await gate.untilArrived(2);
      const rejected = await fetch(`${t.url}/apis/g/v1/things/b`);
      assert.equal(rejected.status, 429);
      assert.equal(rejected.headers.get('retry-after'), '1');
      const body = await json(rejected);
      assert.equal(body.reason, 'TooManyRequests');
      assert.equal(body.message, 'Too many requests, please try again later.');
      assert.deepEqual(body.details, { retryAfterSeconds: 1 });
      // another watch is long-running: not limited
      const watch2 = new AbortController();
      const w2 = await fetch(`${t.url}/apis/g/v1/things?watch=1`, { signal: watch2.signal });
      assert.equal(w2.status, 200);
      watch2.abort();
      // mutating requests have their own budget
      const created = await fetch(`${t.url}/apis/g/v1/things`, { method: 'POST', body: '{}' });
      assert.equal(created.status, 200);
      gate.release();
      for (const r of await Promise.all(blocked)) assert.equal(r.status, 200);
      assert.equal((await fetch(`${t.url}/apis/g/v1/things/c`)).status, 200);
      watchAbort.abort();
    } finally {
      await t.close();
    }
  });

  it('serves system:masters over the limit, as kube does', async () => {
    const gate = new Gate();
    const t = await startServer({
      config: { maxRequestsInFlight: 1, authenticator: fixedUserAuthenticator() },
      setup: (s) =>
        s.mux.handlePrefix('/apis/', async (req, res) => {
          if (req.query.get('block') === 'true') await gate.wait();
          res.writeJSON(200, {});
        }),
    });
    try {
      const blocked = fetch(`${t.url}/apis/g/v1/things?block=true`);
      await gate.untilArrived(1);
      assert.equal((await fetch(`${t.url}/apis/g/v1/things`)).status, 200);
      gate.release();
      assert.equal((await blocked).status, 200);
    } finally {
      await t.close();
    }
  });
});

describe('authentication and authorization', () => {
  let t: TestServer;
  const seenHeaders: Array<Record<string, unknown>> = [];
  const asked: Attributes[] = [];
  const tokens: Authenticator = {
    async authenticate(req: APIRequest) {
      const auth = req.headers.authorization;
      if (auth === undefined) return undefined;
      if (auth === 'Bearer jane-token') return { user: JANE };
      throw new Error('invalid bearer token');
    },
  };
  const headerUser: Authenticator = {
    async authenticate(req: APIRequest) {
      const name = req.headers['x-remote-user'];
      return typeof name === 'string' ? { user: { name, groups: ['system:authenticated'] } } : undefined;
    },
  };
  const authorizer: Authorizer = {
    async authorize(a) {
      asked.push(a);
      if (a.user?.name === 'broken') throw new Error('webhook down');
      if (a.verb === 'get' && a.resource === 'flunders' && a.name === 'allowed') return { decision: 'allow', reason: 'allowed by test' };
      return { decision: 'noOpinion', reason: a.user?.name === 'bob' ? 'bob may not' : '' };
    },
  };
  before(async () => {
    t = await startServer({
      config: { authenticator: unionAuthenticator(tokens, headerUser), authorizer },
      setup: (s) =>
        s.mux.handlePrefix('/apis/', async (req, res) => {
          seenHeaders.push({ ...req.headers });
          res.writeJSON(200, { user: req.user });
        }),
    });
  });
  after(() => t.close());

  it('401 Unauthorized when no authenticator accepts the request', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }] as Array<Record<string, string>>) {
      const r = await fetch(`${t.url}/apis/wardle.example.com/v1beta1/flunders`, { headers });
      assert.equal(r.status, 401);
      const body = await json(r);
      assert.equal(body.reason, 'Unauthorized');
      assert.equal(body.message, 'Unauthorized');
    }
  });

  it('the first authenticator that succeeds sets the user; credentials are stripped', async () => {
    const r = await fetch(`${t.url}/apis/wardle.example.com/v1beta1/namespaces/ns/flunders/allowed`, {
      headers: { authorization: 'Bearer jane-token', 'x-remote-user': 'mallory', 'x-remote-extra-scopes': 'all' },
    });
    assert.equal(r.status, 200);
    assert.deepEqual((await json(r)).user, JANE);
    const seen = seenHeaders.at(-1)!;
    assert.equal(seen.authorization, undefined);
    assert.equal(seen['x-remote-user'], undefined);
    assert.equal(seen['x-remote-extra-scopes'], undefined);
    const a = asked.at(-1)!;
    assert.deepEqual(
      { ...a, user: a.user?.name },
      {
        user: 'jane',
        verb: 'get',
        isResourceRequest: true,
        path: '/apis/wardle.example.com/v1beta1/namespaces/ns/flunders/allowed',
        namespace: 'ns',
        apiGroup: 'wardle.example.com',
        apiVersion: 'v1beta1',
        resource: 'flunders',
        subresource: '',
        name: 'allowed',
      },
    );
  });

  it('403 Forbidden worded as kube', async () => {
    const cases: Array<[string, string, Record<string, string>, string]> = [
      [
        'GET',
        '/apis/wardle.example.com/v1beta1/namespaces/ns/flunders/x',
        { authorization: 'Bearer jane-token' },
        'flunders.wardle.example.com "x" is forbidden: User "jane" cannot get resource "flunders" in API group "wardle.example.com" in the namespace "ns"',
      ],
      [
        'GET',
        '/apis/wardle.example.com/v1beta1/namespaces/ns/flunders',
        { authorization: 'Bearer jane-token' },
        'flunders.wardle.example.com is forbidden: User "jane" cannot list resource "flunders" in API group "wardle.example.com" in the namespace "ns"',
      ],
      [
        'PUT',
        '/apis/wardle.example.com/v1beta1/fischers/f/status',
        { 'x-remote-user': 'bob' },
        'fischers.wardle.example.com "f" is forbidden: User "bob" cannot update resource "fischers/status" in API group "wardle.example.com" at the cluster scope: bob may not',
      ],
      ['GET', '/api/v1/namespaces/ns', { 'x-remote-user': 'bob' }, 'namespaces "ns" is forbidden: User "bob" cannot get resource "namespaces" in API group "" in the namespace "ns": bob may not'],
      ['GET', '/healthz', { authorization: 'Bearer jane-token' }, 'forbidden: User "jane" cannot get path "/healthz"'],
    ];
    for (const [method, path, headers, message] of cases) {
      const r = await fetch(`${t.url}${path}`, { method, headers });
      assert.equal(r.status, 403, path);
      const body = await json(r);
      assert.equal(body.reason, 'Forbidden');
      assert.equal(body.message, message);
    }
  });

  it('a failing authorizer is a 500', async () => {
    const r = await fetch(`${t.url}/apis/wardle.example.com/v1beta1/flunders`, { headers: { 'x-remote-user': 'broken' } });
    assert.equal(r.status, 500);
    assert.equal((await json(r)).reason, 'InternalError');
  });

  it('AlwaysDeny forbids everything', async () => {
    const d = await startServer({ config: { authorizer: alwaysDenyAuthorizer, authenticator: fixedUserAuthenticator() } });
    try {
      const r = await fetch(`${d.url}/version`);
      assert.equal(r.status, 403);
      assert.equal((await json(r)).message, 'forbidden: User "system:admin" cannot get path "/version": Everything is forbidden.');
    } finally {
      await d.close();
    }
  });
});

describe('audit', () => {
  it('records RequestReceived and ResponseComplete with user, verb, objectRef, code and annotations', async () => {
    const events: AuditEvent[] = [];
    const sink: AuditSink = { processEvent: (e) => events.push(e) };
    const t = await startServer({
      config: {
        auditSink: sink,
        authenticator: {
          authenticate: async (req) => (req.headers.authorization === 'Bearer ok' ? { user: JANE } : undefined),
        },
      },
      setup: (s) => s.mux.handlePrefix('/apis/', async (_req, res) => res.writeJSON(201, {})),
    });
    try {
      const r = await fetch(`${t.url}/apis/wardle.example.com/v1beta1/namespaces/ns/flunders?dryRun=All`, {
        method: 'POST',
        body: '{}',
        headers: { authorization: 'Bearer ok', 'audit-id': 'client-chosen-id', 'user-agent': 'test/1.0' },
      });
      assert.equal(r.status, 201);
      assert.equal(r.headers.get('audit-id'), 'client-chosen-id');
      await sleep(20);
      assert.deepEqual(
        events.map((e) => e.stage),
        ['RequestReceived', 'ResponseComplete'],
      );
      const [received, complete] = events as [AuditEvent, AuditEvent];
      assert.equal(received.auditID, 'client-chosen-id');
      assert.equal(received.responseStatus, undefined);
      assert.equal(complete.kind, 'Event');
      assert.equal(complete.apiVersion, 'audit.k8s.io/v1');
      assert.equal(complete.level, 'Metadata');
      assert.equal(complete.verb, 'create');
      assert.equal(complete.requestURI, '/apis/wardle.example.com/v1beta1/namespaces/ns/flunders?dryRun=All');
      assert.deepEqual(complete.user, { username: 'jane', groups: ['system:authenticated'] });
      assert.deepEqual(complete.objectRef, { resource: 'flunders', namespace: 'ns', apiGroup: 'wardle.example.com', apiVersion: 'v1beta1' });
      assert.deepEqual(complete.responseStatus, { metadata: {}, code: 201 });
      assert.equal(complete.userAgent, 'test/1.0');
      assert.deepEqual(complete.sourceIPs, ['127.0.0.1']);
      assert.deepEqual(complete.annotations, { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' });
      assert.match(complete.stageTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

      events.length = 0;
      const denied = await fetch(`${t.url}/apis/wardle.example.com/v1beta1/flunders`);
      assert.equal(denied.status, 401);
      assert.match(denied.headers.get('audit-id') ?? '', /^[0-9a-f-]{36}$/);
      await sleep(20);
      assert.deepEqual(
        events.map((e) => [e.stage, e.user.username, e.responseStatus?.code]),
        [['ResponseStarted', '', 401]],
      );
    } finally {
      await t.close();
    }
  });
});
