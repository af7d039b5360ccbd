// Large YAML bodies are decoded off the event loop (serializer/yaml-pool.ts), through the command
// `npm start` runs (hack/start.mjs: the bundle and its worker entry): other requests are answered
// while a 2.5 MiB YAML create is decoded, the create then succeeds, and a request whose deadline
// passes mid-decode answers kube's 504 while the server keeps serving (the worker is recycled).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ControlPlane } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { largeYAMLNamespace } from '../bench/lib/yaml.js';

const YAML = { 'Content-Type': 'application/yaml', Accept: 'application/json' };

describe('large YAML bodies off the event loop (npm start bundle, SQLite)', () => {
  let cp: ControlPlane;
  let c: HttpsClient;
  before(async () => {
    cp = await ControlPlane.start({ backend: 'sqlite', bundled: true });
    c = new HttpsClient(cp.credentials);
  });
  after(async () => {
    c.close();
    await cp.stop();
  });

  /** Polls /metrics until a mutating request is in the handler chain (the large body's create). */
  async function untilMutatingInFlight(done: () => boolean): Promise<void> {
    for (;;) {
      const m = await c.request({ path: '/metrics' });
      if (/apiserver_current_inflight_requests\{request_kind="mutating"\} [1-9]/.test(m.text) || done()) return;
    }
  }

  test('a GET is answered while a large YAML body is decoded, then the create succeeds', async () => {
    let postDone = false;
    const post = c.request({ method: 'POST', path: '/api/v1/namespaces', headers: YAML, body: largeYAMLNamespace('big-yaml', 2.5 * 1024 * 1024), timeoutMs: 600_000 }).finally(() => {
      postDone = true;
    });
    await untilMutatingInFlight(() => postDone);
    const get = await c.json('GET', '/api/v1/namespaces/default');
    assert.equal(get.status, 200);
    assert.equal(postDone, false, 'the GET was answered before the YAML create');
    const created = await post;
    assert.equal(created.status, 201, created.text.slice(0, 500));
    assert.match(String(created.headers['warning'] ?? ''), /unknown field \\"junk\\"/);
    assert.equal((JSON.parse(created.text) as { metadata: { name: string } }).metadata.name, 'big-yaml');
  });

  test("a deadline passing mid-decode is kube's 504; the server keeps serving and decoding", async () => {
    // 100 ms: loopback delivers the body in a few ms, and decoding 2.5 MiB of YAML takes far
    // longer on any machine (about 1 s on a quiet one here), so the deadline passes mid-decode.
    const r = await c.request({ method: 'POST', path: '/api/v1/namespaces?timeout=100ms', headers: YAML, body: largeYAMLNamespace('too-slow', 2.5 * 1024 * 1024), timeoutMs: 600_000 });
    assert.equal(r.status, 504, r.text.slice(0, 500));
    const s = JSON.parse(r.text) as { reason: string };
    assert.equal(s.reason, 'Timeout');
    assert.equal((await c.json('GET', '/api/v1/namespaces/too-slow')).status, 404);
    const small = await c.request({ method: 'POST', path: '/api/v1/namespaces', headers: YAML, body: largeYAMLNamespace('after-timeout', 128 * 1024), timeoutMs: 600_000 });
    assert.equal(small.status, 201, small.text.slice(0, 500));
    // DeleteOptions bodies take the same path, with the same answers.
    const del = await c.request({ method: 'DELETE', path: '/api/v1/namespaces/after-timeout', headers: YAML, body: largeYAMLNamespace('x', 128 * 1024), timeoutMs: 600_000 });
    // delete.go answers the DeleteOptions decoder's error as is (scope.err): a 500 naming the meta scheme.
    assert.deepEqual(
      [del.status, (JSON.parse(del.text) as { message: string }).message],
      [500, 'no kind "Namespace" is registered for version "v1" in scheme "pkg/apis/meta/internalversion/scheme/register.go:27"'],
    );
    assert.equal(cp.exited(), undefined);
  });
});
