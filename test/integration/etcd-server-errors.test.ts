// A write that etcd's server refuses is answered as kube-apiserver answers it: the registry passes
// etcd's error through and the client gets a 500 with an empty reason, etcd's text as the message
// and no Retry-After (client-go sends again only a 5xx that carries one, and a write whose
// outcome etcd did not promise must not be sent again). The error is real: this test's etcd runs
// with a small --max-request-bytes, so an object above it gets "etcdserver: request is too large";
// one above the 2 MiB that etcd's Go client sends at most is refused by the client itself.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEtcd, type EtcdCluster } from '../storage/etcdServer.js';
import { ControlPlane, etcdUnavailable } from './harness.js';
import { HttpsClient, type RawResponse } from './https.js';
import { uniqueName } from './objects.js';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const EVENTS = '/api/v1/namespaces/default/events';
/** etcd's limit for one request in this test: far above any object the control plane writes itself. */
const MAX_REQUEST_BYTES = 256 * 1024;

function configMap(name: string, bytes: number): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { big: 'x'.repeat(bytes) } });
}

/** kube's body for an error that is not an API status (ErrorToAPIStatus): no reason, no details. */
function assertEtcdErrorStatus(r: RawResponse, text: string): void {
  assert.equal(r.status, 500, r.text.slice(0, 500));
  assert.deepEqual(JSON.parse(r.text), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: text, code: 500 });
  assert.equal(r.headers['retry-after'], undefined, 'no Retry-After: the client must not send the write again');
}

describe('etcd server errors on writes, through the API', { skip: etcdUnavailable() ?? false, timeout: 300_000 }, () => {
  let etcd: EtcdCluster;
  let cp: ControlPlane;
  let c: HttpsClient;
  before(async () => {
    etcd = await startEtcd(1, [`--max-request-bytes=${MAX_REQUEST_BYTES}`]);
    cp = await ControlPlane.start({ backend: 'etcd3', etcd });
    c = new HttpsClient(cp.credentials);
  });
  after(async () => {
    c?.close();
    await cp?.stop();
    await etcd?.close();
  });

  const send = (method: string, path: string, body: string): Promise<RawResponse> => c.request({ method, path, headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body });

  it('a create above etcd --max-request-bytes: 500 "etcdserver: request is too large", nothing stored', async () => {
    const name = uniqueName('too-large');
    assertEtcdErrorStatus(await send('POST', CONFIGMAPS, configMap(name, MAX_REQUEST_BYTES + 64 * 1024)), 'etcdserver: request is too large');
    assert.equal((await c.request({ path: `${CONFIGMAPS}/${name}` })).status, 404);
  });

  it('an update and a patch above it: the same 500, the stored object unchanged', async () => {
    const name = uniqueName('grow');
    const created = await send('POST', CONFIGMAPS, configMap(name, 16));
    assert.equal(created.status, 201, created.text);
    const rv = (JSON.parse(created.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;

    assertEtcdErrorStatus(await send('PUT', `${CONFIGMAPS}/${name}`, configMap(name, MAX_REQUEST_BYTES + 64 * 1024)), 'etcdserver: request is too large');
    const patch = await c.request({
      method: 'PATCH',
      path: `${CONFIGMAPS}/${name}`,
      headers: { 'Content-Type': 'application/merge-patch+json', Accept: 'application/json' },
      body: JSON.stringify({ data: { big: 'y'.repeat(MAX_REQUEST_BYTES + 64 * 1024) } }),
    });
    assertEtcdErrorStatus(patch, 'etcdserver: request is too large');

    const got = await c.request({ path: `${CONFIGMAPS}/${name}` });
    assert.equal(got.status, 200);
    assert.equal((JSON.parse(got.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion, rv);
  });

  it("a create above the client's 2 MiB send limit (under the 3 MiB body limit): refused before it is sent, with grpc-go's text", async () => {
    // An Event: a core/v1 Event's message has no length limit (a ConfigMap stops at 1 MiB).
    const name = uniqueName('over-send-limit');
    const event = { apiVersion: 'v1', kind: 'Event', metadata: { name }, involvedObject: { kind: 'ConfigMap', namespace: 'default', name }, reason: 'Big', message: 'x'.repeat(2.2 * 1024 * 1024) };
    const r = await send('POST', EVENTS, JSON.stringify(event));
    const message = (JSON.parse(r.text) as { message: string }).message;
    const size = /^rpc error: code = ResourceExhausted desc = trying to send message larger than max \((\d+) vs\. 2097152\)$/.exec(message)?.[1];
    assert.ok(size !== undefined && Number(size) > 2.2 * 1024 * 1024, message);
    assertEtcdErrorStatus(r, message);
    assert.equal((await c.request({ path: `${EVENTS}/${name}` })).status, 404);
  });
});
