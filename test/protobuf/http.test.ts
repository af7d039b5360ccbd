// Protobuf request bodies through the real handlers: the core group (Namespace, Service) served
// by installAPIGroupVersion over SQLite, on loopback; bodies are kubectl's captured bytes and
// bodies written here with protobufjs' Writer.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import protobuf from 'protobufjs/minimal.js';
import { coreGroup } from '../../generated/registry/core.js';
import { newAdmissionChain } from '../../runtime/admission/types.js';
import { newNotFound } from '../../runtime/apimachinery/errors/index.js';
import { installAPIGroupVersion } from '../../runtime/endpoints/installer.js';
import { resolveRequestInfo } from '../../runtime/apimachinery/request/requestinfo.js';
import { createResourceStorage, storagePrefix } from '../../runtime/registry/generic/index.js';
import type { ResourceStorage } from '../../runtime/registry/rest.js';
import { adaptRequest } from '../../runtime/apimachinery/request/http.js';
import { decodeStatusProtobuf } from '../../runtime/apimachinery/serializer/protobuf/status.js';
import { newStorageFactory, type StorageFactory } from '../../runtime/storage/index.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const fixture = JSON.parse(readFileSync(new URL('../../runtime/apimachinery/serializer/protobuf/fixtures/kubectl-create.json', import.meta.url), 'utf8')) as {
  cases: { command: string; path: string; protobuf: string }[];
};
const captured = (command: string): Buffer => Buffer.from(fixture.cases.find((c) => c.command.startsWith(command))!.protobuf, 'hex');

/** `k8s\0` + runtime.Unknown{typeMeta{apiVersion, kind}, raw} around `raw`. */
function envelope(apiVersion: string, kind: string, raw: Uint8Array): Buffer {
  const w = protobuf.Writer.create();
  w.uint32((1 << 3) | 2)
    .fork()
    .uint32((1 << 3) | 2)
    .string(apiVersion)
    .uint32((2 << 3) | 2)
    .string(kind)
    .ldelim();
  w.uint32((2 << 3) | 2).bytes(raw);
  return Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0x00]), w.finish()]);
}

/** Namespace{metadata{name, uid?, resourceVersion?, labels}} as gogo writes it. */
function namespaceBody(meta: { name: string; resourceVersion?: string; labels?: Record<string, string> }): Buffer {
  const w = protobuf.Writer.create();
  w.uint32((1 << 3) | 2)
    .fork()
    .uint32((1 << 3) | 2)
    .string(meta.name);
  if (meta.resourceVersion !== undefined) w.uint32((6 << 3) | 2).string(meta.resourceVersion);
  for (const [k, v] of Object.entries(meta.labels ?? {}))
    w.uint32((11 << 3) | 2)
      .fork()
      .uint32((1 << 3) | 2)
      .string(k)
      .uint32((2 << 3) | 2)
      .string(v)
      .ldelim();
  w.ldelim();
  w.uint32((2 << 3) | 2)
    .fork()
    .ldelim()
    .uint32((3 << 3) | 2)
    .fork()
    .ldelim();
  return envelope('v1', 'Namespace', w.finish());
}

/** DeleteOptions{preconditions{uid}} under the apiVersion a core typed client uses. */
function deleteOptionsBody(uid: string): Buffer {
  const w = protobuf.Writer.create();
  w.uint32((2 << 3) | 2)
    .fork()
    .uint32((1 << 3) | 2)
    .string(uid)
    .ldelim();
  return envelope('v1', 'DeleteOptions', w.finish());
}

interface Reply {
  status: number;
  contentType: string | undefined;
  json: Record<string, unknown>;
}

describe('protobuf bodies over HTTP (core group on SQLite)', () => {
  let dir: string;
  let server: Server;
  let port: number;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'protobuf-http-'));
    const factory: StorageFactory = newStorageFactory({ backend: { backend: 'sqlite', path: join(dir, 'db') } });
    const storages = new Map<string, ResourceStorage>();
    for (const r of coreGroup.versions[0]!.resources) {
      const storage = await factory.forResource({ resourcePrefix: storagePrefix('', r.plural) });
      storages.set(r.kind, createResourceStorage({ group: coreGroup, kind: r.kind, storage }));
    }
    const { prefix, handler } = installAPIGroupVersion({ group: coreGroup, version: 'v1', storages, admission: newAdmissionChain([]) });
    server = createServer((raw, response) => {
      const { req, res } = adaptRequest(raw, response);
      req.info = resolveRequestInfo(req.method, req.path, req.query);
      if (!req.path.startsWith(`${prefix}/`)) {
        res.writeError(newNotFound({ group: '', resource: '' }, ''));
        return;
      }
      void handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (method: string, path: string, body: Buffer, contentType = PROTOBUF): Promise<Reply> =>
    new Promise((resolve, reject) => {
      // client-go's typed clients offer protobuf first; the server answers JSON, which client-go decodes by the response Content-Type.
      const headers = { 'content-type': contentType, 'content-length': String(body.length), accept: `${PROTOBUF}, application/json` };
      const r = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (resp) => {
        const chunks: Buffer[] = [];
        resp.on('data', (c: Buffer) => chunks.push(c));
        // An error is written in protobuf, the Accept's first choice (ErrorNegotiated), objects in JSON.
        resp.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const contentType = resp.headers['content-type'];
          const json = contentType === PROTOBUF ? decodeStatusProtobuf(bytes) : (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>);
          resolve({ status: resp.statusCode ?? 0, contentType, json });
        });
        resp.on('error', reject);
      });
      r.on('error', reject);
      r.end(body);
    });

  test('kubectl create namespace: 201 with the defaulted Namespace, answered in JSON', async () => {
    const r = await send('POST', '/api/v1/namespaces?fieldManager=kubectl-create&fieldValidation=Strict', captured('kubectl create namespace'));
    assert.equal(r.status, 201, JSON.stringify(r.json));
    assert.equal(r.contentType, 'application/json');
    const meta = r.json['metadata'] as Record<string, unknown>;
    assert.equal(meta['name'], 'typed-ns');
    assert.deepEqual(meta['labels'], { 'kubernetes.io/metadata.name': 'typed-ns' });
    assert.deepEqual(r.json['status'], { phase: 'Active' });
  });

  test('kubectl create service (cluster IP, node port, external name, headless, named target port): 201 each', async () => {
    await send('POST', '/api/v1/namespaces', namespaceBody({ name: 'default' }));
    for (const c of fixture.cases.filter((x) => x.command.includes('create service'))) {
      const r = await send('POST', `${c.path}?fieldManager=kubectl-create&fieldValidation=Strict`, Buffer.from(c.protobuf, 'hex'));
      assert.equal(r.status, 201, `${c.command}: ${JSON.stringify(r.json)}`);
      assert.equal(r.json['kind'], 'Service');
    }
    const lb = await send('POST', '/api/v1/namespaces/default/services', captured('kubectl create service loadbalancer'));
    assert.equal(lb.status, 409, 'the same name again is AlreadyExists, so the body was read as that Service');
  });

  test('update (PUT) with a protobuf body', async () => {
    const created = await send('POST', '/api/v1/namespaces', namespaceBody({ name: 'upd' }));
    const rv = String((created.json['metadata'] as Record<string, unknown>)['resourceVersion']);
    const r = await send('PUT', '/api/v1/namespaces/upd', namespaceBody({ name: 'upd', resourceVersion: rv, labels: { tier: 'gold' } }));
    assert.equal(r.status, 200, JSON.stringify(r.json));
    assert.equal(((r.json['metadata'] as Record<string, unknown>)['labels'] as Record<string, string>)['tier'], 'gold');
  });

  test('DELETE with protobuf DeleteOptions: its preconditions are enforced', async () => {
    const created = await send('POST', '/api/v1/namespaces', namespaceBody({ name: 'del' }));
    const uid = String((created.json['metadata'] as Record<string, unknown>)['uid']);
    const wrong = await send('DELETE', '/api/v1/namespaces/del', deleteOptionsBody('not-the-uid'));
    assert.equal(wrong.status, 409, JSON.stringify(wrong.json));
    assert.match(String(wrong.json['message']), /the UID in the precondition \(not-the-uid\) does not match the UID in record/);
    const right = await send('DELETE', '/api/v1/namespaces/del', deleteOptionsBody(uid));
    assert.equal(right.status, 200, JSON.stringify(right.json));
  });

  test("malformed protobuf is a 400 Status; a kind mismatch is the typed decoder's 400", async () => {
    const truncated = await send('POST', '/api/v1/namespaces', captured('kubectl create namespace').subarray(0, 20));
    assert.equal(truncated.status, 400);
    assert.equal(truncated.json['kind'], 'Status');
    assert.equal(truncated.json['reason'], 'BadRequest');
    assert.match(String(truncated.json['message']), /^the object provided is unrecognized \(must be of type Namespace\): unexpected EOF \(6b38/);
    const service = await send('POST', '/api/v1/namespaces', captured('kubectl create service clusterip web'));
    assert.equal(service.status, 400);
    assert.equal(service.json['message'], 'Service in version "v1" cannot be handled as a Namespace: converting (v1.Service) to (core.Namespace): unknown conversion');
    const json = await send('POST', '/api/v1/namespaces', Buffer.from('{"metadata":{"name":"x"}}'));
    assert.equal(json.status, 400, 'JSON sent as protobuf');
    assert.match(String(json.json['message']), /provided data does not appear to be a protobuf message, expected prefix \[107 56 115 0\]/);
  });

  test('the 415 of a core kind lists protobuf', async () => {
    const r = await send('POST', '/api/v1/namespaces', Buffer.from('x'), 'text/plain');
    assert.equal(r.status, 415);
    assert.equal(r.json['message'], 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  });
});
