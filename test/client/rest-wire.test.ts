// The HTTP REST client at the wire, against small loopback servers this test scripts: retries
// (only where safe), Status errors from any answer, headers and bodies, auth, warnings,
// deadlines and aborts, and how watch streams end.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { isAlreadyExists, isGone, isNotFound, isResourceExpired, isServiceUnavailable, isStatusError, isTooManyRequests, isUnauthorized } from '../../runtime/apimachinery/errors/index.js';
import { ResourceClient, type ResourceDescriptor, type WatchEvent } from '../../runtime/client/index.js';
import {
  DecodeError,
  parseWarningHeaders,
  restClientForConfig,
  TOKEN_FILE_PERIOD_MS,
  TransportError,
  warningLogger,
  type Clock,
  type HTTPRESTClient,
  type RESTConfig,
  type Warning,
} from '../../runtime/client/rest/index.js';

interface Seen {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

type Script = (req: Seen, res: ServerResponse, n: number) => void;

/** A loopback HTTP server answering by script; records every request it read. */
class ScriptedServer {
  readonly seen: Seen[] = [];
  private readonly sockets = new Set<Socket>();
  private constructor(readonly server: Server) {
    server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  static async start(script: Script): Promise<ScriptedServer> {
    let self: ScriptedServer | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const seen: Seen = { method: req.method ?? '', url: new URL(req.url ?? '/', 'http://x'), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        self?.seen.push(seen);
        script(seen, res, self?.seen.length ?? 0);
      });
    });
    self = new ScriptedServer(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return self;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

/** A clock whose sleeps return at once and are recorded; now() is set by the test. */
class RecordingClock implements Clock {
  readonly sleeps: number[] = [];
  t = 1_000_000;
  now(): number {
    return this.t;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
  }
}

function json(res: ServerResponse, code: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function status(code: number, reason: string, message: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code, ...extra };
}

const flunders: ResourceDescriptor = { group: 'wardle.example.com', version: 'v1alpha1', resource: 'flunders', kind: 'Flunder', namespaced: true };
type Obj = { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string; resourceVersion?: string }; spec?: Record<string, unknown> };
const obj = (name: string, rv = '1'): Obj => ({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name, namespace: 'ns', resourceVersion: rv } });

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  assert.fail('expected a rejection');
}

describe('HTTP REST client at the wire', () => {
  const servers: ScriptedServer[] = [];
  const clients: HTTPRESTClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    for (const s of servers.splice(0)) await s.close();
  });

  async function serve(script: Script, config: Partial<RESTConfig> = {}): Promise<{ srv: ScriptedServer; rest: HTTPRESTClient; client: ResourceClient<Obj>; clock: RecordingClock }> {
    const srv = await ScriptedServer.start(script);
    servers.push(srv);
    const clock = new RecordingClock();
    const rest = restClientForConfig({ host: srv.url, clock, warningHandler: () => {}, ...config });
    clients.push(rest);
    return { srv, rest, client: new ResourceClient<Obj>(rest, flunders, 'ns'), clock };
  }

  describe('retries', () => {
    test('429 with Retry-After is retried for a POST, with the same body, after the seconds asked for', async () => {
      const { srv, client, clock } = await serve((req, res, n) => {
        if (n <= 2) return json(res, 429, status(429, 'TooManyRequests', 'slow down'), { 'Retry-After': n === 1 ? '7' : '0' });
        json(res, 201, JSON.parse(req.body));
      });
      const created = await client.create(obj('a'));
      assert.equal(created.metadata?.name, 'a');
      assert.equal(srv.seen.length, 3);
      assert.ok(srv.seen.every((s) => s.method === 'POST' && s.body === srv.seen[0]?.body));
      assert.deepEqual(clock.sleeps, [7000, 0]);
    });

    test('gives up after 10 retries with the last answer as a typed error', async () => {
      const { srv, client } = await serve((_req, res) => json(res, 429, status(429, 'TooManyRequests', 'still busy'), { 'Retry-After': '0' }));
      const err = await rejection(client.get('a'));
      assert.ok(isTooManyRequests(err));
      assert.equal(srv.seen.length, 11);
    });

    test('5xx is retried only with Retry-After; maxRetries 0 turns retries off', async () => {
      const { srv, client } = await serve((_req, res, n) => {
        if (n === 1) return json(res, 503, status(503, 'ServiceUnavailable', 'later'), { 'Retry-After': '0' });
        if (n === 2) return json(res, 500, status(500, 'InternalError', 'boom'));
        json(res, 200, obj('a'));
      });
      const err = await rejection(client.get('a'));
      assert.ok(isStatusError(err) && err.code === 500, 'a 500 without Retry-After is final');
      assert.equal(srv.seen.length, 2);
      const { srv: s2, client: c2 } = await serve((_req, res) => json(res, 503, status(503, 'ServiceUnavailable', 'later'), { 'Retry-After': '0' }), { maxRetries: 0 });
      assert.ok(isServiceUnavailable(await rejection(c2.get('a'))));
      assert.equal(s2.seen.length, 1);
    });

    test('a reset connection is retried for a GET, with growing jittered backoff', async () => {
      const { srv, client, clock } = await serve(
        (_req, res, n) => {
          if (n <= 3) return void res.socket?.destroy();
          json(res, 200, obj('a'));
        },
        { backoff: { initialMs: 100, maxMs: 250, jitter: 0.5 } },
      );
      const got = await client.get('a');
      assert.equal(got.metadata?.name, 'a');
      assert.equal(srv.seen.length, 4);
      assert.equal(clock.sleeps.length, 3);
      const [a = 0, b = 0, c = 0] = clock.sleeps;
      assert.ok(a >= 100 && a <= 150, `first wait ${a}`);
      assert.ok(b >= 200 && b <= 300, `second wait ${b}`);
      assert.ok(c >= 250 && c <= 375, `third wait is capped: ${c}`);
    });

    test('a reset connection is never retried for a POST, PUT, PATCH or DELETE', async () => {
      const { srv, client, clock } = await serve((_req, res) => void res.socket?.destroy());
      for (const call of [() => client.create(obj('a')), () => client.update(obj('a')), () => client.patch('a', 'application/merge-patch+json', {}), () => client.delete('a')]) {
        const err = await rejection(call());
        assert.ok(err instanceof TransportError, String(err));
        assert.equal(err.code, 'ECONNRESET');
      }
      assert.deepEqual(
        srv.seen.map((s) => s.method),
        ['POST', 'PUT', 'PATCH', 'DELETE'],
      );
      assert.deepEqual(clock.sleeps, []);
    });

    test('a refused connection: GET retried up to the limit, POST not at all', async () => {
      const probe = await ScriptedServer.start(() => {});
      const url = probe.url;
      await probe.close();
      const clock = new RecordingClock();
      const rest = restClientForConfig({ host: url, clock, maxRetries: 3, backoff: { initialMs: 1, maxMs: 1, jitter: 0 } });
      clients.push(rest);
      const client = new ResourceClient<Obj>(rest, flunders, 'ns');
      const get = await rejection(client.get('a'));
      assert.ok(get instanceof TransportError && get.code === 'ECONNREFUSED', String(get));
      assert.match(get.message, /^GET http:\/\/127\.0\.0\.1:\d+\/apis\/wardle\.example\.com\/v1alpha1\/namespaces\/ns\/flunders\/a: connect ECONNREFUSED/);
      assert.doesNotMatch(get.message, /previous attempt/, 'the same failure each time is named once');
      assert.deepEqual(clock.sleeps, [1, 1, 1]);
      const post = await rejection(client.create(obj('a')));
      assert.ok(post instanceof TransportError && post.code === 'ECONNREFUSED');
      assert.equal(clock.sleeps.length, 3, 'no further waits: the POST was not retried');
    });
  });

  describe('answers as typed errors', () => {
    test('a Status body is the error, as the server sent it', async () => {
      const body = status(404, 'NotFound', 'flunders.wardle.example.com "a" not found', { details: { name: 'a', group: 'wardle.example.com', kind: 'flunders' } });
      const { client } = await serve((_req, res) => json(res, 404, body));
      const err = await rejection(client.get('a'));
      assert.ok(isNotFound(err) && isStatusError(err));
      assert.deepEqual(err.status, body);
    });

    test('a body that is not a Status becomes one from the HTTP code (newUnstructuredResponseError)', async () => {
      const { client } = await serve((_req, res, n) => {
        if (n === 1) {
          res.writeHead(502, { 'Content-Type': 'text/html' });
          return void res.end('<html><body>Bad gateway</body></html>\n');
        }
        if (n === 2) return void res.writeHead(404).end();
        if (n === 3) return void res.writeHead(409, { 'Content-Type': 'text/plain' }).end('taken');
        if (n === 4) return json(res, 401, { error: 'no' });
        json(res, 404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'gone away', reason: 'SomethingNew', code: 404 });
      });
      const proxy = await rejection(client.get('a'));
      assert.ok(isStatusError(proxy));
      assert.equal(proxy.code, 502);
      assert.equal(proxy.reason, 'InternalError');
      assert.equal(proxy.message, 'an error on the server ("<html><body>Bad gateway</body></html>") has prevented the request from succeeding');
      assert.deepEqual(proxy.status.details?.causes, [{ reason: 'UnexpectedServerResponse', message: '<html><body>Bad gateway</body></html>' }]);

      const empty = await rejection(client.get('a'));
      assert.ok(isNotFound(empty) && isStatusError(empty));
      assert.equal(empty.message, 'the server could not find the requested resource');
      assert.deepEqual(empty.status.details?.causes, [{ reason: 'UnexpectedServerResponse', message: 'unknown' }]);

      const taken = await rejection(client.create(obj('a')));
      assert.ok(isAlreadyExists(taken), 'a bare 409 on create is AlreadyExists');
      assert.ok(isUnauthorized(await rejection(client.get('a'))));
      const unknownReason = await rejection(client.get('a'));
      assert.ok(isNotFound(unknownReason), 'an unknown reason falls back to the code');
    });

    test('410 answers and ERROR events are Expired/Gone', async () => {
      const { client } = await serve((_req, res, n) => {
        if (n === 1) return json(res, 410, status(410, 'Expired', 'too old resource version: 1 (5)'));
        return json(res, 410, status(410, 'Gone', 'gone'));
      });
      const expired = await rejection(client.watch({ resourceVersion: '1' }));
      assert.ok(isResourceExpired(expired));
      const gone = await rejection(client.list());
      assert.ok(isGone(gone) && isResourceExpired(gone));
    });

    test('a 2xx body that is not JSON is a DecodeError', async () => {
      const { client } = await serve((_req, res) => void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html/>'));
      const err = await rejection(client.get('a'));
      assert.ok(err instanceof DecodeError, String(err));
      assert.match(err.message, /text\/html/);
    });
  });

  describe('requests', () => {
    test('base path prefix, query, Accept, User-Agent, Content-Type of each patch type, apply as JSON', async () => {
      const { srv } = await serve((req, res) => json(res, 200, req.method === 'DELETE' ? { kind: 'Status', apiVersion: 'v1', status: 'Success' } : obj('a')));
      const prefixed = restClientForConfig({ host: `${srv.url}/some/prefix/`, warningHandler: () => {} });
      clients.push(prefixed);
      const c = new ResourceClient<Obj>(prefixed, flunders, 'ns');
      await c.list({ labelSelector: 'a in (x,y),!b', limit: 5, allowWatchBookmarks: false });
      for (const type of ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'] as const) {
        await c.patch('a', type, type === 'application/json-patch+json' ? [{ op: 'remove', path: '/spec' }] : { spec: {} }, { fieldManager: 'm' });
      }
      await c.apply({ apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'a', namespace: 'ns' }, spec: { reference: 'r' } }, { fieldManager: 'me', force: true });
      await c.delete('a', { propagationPolicy: 'Foreground' });

      const [list, jp, mp, smp, apply, del] = srv.seen;
      assert.equal(list?.url.pathname, '/some/prefix/apis/wardle.example.com/v1alpha1/namespaces/ns/flunders');
      assert.equal(list?.url.searchParams.get('labelSelector'), 'a in (x,y),!b');
      assert.equal(list?.url.searchParams.get('limit'), '5');
      assert.equal(list?.headers['accept'], 'application/json');
      assert.match(list?.headers['user-agent'] ?? '', /^[\w.-]+\/v\d+\.\d+\.\d+ \(\w+\/\w+\) kube-ts\/node-v\d+/);
      assert.equal(list?.headers['content-type'], undefined);
      assert.deepEqual(
        [jp, mp, smp].map((s) => s?.headers['content-type']),
        ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json'],
      );
      assert.deepEqual(JSON.parse(jp?.body ?? ''), [{ op: 'remove', path: '/spec' }]);
      assert.equal(mp?.url.searchParams.get('fieldManager'), 'm');
      assert.equal(apply?.method, 'PATCH');
      assert.equal(apply?.headers['content-type'], 'application/apply-patch+yaml');
      assert.equal(apply?.url.searchParams.get('fieldManager'), 'me');
      assert.equal(apply?.url.searchParams.get('force'), 'true');
      assert.deepEqual(JSON.parse(apply?.body ?? ''), { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'a', namespace: 'ns' }, spec: { reference: 'r' } });
      assert.equal(del?.method, 'DELETE');
      assert.equal(del?.headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(del?.body ?? ''), { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Foreground' });
    });

    test('list items without apiVersion and kind get the list’s, so they look like a get', async () => {
      const { client } = await serve((_req, res) =>
        json(res, 200, {
          kind: 'FlunderList',
          apiVersion: 'wardle.example.com/v1alpha1',
          metadata: { resourceVersion: '9' },
          items: [{ metadata: { name: 'a' } }, { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'b' } }],
        }),
      );
      const list = await client.list();
      assert.deepEqual(list.items, [
        { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'a' } },
        { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'b' } },
      ]);
    });

    test('bearer token and basic auth headers', async () => {
      const { srv } = await serve((_req, res) => json(res, 200, obj('a')));
      const token = restClientForConfig({ host: srv.url, bearerToken: 'tok-1' });
      const basic = restClientForConfig({ host: srv.url, username: 'jane', password: 'p:w' });
      clients.push(token, basic);
      await new ResourceClient<Obj>(token, flunders, 'ns').get('a');
      await new ResourceClient<Obj>(basic, flunders, 'ns').get('a');
      assert.equal(srv.seen[0]?.headers['authorization'], 'Bearer tok-1');
      assert.equal(srv.seen[1]?.headers['authorization'], `Basic ${Buffer.from('jane:p:w').toString('base64')}`);
      assert.throws(() => restClientForConfig({ host: srv.url, bearerToken: 't', username: 'u' }), /more than one authentication method/);
    });

    test('a token file is re-read once a minute; an unreadable file keeps the last token', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'rest-token-'));
      try {
        const file = join(dir, 'token');
        writeFileSync(file, 'first\n');
        const { srv, client, clock } = await serve((_req, res) => json(res, 200, obj('a')), { bearerTokenFile: file });
        await client.get('a');
        writeFileSync(file, 'second');
        await client.get('a');
        clock.t += TOKEN_FILE_PERIOD_MS;
        await client.get('a');
        rmSync(file);
        clock.t += TOKEN_FILE_PERIOD_MS;
        await client.get('a');
        assert.deepEqual(
          srv.seen.map((s) => s.headers['authorization']),
          ['Bearer first', 'Bearer first', 'Bearer second', 'Bearer second'],
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    test('timeoutMs: sent as the timeout parameter, and the call fails with ETIMEDOUT when no answer comes', async () => {
      const { srv, client } = await serve(() => {}, { timeoutMs: 300 });
      const err = await rejection(client.get('a'));
      assert.ok(err instanceof TransportError, String(err));
      assert.equal(err.code, 'ETIMEDOUT');
      assert.equal(srv.seen[0]?.url.searchParams.get('timeout'), '300ms');
    });

    test("the caller's signal aborts a call with the caller's reason", async () => {
      const { srv, client } = await serve(() => {});
      const abort = new AbortController();
      const p = client.get('a', { signal: abort.signal });
      while (srv.seen.length === 0) await new Promise((r) => setTimeout(r, 5));
      abort.abort(new Error('shutting down'));
      const err = await rejection(p);
      assert.ok(err instanceof Error);
      assert.equal(err.message, 'shutting down');
    });
  });

  describe('warnings', () => {
    test('Warning headers reach the handler, watches included', async () => {
      const got: Warning[] = [];
      const { client } = await serve(
        (req, res) => {
          res.setHeader('Warning', ['299 - "first, with a comma"', '299 - "second \\"quoted\\"", 299 - "third" "Wed, 21 Oct 2015 07:28:00 GMT"']);
          if (req.url.searchParams.get('watch') === 'true') {
            res.writeHead(200, { 'Content-Type': 'application/json' });
            return void res.end();
          }
          json(res, 200, obj('a'));
        },
        { warningHandler: (w) => got.push(w) },
      );
      await client.get('a');
      assert.deepEqual(got, [
        { code: 299, agent: '-', text: 'first, with a comma' },
        { code: 299, agent: '-', text: 'second "quoted"' },
        { code: 299, agent: '-', text: 'third' },
      ]);
      for await (const e of await client.watch()) assert.fail(`no events expected, got ${e.type}`);
      assert.equal(got.length, 6);
    });

    test('the default handler logs each 299 text once', () => {
      const lines: string[] = [];
      const h = warningLogger((l) => lines.push(l));
      for (const w of parseWarningHeaders(['299 - "a"', '299 - "a", 299 - "b"', '199 - "misc"', 'garbage'])) h(w);
      assert.deepEqual(lines, ['Warning: a', 'Warning: b']);
    });
  });

  describe('watch', () => {
    const line = (type: string, object: unknown): string => `${JSON.stringify({ type, object })}\n`;

    test('events are decoded as list items are; ERROR events carry the Status; a clean end ends the iteration', async () => {
      const { client } = await serve((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
        res.write(line('ADDED', obj('a', '2')));
        // one event split over two chunks, then two in one
        const m = line('MODIFIED', obj('a', '3'));
        res.write(m.slice(0, 10));
        res.write(m.slice(10) + line('BOOKMARK', { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { resourceVersion: '4' } }));
        res.write(line('ERROR', status(410, 'Expired', 'too old resource version: 1 (4)')));
        res.end();
      });
      const w = await client.watch({ resourceVersion: '1' });
      const events: WatchEvent<Obj>[] = [];
      for await (const e of w) events.push(e);
      assert.deepEqual(
        events.map((e) => e.type),
        ['ADDED', 'MODIFIED', 'BOOKMARK', 'ERROR'],
      );
      assert.deepEqual(events[1]?.object, obj('a', '3'));
      const err = events[3];
      assert.ok(err?.type === 'ERROR');
      assert.equal(err.object.code, 410);
      assert.equal(err.object.reason, 'Expired');
    });

    test('a connection broken inside the stream ends the iteration with a TransportError, after the events before it', async () => {
      const { client } = await serve((_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
        res.write(line('ADDED', obj('a')));
        res.write('{"type":"MODIFIED","obj', () => setTimeout(() => res.socket?.destroy(), 20));
      });
      const w = await client.watch();
      const events: WatchEvent<Obj>[] = [];
      const err = await rejection(
        (async () => {
          for await (const e of w) events.push(e);
        })(),
      );
      assert.equal(events.length, 1);
      assert.ok(err instanceof TransportError, String(err));
      assert.match(err.message, /watch stream broke/);
    });

    test('a line that is not a watch event ends the iteration with a DecodeError', async () => {
      for (const bad of ['not json\n', '{"type":"SOMETHING","object":{}}\n', '{"type":"ADDED","object":[1]}\n', '{"type":"ADDED","object":{}']) {
        const { client } = await serve((_req, res) => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(line('ADDED', obj('a')) + bad);
        });
        const w = await client.watch();
        const events: WatchEvent<Obj>[] = [];
        const err = await rejection(
          (async () => {
            for await (const e of w) events.push(e);
          })(),
        );
        assert.equal(events.length, 1);
        assert.ok(err instanceof DecodeError, `${bad}: ${String(err)}`);
      }
    });

    test('stop() ends a watch the server keeps open; 429 before the stream is retried', async () => {
      const { srv, client, clock } = await serve((_req, res, n) => {
        if (n === 1) return json(res, 429, status(429, 'TooManyRequests', 'busy'), { 'Retry-After': '2' });
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write(line('ADDED', obj('a')));
      });
      const w = await client.watch();
      const events: WatchEvent<Obj>[] = [];
      for await (const e of w) {
        events.push(e);
        w.stop();
      }
      assert.equal(events.length, 1);
      assert.equal(srv.seen.length, 2);
      assert.deepEqual(clock.sleeps, [2000]);
    });
  });
});
