// Ports of client-go's dynamic/golden_test.go (TestGoldenRequest) and client_test.go
// (TestInvalidSegments, TestList, TestGet…): the requests the dynamic client sends over HTTP, with
// subresources, and how answers and errors come back.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { StatusError } from '../../../runtime/apimachinery/errors/index.js';
import { DynamicClient, nestedString, removeNestedField, setNestedField, type Unstructured } from '../../../runtime/client/dynamic/index.js';
import { restClientForConfig, type HTTPRESTClient } from '../../../runtime/client/index.js';

interface Seen {
  method: string;
  url: string;
  contentType: string | undefined;
  body: string;
}

let server: Server;
let rest: HTTPRESTClient;
const seen: Seen[] = [];
/** What the next request is answered with. */
let answer: { code: number; body: unknown } = { code: 200, body: {} };

before(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', contentType: req.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(answer.code, { 'Content-Type': 'application/json' });
      res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  rest = restClientForConfig({ host: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, maxRetries: 0 });
});
after(async () => {
  rest.close();
  await new Promise((r) => server.close(r));
});

const gvr = { group: 'flops', version: 'v1alpha1', resource: 'flips' };
const mips: Unstructured = { apiVersion: 'flops/v1alpha1', kind: 'Flip', metadata: { name: 'mips' } };
const last = (): Seen => seen[seen.length - 1] as Seen;

describe('dynamic client requests (client-go dynamic/golden_test.go TestGoldenRequest)', () => {
  const client = (): ReturnType<DynamicClient['resource']> => new DynamicClient(rest).resource(gvr).namespace('mops');

  it('create with a subresource posts to <name>/<subresource>', async () => {
    answer = { code: 201, body: mips };
    await client().create(mips, { fieldValidation: 'Warn' }, 'fin');
    assert.equal(last().method, 'POST');
    assert.equal(last().url, '/apis/flops/v1alpha1/namespaces/mops/flips/mips/fin?fieldValidation=Warn');
    assert.deepEqual(JSON.parse(last().body), mips);
  });

  it('create without one posts to the collection', async () => {
    answer = { code: 201, body: mips };
    await client().create(mips);
    assert.equal(last().url, '/apis/flops/v1alpha1/namespaces/mops/flips');
  });

  it('get, update and updateStatus', async () => {
    answer = { code: 200, body: mips };
    await client().get('mips', { resourceVersion: '42' }, 'fin');
    assert.deepEqual([last().method, last().url], ['GET', '/apis/flops/v1alpha1/namespaces/mops/flips/mips/fin?resourceVersion=42']);
    await client().update(mips, { fieldValidation: 'Strict' }, 'fin');
    assert.deepEqual([last().method, last().url], ['PUT', '/apis/flops/v1alpha1/namespaces/mops/flips/mips/fin?fieldValidation=Strict']);
    await client().updateStatus(mips);
    assert.deepEqual([last().method, last().url], ['PUT', '/apis/flops/v1alpha1/namespaces/mops/flips/mips/status']);
  });

  it('patch and apply', async () => {
    answer = { code: 200, body: mips };
    await client().patch('mips', 'application/strategic-merge-patch+json', '{"foo":"bar"}', { fieldManager: 'baz' }, 'fin');
    assert.deepEqual(
      [last().method, last().url, last().contentType, last().body],
      ['PATCH', '/apis/flops/v1alpha1/namespaces/mops/flips/mips/fin?fieldManager=baz', 'application/strategic-merge-patch+json', '{"foo":"bar"}'],
    );
    await client().apply('mips', mips, { fieldManager: 'm', force: true }, 'fin');
    assert.deepEqual([last().url, last().contentType], ['/apis/flops/v1alpha1/namespaces/mops/flips/mips/fin?fieldManager=m&force=true', 'application/apply-patch+yaml']);
    await client().applyStatus('mips', mips, { fieldManager: 'm' });
    assert.equal(last().url, '/apis/flops/v1alpha1/namespaces/mops/flips/mips/status?fieldManager=m');
    await assert.rejects(
      client().apply('mips', { ...mips, metadata: { name: 'mips', managedFields: [{ manager: 'x' }] } }, { fieldManager: 'm' }),
      /^Error: cannot apply an object with managed fields already set\./,
    );
  });

  it('delete and deleteCollection send DeleteOptions', async () => {
    answer = { code: 200, body: { kind: 'Status', apiVersion: 'v1', status: 'Success' } };
    await client().delete('mips', { dryRun: ['All'] }, 'fin');
    assert.deepEqual([last().method, last().url], ['DELETE', '/apis/flops/v1alpha1/namespaces/mops/flips/mips/fin']);
    assert.deepEqual(JSON.parse(last().body), { apiVersion: 'v1', kind: 'DeleteOptions', dryRun: ['All'] });
    await client().deleteCollection({ dryRun: ['All'] }, { resourceVersion: '42' });
    assert.deepEqual([last().method, last().url], ['DELETE', '/apis/flops/v1alpha1/namespaces/mops/flips?resourceVersion=42']);
  });

  it('list and the core group path; a cluster-wide client has no namespace segment', async () => {
    answer = { code: 200, body: { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '7' }, items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }] } };
    const list = await new DynamicClient(rest).resource({ group: '', version: 'v1', resource: 'configmaps' }).list({ resourceVersion: '42', labelSelector: 'a=b' });
    assert.equal(last().url, '/api/v1/configmaps?labelSelector=a%3Db&resourceVersion=42');
    assert.equal(list.items[0]?.metadata?.name, 'a');
    assert.equal(list.metadata?.resourceVersion, '7');
  });
});

describe('dynamic client checks (client-go dynamic/client_test.go)', () => {
  it('TestInvalidSegments: a bad namespace or name fails before any request', async () => {
    const before = seen.length;
    const resource = { group: 'gtest', version: 'vtest', resource: 'rtest' };
    const obj: Unstructured = { apiVersion: 'vtest', kind: 'vkind', metadata: { name: 'bad/name' } };
    const c = new DynamicClient(rest).resource(resource);
    const ns = c.namespace('bad/namespace');
    const badNs = /^Error: invalid namespace "bad\/namespace": \[may not contain '\/'\]$/;
    const badName = /^Error: invalid resource name "bad\/name": \[may not contain '\/'\]$/;
    await assert.rejects(ns.create(obj), badNs);
    await assert.rejects(c.update(obj), badName);
    await assert.rejects(ns.update(obj), badNs);
    await assert.rejects(c.updateStatus(obj), badName);
    await assert.rejects(c.delete('bad/name'), badName);
    await assert.rejects(ns.deleteCollection(), badNs);
    await assert.rejects(c.get('bad/name'), badName);
    await assert.rejects(ns.list(), badNs);
    await assert.rejects(ns.watch(), badNs);
    await assert.rejects(c.patch('bad/name', 'application/merge-patch+json', {}), badName);
    await assert.rejects(c.apply('..', obj, { fieldManager: 'm' }), /invalid resource name "\.\.": \[may not be '\.\.'\]/);
    await assert.rejects(c.get('x', {}, '../../secrets'), /invalid subresource/);
    await assert.rejects(c.get(''), /^Error: name is required$/);
    assert.equal(seen.length, before);
  });

  it('server errors are StatusErrors; an answer without a kind is an error', async () => {
    answer = { code: 404, body: { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'flips.flops "x" not found' } };
    const c = new DynamicClient(rest).resource(gvr).namespace('mops');
    const err = await c.get('x').catch((e: unknown) => e);
    assert.ok(err instanceof StatusError);
    assert.equal(err.status.message, 'flips.flops "x" not found');
    answer = { code: 200, body: { metadata: { name: 'x' } } };
    await assert.rejects(c.get('x'), /^Error: Object 'Kind' is missing in '\{"metadata":\{"name":"x"\}\}'$/);
  });
});

describe('unstructured helpers', () => {
  it('nested fields: a __proto__ key is a property, never the prototype', () => {
    const obj: Record<string, unknown> = {};
    setNestedField(obj, 'v', '__proto__', 'polluted');
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.equal(nestedString(obj, '__proto__', 'polluted'), 'v');
    setNestedField(obj, 3, 'spec', 'replicas');
    assert.deepEqual(JSON.parse(JSON.stringify(obj)), { ['__proto__']: { polluted: 'v' }, spec: { replicas: 3 } });
    removeNestedField(obj, 'spec', 'replicas');
    assert.deepEqual(obj['spec'], {});
    assert.equal(nestedString(obj, 'constructor', 'name'), undefined);
  });
});
