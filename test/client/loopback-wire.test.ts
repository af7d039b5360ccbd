// The loopback REST client against scripted handlers: what a handler does on the response
// (whole bodies, streams, failures before and after the answer, backpressure) reaches the
// caller exactly as the same answer over HTTP would.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isStatusError, newNotFound } from '../../runtime/apimachinery/errors/index.js';
import { TransportError, type WatchEvent } from '../../runtime/client/index.js';
import { LoopbackRESTClient } from '../../runtime/client/loopback/index.js';
import type { APIRequest, Handler } from '../../runtime/apimachinery/request/http.js';

const USER = { name: 'system:apiserver', groups: ['system:masters'] };
const client = (handler: Handler): LoopbackRESTClient => new LoopbackRESTClient({ handler, user: USER, warningHandler: () => {} });
const event = (name: string): string => `${JSON.stringify({ type: 'ADDED', object: { kind: 'Thing', apiVersion: 'v1', metadata: { name } } })}\n`;

describe('loopback REST client: scripted handlers', () => {
  test('the handler sees the method, escaped path, query, headers, body, user and RequestInfo', async () => {
    let seen: APIRequest | undefined;
    let body = '';
    const c = client(async (req, res) => {
      seen = req;
      body = (await req.readBody()).toString();
      res.writeJSON(201, { kind: 'Thing', apiVersion: 'v1', metadata: { name: 'a b' } });
    });
    const out = await c.request<{ metadata: { name: string } }>({
      method: 'POST',
      path: '/apis/g.io/v1/namespaces/ns/things',
      query: { dryRun: 'All', limit: undefined },
      body: { a: 1 },
    });
    assert.equal(out.metadata.name, 'a b');
    assert.ok(seen);
    assert.equal(seen.method, 'POST');
    assert.equal(seen.path, '/apis/g.io/v1/namespaces/ns/things');
    assert.equal(seen.query.toString(), 'dryRun=All');
    assert.equal(seen.headers['content-type'], 'application/json');
    assert.equal(body, '{"a":1}');
    assert.deepEqual(seen.user, USER);
    assert.equal(seen.info.verb, 'create');
    assert.equal(seen.info.resource, 'things');
    assert.equal(seen.info.namespace, 'ns');
    assert.equal(seen.raw.url, '/apis/g.io/v1/namespaces/ns/things?dryRun=All');
  });

  test('a Status error the handler writes or throws is the StatusError; anything else thrown is a 500 naming it', async () => {
    const written = client(async (_req, res) => res.writeError(newNotFound({ group: 'g.io', resource: 'things' }, 'x')));
    await assert.rejects(written.request({ method: 'GET', path: '/x' }), (e) => isStatusError(e) && e.code === 404 && e.message === 'things.g.io "x" not found');
    const thrown = client(async () => {
      throw newNotFound({ group: 'g.io', resource: 'things' }, 'y');
    });
    await assert.rejects(thrown.request({ method: 'GET', path: '/x' }), (e) => isStatusError(e) && e.code === 404);
    const crashed = client(async () => {
      throw new Error('boom');
    });
    await assert.rejects(crashed.request({ method: 'GET', path: '/x' }), (e) => isStatusError(e) && e.code === 500 && e.status.reason === 'InternalError' && /boom/.test((e as Error).message));
    const silent = client(async () => {});
    await assert.rejects(silent.request({ method: 'GET', path: '/x' }), (e) => isStatusError(e) && e.code === 500);
  });

  test('a non-Status error body becomes the unstructured error client-go makes', async () => {
    const c = client(async (_req, res) => res.writeBytes(502, 'bad gateway', 'text/plain'));
    await assert.rejects(c.request({ method: 'GET', path: '/x' }), (e) => isStatusError(e) && e.code === 502 && e.status.details?.causes?.[0]?.message === 'bad gateway');
  });

  test('a watch stream that breaks after events is a TransportError, not a clean end', async () => {
    const c = client(async (_req, res) => {
      const s = res.stream('application/json');
      await s.write(event('a'));
      throw new Error('storage went away');
    });
    const w = await c.watch<unknown>({ path: '/apis/g.io/v1/things', query: { watch: true } });
    const seen: WatchEvent<unknown>[] = [];
    await assert.rejects(
      async () => {
        for await (const e of w) seen.push(e);
      },
      (e) => e instanceof TransportError && e.code === 'ERR_STREAM_PREMATURE_CLOSE',
    );
    assert.equal(seen.length, 1);
  });

  test('a handler returning leaves the stream ended cleanly; a partial last line is a decode error', async () => {
    const clean = client(async (_req, res) => {
      const s = res.stream('application/json');
      await s.write(event('a'));
      await s.write(event('b'));
    });
    const names: string[] = [];
    for await (const e of await clean.watch<{ metadata: { name: string } }>({ path: '/w' })) if (e.type === 'ADDED') names.push(e.object.metadata.name);
    assert.deepEqual(names, ['a', 'b']);
    const torn = client(async (_req, res) => {
      const s = res.stream('application/json');
      await s.write(event('a').slice(0, 10));
      s.end();
    });
    await assert.rejects(async () => {
      for await (const _ of await torn.watch({ path: '/w' })) void _;
    }, /not valid JSON/);
  });

  test('backpressure: the handler writes only as fast as the watch is read, and learns when the reader stops', async () => {
    let written = 0;
    let closedSeen = false;
    let release!: () => void;
    const handlerDone = new Promise<void>((resolve) => {
      release = resolve;
    });
    const c = client(async (req, res) => {
      const s = res.stream('application/json');
      const big = 'x'.repeat(4096);
      while (!s.closed && !req.signal.aborted) {
        await s.write(`${JSON.stringify({ type: 'ADDED', object: { kind: 'T', apiVersion: 'v1', metadata: { name: `n${written}` }, pad: big } })}\n`);
        written++;
        if (written > 10_000) break;
      }
      closedSeen = s.closed || req.signal.aborted;
      release();
    });
    const w = await c.watch({ path: '/w' });
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(written < 100, `the handler ran ahead of the reader: ${written} events`);
    let read = 0;
    for await (const _ of w) {
      if (++read === 3) break;
    }
    await handlerDone;
    assert.ok(closedSeen, 'the handler sees the stream closed once the reader stopped');
    assert.ok(written < 100);
  });

  test('the caller aborting a request in flight rejects it with the reason and aborts the handler', async () => {
    let handlerSignal: AbortSignal | undefined;
    const c = client(async (req, res) => {
      handlerSignal = req.signal;
      await new Promise((resolve) => req.signal.addEventListener('abort', resolve, { once: true }));
      res.writeJSON(200, {});
    });
    const abort = new AbortController();
    const p = c.request({ method: 'GET', path: '/slow', signal: abort.signal });
    await new Promise((r) => setImmediate(r));
    abort.abort(new Error('gave up'));
    await assert.rejects(p, /gave up/);
    assert.equal(handlerSignal?.aborted, true);
  });
});
