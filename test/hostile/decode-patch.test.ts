// Hostile bodies against the control plane command (SQLite and etcd): prototype keys in patches and
// bodies, JSON-patch copy amplification, malformed Content-Types and YAML tags. Every answer is a
// Status with kube's code; the process stays alive and healthy after each. Under RBAC (kube's
// default) an anonymous client is refused before its body is read; the prototype keys are sent
// again by a token user allowed to patch namespaces and by the admin, for whom they are data.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createEstablishedCRD, cronTabCRD, cronTabSchema, cronTabVersion } from '../apiextensions/env.js';
import { describeBackends, type ControlPlane } from '../integration/harness.js';
import { asStatus, HttpsClient } from '../integration/https.js';
import { grantTestUser, testUserClient, testUserFlags } from '../integration/rbac-user.js';

type Obj = Record<string, unknown>;
const NS = '/api/v1/namespaces';
const WIDGETS = '/apis/hostile.example.com/v1/namespaces/default/widgets';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const JSONPATCH = { 'Content-Type': 'application/json-patch+json' };
const STRATEGIC = { 'Content-Type': 'application/strategic-merge-patch+json' };

const own = (o: unknown, k: string): unknown => (typeof o === 'object' && o !== null && Object.prototype.hasOwnProperty.call(o, k) ? (o as Obj)[k] : undefined);
const at = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, k) => own(v, k), o);

describeBackends(
  'hostile decode and patch input',
  (cp: () => ControlPlane) => {
    let admin: HttpsClient;
    let anonymous: HttpsClient;
    let user: HttpsClient;
    before(async () => {
      admin = new HttpsClient(cp().credentials);
      anonymous = new HttpsClient(cp().credentials, { anonymous: true });
      user = testUserClient(cp());
      await grantTestUser(admin, 'namespace-patcher', [{ verbs: ['patch'], apiGroups: [''], resources: ['namespaces'] }], { verb: 'patch', group: '', resource: 'namespaces' });
      const m = { type: 'object', additionalProperties: { type: 'string' } };
      const schema = cronTabSchema({
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        m: { ...m, 'x-kubernetes-validations': [{ rule: "!('constructor' in self) || self['constructor'] != 'bad'", message: 'constructor must not be bad' }] },
      });
      await createEstablishedCRD(admin, cronTabCRD({ group: 'hostile.example.com', plural: 'widgets', kind: 'Widget', versions: [cronTabVersion('v1', { storage: true, schema })] }), WIDGETS);
    });
    after(() => {
      admin.close();
      anonymous.close();
      user.close();
    });

    /** The server answers, is ready and its metrics (prom-client, which a polluted Object.prototype breaks) render. */
    async function assertHealthy(): Promise<void> {
      assert.equal(cp().exited(), undefined, `the server exited\n${cp().log().slice(-3000)}`);
      const ready = await admin.request({ path: '/readyz' });
      assert.equal(ready.status, 200, ready.text);
      const metrics = await admin.request({ path: '/metrics' });
      assert.equal(metrics.status, 200, metrics.text.slice(0, 500));
      assert.match(metrics.text, /apiserver_request_total\{/);
      const ns = await admin.json('GET', `${NS}/default`);
      assert.equal(ns.status, 200);
      assert.equal(own(ns.body, 'isAdmin'), undefined);
    }

    test('PATCH namespaces/default {"__proto__":{"isAdmin":true}} (merge) from anonymous is 403 before decoding; from a user allowed to patch it is data: pruned, and the server stays up', async () => {
      // Authorization comes before the body is read (kube's handler chain), so a body that does
      // not even parse gets the same 403 as the prototype keys.
      for (const body of ['{"__proto__":{"isAdmin":true}}', '{"__proto__":', '{"a":'.repeat(20_000)]) {
        const denied = await anonymous.request({ method: 'PATCH', path: `${NS}/default`, headers: MERGE, body });
        const s = asStatus(denied.text);
        assert.deepEqual(
          [denied.status, s.reason, s.message],
          [403, 'Forbidden', 'namespaces "default" is forbidden: User "system:anonymous" cannot patch resource "namespaces" in API group "" in the namespace "default"'],
          body.slice(0, 40),
        );
      }
      await assertHealthy();
      const r = await user.request({ method: 'PATCH', path: `${NS}/default`, headers: MERGE, body: '{"__proto__":{"isAdmin":true}}' });
      assert.equal(r.status, 200, r.text);
      const body = JSON.parse(r.text) as Obj;
      assert.equal(own(body, '__proto__'), undefined, 'an unknown __proto__ is pruned');
      assert.equal(body['isAdmin'], undefined);
      await assertHealthy();
    });

    test('the same keys in strategic merge and JSON patches, nested too', async () => {
      for (const [headers, body] of [
        [STRATEGIC, '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}},"metadata":{"__proto__":{"isAdmin":true}}}'],
        [MERGE, '{"constructor":{"prototype":{"isAdmin":true}},"metadata":{"__proto__":{"isAdmin":true},"labels":{"__proto__":null}}}'],
        [JSONPATCH, '[{"op":"add","path":"/__proto__","value":{"isAdmin":true}},{"op":"add","path":"/metadata/__proto__","value":{"isAdmin":true}}]'],
      ] as const) {
        const r = await user.request({ method: 'PATCH', path: `${NS}/default`, headers, body });
        assert.equal(r.status, 200, `${body}: ${r.text}`);
        const got = JSON.parse(r.text) as Obj;
        assert.equal(own(got, '__proto__'), undefined);
        assert.equal(own(got, 'constructor'), undefined);
        assert.equal(at(got, 'metadata', '__proto__'), undefined);
      }
      for (const path of ['/__proto__/isAdmin', '/constructor/prototype/isAdmin', '/metadata/constructor/x']) {
        const r = await user.request({ method: 'PATCH', path: `${NS}/default`, headers: JSONPATCH, body: JSON.stringify([{ op: 'add', path, value: true }]) });
        const s = asStatus(r.text);
        assert.deepEqual([r.status, s.reason, s.message], [422, 'Invalid', 'the server rejected our request due to an error in our request'], path);
      }
      await assertHealthy();
    });

    test('metadata.__proto__ in a create body is pruned like any unknown field (Strict: 400); a __proto__ label is 422', async () => {
      const body = '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"proto-meta","__proto__":{"isAdmin":true},"labels":{"constructor":"c"},"annotations":{"constructor":"a"}}}';
      const created = await admin.request({ method: 'POST', path: NS, headers: { 'Content-Type': 'application/json' }, body });
      assert.equal(created.status, 201, created.text);
      assert.match(String(created.headers['warning']), /unknown field \\"metadata\.__proto__\\"/);
      const got = await admin.json('GET', `${NS}/proto-meta`);
      assert.equal(at(got.body, 'metadata', '__proto__'), undefined, 'not stored');
      assert.equal(at(got.body, 'metadata', 'labels', 'constructor'), 'c');
      assert.equal(at(got.body, 'metadata', 'annotations', 'constructor'), 'a');

      const strict = await admin.request({ method: 'POST', path: `${NS}?fieldValidation=Strict`, headers: { 'Content-Type': 'application/json' }, body: body.replace('proto-meta', 'proto-strict') });
      const s = asStatus(strict.text);
      assert.equal(strict.status, 400, strict.text);
      assert.equal(s.reason, 'BadRequest');
      assert.match(s.message ?? '', /unknown field "metadata.__proto__"/);

      const label = await admin.request({ method: 'POST', path: NS, headers: { 'Content-Type': 'application/json' }, body: '{"metadata":{"name":"proto-label","labels":{"__proto__":"x"}}}' });
      const l = asStatus(label.text);
      assert.equal(label.status, 422, label.text);
      assert.equal(l.reason, 'Invalid');
      assert.match(l.message ?? '', /^Namespace "proto-label" is invalid: metadata\.labels: Invalid value: "__proto__": name part must consist of alphanumeric characters/);
      await assertHealthy();
    });

    test('__proto__ and constructor round-trip in schemaless data and maps of a custom resource: create, get, patch, watch; CEL reads them as keys', async () => {
      const body =
        '{"apiVersion":"hostile.example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"image":"i","__proto__":{"pruned":true},"free":{"__proto__":{"isAdmin":true},"constructor":{"prototype":1}},"m":{"__proto__":"p","constructor":"c"}}}';
      const created = await admin.request({ method: 'POST', path: WIDGETS, headers: { 'Content-Type': 'application/json' }, body });
      assert.equal(created.status, 201, created.text);
      const rv = at(JSON.parse(created.text), 'metadata', 'resourceVersion') as string;
      const watch = await admin.watch(`${WIDGETS}?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name%3Dw1`);
      try {
        const got = (await admin.json('GET', `${WIDGETS}/w1`)).body;
        assert.equal(at(got, 'spec', '__proto__'), undefined, 'an unknown spec.__proto__ is pruned');
        assert.deepEqual(at(got, 'spec', 'free', '__proto__'), { isAdmin: true });
        assert.deepEqual(at(got, 'spec', 'free', 'constructor'), { prototype: 1 });
        assert.equal(at(got, 'spec', 'm', '__proto__'), 'p');
        assert.equal(at(got, 'spec', 'm', 'constructor'), 'c');

        const merged = await admin.request({ method: 'PATCH', path: `${WIDGETS}/w1`, headers: MERGE, body: '{"spec":{"free":{"__proto__":{"x":2}},"m":{"__proto__":"q"}}}' });
        assert.equal(merged.status, 200, merged.text);
        assert.deepEqual(at(JSON.parse(merged.text), 'spec', 'free', '__proto__'), { isAdmin: true, x: 2 });
        const patched = await admin.request({
          method: 'PATCH',
          path: `${WIDGETS}/w1`,
          headers: JSONPATCH,
          body: '[{"op":"replace","path":"/spec/m/__proto__","value":"r"},{"op":"copy","from":"/spec/free/__proto__","path":"/spec/free/prototype"}]',
        });
        assert.equal(patched.status, 200, patched.text);
        const p = JSON.parse(patched.text) as Obj;
        assert.equal(at(p, 'spec', 'm', '__proto__'), 'r');
        assert.deepEqual(at(p, 'spec', 'free', 'prototype'), { isAdmin: true, x: 2 });

        const events = await watch.until((es) => es.length >= 2);
        assert.deepEqual(
          events.map((e) => e.type),
          ['MODIFIED', 'MODIFIED'],
        );
        assert.equal(at(events[1]?.object, 'spec', 'm', '__proto__'), 'r');

        const bad = await admin.request({ method: 'PATCH', path: `${WIDGETS}/w1`, headers: MERGE, body: '{"spec":{"m":{"constructor":"bad"}}}' });
        assert.equal(bad.status, 422, bad.text);
        assert.match(asStatus(bad.text).message ?? '', /spec\.m: Invalid value: "object": constructor must not be bad/);
      } finally {
        watch.close();
      }
      await assertHealthy();
    });

    test("a 2.8 KB JSON patch of 22 doubling copies is a 422 (kube's 3 MiB copy limit), not a stall", async () => {
      const ops: Obj[] = [{ op: 'add', path: '/metadata/annotations', value: { a: 'x'.repeat(100) } }];
      for (let i = 0; i < 22; i++) ops.push({ op: 'copy', from: '/metadata/annotations', path: `/metadata/annotations/c${i}` });
      const body = JSON.stringify(ops);
      assert.ok(body.length < 3000);
      const r = await admin.request({ method: 'PATCH', path: `${NS}/default`, headers: JSONPATCH, body, timeoutMs: 60_000 });
      const s = asStatus(r.text);
      assert.deepEqual([r.status, s.reason, s.message], [422, 'Invalid', 'the server rejected our request due to an error in our request']);
      await assertHealthy();
    });

    test('deep nesting in JSON and YAML bodies, patch documents and patched objects is a 4xx Status', async () => {
      const deep = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
      const widget = (name: string, free: string): string => `{"apiVersion":"hostile.example.com/v1","kind":"Widget","metadata":{"name":"${name}"},"spec":{"image":"i","free":${free}}}`;
      const ok = await admin.request({ method: 'POST', path: WIDGETS, headers: { 'Content-Type': 'application/json' }, body: widget('deep', deep(990)) });
      assert.equal(ok.status, 201, ok.text.slice(0, 300));
      const answers: Array<[string, number, string]> = [];
      const send = async (what: string, method: string, path: string, ct: string, body: string): Promise<void> => {
        const r = await admin.request({ method, path, headers: { 'Content-Type': ct }, body, timeoutMs: 60_000 });
        answers.push([what, r.status, asStatus(r.text).reason ?? '']);
      };
      for (const n of [1001, 5000, 9999]) {
        await send(`json ${n}`, 'POST', WIDGETS, 'application/json', widget(`d${n}`, deep(n)));
        await send(`yaml ${n}`, 'POST', WIDGETS, 'application/yaml', `metadata:\n  name: y${n}\nspec:\n  free: ${'['.repeat(n)}${']'.repeat(n)}\n`);
        await send(`merge ${n}`, 'PATCH', `${WIDGETS}/deep`, 'application/merge-patch+json', `{"spec":{"free":${deep(n)}}}`);
      }
      await send('json patch result', 'PATCH', `${WIDGETS}/deep`, 'application/json-patch+json', `[{"op":"copy","from":"/spec/free","path":"/spec/free${'/a'.repeat(500)}"}]`);
      assert.deepEqual(
        answers.map(([what, code]) => [what, code]),
        [
          ['json 1001', 400],
          ['yaml 1001', 400],
          ['merge 1001', 400],
          ['json 5000', 400],
          ['yaml 5000', 400],
          ['merge 5000', 400],
          ['json 9999', 400],
          ['yaml 9999', 400],
          ['merge 9999', 400],
          ['json patch result', 422],
        ],
      );
      await assertHealthy();
    });

    test('malformed Content-Types are 415 listing the accepted types; YAML tags are decoded as go-yaml does', async () => {
      const upper = await admin.request({ method: 'PATCH', path: `${NS}/default`, headers: { 'Content-Type': 'APPLICATION/MERGE-PATCH+JSON' }, body: '{}' });
      assert.equal(upper.status, 415, `a patch type is case-sensitive: ${upper.text}`);
      for (const ct of ['foo', 'application/', '/json', ';;;', 'application/json;;;', 'application/json;charset', 'application/yaml;a="b']) {
        const r = await admin.request({ method: 'POST', path: NS, headers: { 'Content-Type': ct }, body: '{"metadata":{"name":"ct"}}' });
        const s = asStatus(r.text);
        assert.equal(r.status, 415, `${ct}: ${r.text}`);
        assert.equal(s.reason, 'UnsupportedMediaType');
        assert.equal(s.message, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
        const p = await admin.request({ method: 'PATCH', path: `${NS}/default`, headers: { 'Content-Type': ct }, body: '{}' });
        assert.equal(p.status, 415, `PATCH ${ct}: ${p.text}`);
      }
      // kube reads a patch type up to the first ';' (patch.go), so malformed parameters are ignored there.
      const lenient = await admin.request({ method: 'PATCH', path: `${NS}/default`, headers: { 'Content-Type': 'application/merge-patch+json;;;' }, body: '{}' });
      assert.equal(lenient.status, 200, lenient.text);
      const yaml = 'metadata:\n  name: yaml-tags\n  annotations:\n    bin: !!binary aGVsbG8=\n    custom: !foo bar\n    ts: !!timestamp 2001-12-14\n';
      const ok = await admin.request({ method: 'POST', path: NS, headers: { 'Content-Type': 'application/yaml' }, body: yaml });
      assert.equal(ok.status, 201, ok.text);
      assert.deepEqual(at(JSON.parse(ok.text), 'metadata', 'annotations'), { bin: 'hello', custom: 'bar', ts: '2001-12-14' });
      for (const tagged of ['!!binary "!!!"', '!!set {a, b}', '!!omap [a: 1]']) {
        const r = await admin.request({ method: 'POST', path: NS, headers: { 'Content-Type': 'application/yaml' }, body: `metadata:\n  name: yaml-bad\n  annotations:\n    a: ${tagged}\n` });
        assert.ok(r.status === 400 || r.status === 422, `${tagged}: ${r.status} ${r.text}`);
        asStatus(r.text);
      }
      await assertHealthy();
    });
  },
  { extraArgs: testUserFlags() },
);
