// The typed Kubernetes clients (generated/kubernetes) read every kind kube 1.32 serialized
// (test/fixtures/kube-1.32/objects, k8s.io/api's testdata/HEAD: every field filled) from the
// replay server: get, list and watch decode the recorded JSON with nothing dropped or renamed,
// and the requests are client-go's (typed clients of k8s.io/client-go/kubernetes/typed/...:
// the path, the list and watch query parameters, no body). Ports the wire half of
// k8s.io/api's TestCompatibility: the bytes a 1.32 server writes are what the client hands out.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recordedObjects, servedResources } from './recorded.js';
import { clientGoPath, replayKubernetes, typedClient, type Obj } from './typed-clients.js';
import { restClientForConfig } from '../../../runtime/client/rest/index.js';

const recorded = recordedObjects(servedResources());
const NS = 'namespaceValue';
const NAME = 'nameValue';

const replay = replayKubernetes();

describe('recorded objects of every kind the Kubernetes clients cover', () => {
  it('covers at least one kind of every group version of generated/kubernetes', () => {
    const groupVersions = new Set(recorded.map((r) => `${r.resource.group}/${r.resource.version}`));
    for (const gv of [
      '/v1',
      'apps/v1',
      'batch/v1',
      'autoscaling/v1',
      'autoscaling/v2',
      'networking.k8s.io/v1',
      'policy/v1',
      'discovery.k8s.io/v1',
      'storage.k8s.io/v1',
      'scheduling.k8s.io/v1',
      'node.k8s.io/v1',
      'certificates.k8s.io/v1',
      'admissionregistration.k8s.io/v1',
      'rbac.authorization.k8s.io/v1',
      'coordination.k8s.io/v1',
      'events.k8s.io/v1',
    ]) {
      assert.ok(groupVersions.has(gv), gv);
    }
    assert.equal(recorded.length, 49);
  });

  it('a verb discovery does not list is not routed (componentstatuses: get and list only; bindings: create only)', async () => {
    const rest = restClientForConfig({ host: replay.server.url, maxRetries: 0 });
    await assert.rejects(rest.watch({ path: '/api/v1/componentstatuses', query: { watch: true } }), (e: Error & { status?: { code?: number } }) => e.status?.code === 405);
    await assert.rejects(rest.request({ method: 'GET', path: `/api/v1/namespaces/${NS}/bindings/${NAME}` }), (e: Error & { status?: { code?: number } }) => e.status?.code === 405);
  });

  for (const rec of recorded) {
    const r = rec.resource;
    const label = `${r.group || 'core'}/${r.version} ${r.kind}`;
    describe(label, () => {
      if (r.verbs.includes('get'))
        it('get decodes the recorded object whole, from client-go’s path', async () => {
          const got = await typedClient(replay.k8s, r, NS).get(NAME);
          assert.deepEqual(got, rec.object);
          const req = replay.server.requests.at(-1)!;
          assert.equal(req.method, 'GET');
          assert.equal(req.path, clientGoPath(r, NS, NAME));
          assert.equal([...req.query].length, 0);
          assert.equal(req.body, '');
          assert.equal(req.headers['content-type'], undefined);
          // client-go's typed clients send `Accept: application/json, */*`; this client sends application/json alone.
          assert.match(req.headers.accept ?? '', /^application\/json\b/);
          // client-go's default User-Agent shape: `<program>/<version> (<os>/<arch>) <client>/<commit>`.
          assert.match(req.headers['user-agent'] ?? '', /^\S+\/\S+ \(\w+\/\w+\) \S+$/);
        });

      // kube-apiserver leaves kind and apiVersion out of a typed list's items; client-go's decoder leaves
      // them empty, this client fills in the list's (runtime/client/rest/decode.ts), so an item is the
      // recorded object exactly, as from a get or a watch.
      if (r.verbs.includes('list'))
        it('list decodes a <Kind>List whose items are the recorded object', async () => {
          const list = await typedClient(replay.k8s, r, NS).list({ labelSelector: 'labelsKey=labelsValue', limit: 500 });
          assert.equal(list.kind, `${r.kind}List`);
          assert.equal(list.apiVersion, r.group === '' ? 'v1' : `${r.group}/${r.version}`);
          assert.match(list.metadata?.resourceVersion ?? '', /^\d+$/);
          assert.deepEqual(list.items, [rec.object]);
          const req = replay.server.requests.at(-1)!;
          assert.equal(req.path, clientGoPath(r, NS));
          assert.deepEqual(Object.fromEntries(req.query), { labelSelector: 'labelsKey=labelsValue', limit: '500' });
        });

      if (r.verbs.includes('watch'))
        it('watch decodes the ADDED event of the recorded object and a bookmark', async () => {
          const w = await typedClient(replay.k8s, r, NS).watch({ allowWatchBookmarks: true, timeoutSeconds: 30 });
          const events: { type: string; object: Obj }[] = [];
          for await (const e of w) {
            events.push(e as { type: string; object: Obj });
            if (events.length === 2) break;
          }
          w.stop();
          assert.equal(events[0]!.type, 'ADDED');
          assert.deepEqual(events[0]!.object, rec.object);
          assert.equal(events[1]!.type, 'BOOKMARK');
          assert.equal(events[1]!.object.kind, r.kind);
          assert.match(events[1]!.object.metadata?.resourceVersion ?? '', /^\d+$/);
          const req = replay.server.requests.at(-1)!;
          assert.equal(req.path, clientGoPath(r, NS));
          assert.deepEqual(Object.fromEntries(req.query), { allowWatchBookmarks: 'true', timeoutSeconds: '30', watch: 'true' });
        });
    });
  }
});
