// --watch-cache-sizes applies to custom resources as to built-in ones: kube's apiextensions server
// gets each CRD's storage from the same REST options getter (SimpleRestOptionsFactory), which reads
// the resource's entry (resource.group#size): 0 serves it from storage, a size turns the cache on
// and logs kube's `Dropping watch-cache-size for … - watchCache size is now dynamic`.
//
// What tells them apart through the API (as in events-watch-cache.test.ts): a watch from a
// resourceVersion older than the cache's start gets the cache's 410, while storage replays from it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitServed } from '../apiextensions/env.js';
import { backends, ControlPlane, etcdUnavailable } from './harness.js';
import { HttpsClient } from './https.js';

const GROUP = 'wcs.example.com';

function crd(plural: string, kind: string): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

for (const backend of backends) {
  const skip = backend === 'etcd3' ? etcdUnavailable() : undefined;
  describe(`--watch-cache-sizes names custom resources on ${backend}`, { skip: skip ?? false }, () => {
    let cp: ControlPlane;
    let c: HttpsClient;
    /** A resourceVersion from before either CRD was served, so before any cache of theirs started. */
    let old: string;
    before(async () => {
      cp = await ControlPlane.start({ backend, extraArgs: [`--watch-cache-sizes=widgets.${GROUP}#0,gadgets.${GROUP}#50`] });
      c = new HttpsClient(cp.credentials);
      const cm = await c.json('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'before-crds' } });
      assert.equal(cm.status, 201);
      old = (cm.body['metadata'] as { resourceVersion: string }).resourceVersion;
      for (const [plural, kind] of [
        ['widgets', 'Widget'],
        ['gadgets', 'Gadget'],
      ] as const) {
        assert.equal((await c.json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd(plural, kind))).status, 201);
      }
      // Until the CRD is served its path is the chain's plain-text 404, so poll the raw answer.
      for (const plural of ['widgets', 'gadgets']) await waitServed(c, `/apis/${GROUP}/v1/namespaces/default/${plural}`);
    });
    after(async () => {
      c?.close();
      await cp?.stop();
    });

    it('size 0: served from storage, which replays a watch from before the CRD', async () => {
      const w = await c.watch(`/apis/${GROUP}/v1/namespaces/default/widgets?watch=true&resourceVersion=${old}`);
      try {
        assert.equal(w.status, 200);
        assert.equal((await c.json('POST', `/apis/${GROUP}/v1/namespaces/default/widgets`, { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: 'w' } })).status, 201);
        const events = await w.until((evs) => evs.some((e) => e.type === 'ERROR' || e.type === 'ADDED'));
        assert.deepEqual(
          events.map((e) => [e.type, (e.object['metadata'] as { name?: string } | undefined)?.name]),
          [['ADDED', 'w']],
        );
      } finally {
        w.close();
      }
    });

    it("a size: served from a watch cache, whose 410 answers a watch from before it started; kube's warning is logged", async () => {
      const w = await c.watch(`/apis/${GROUP}/v1/namespaces/default/gadgets?watch=true&resourceVersion=${old}`);
      try {
        assert.equal(w.status, 200);
        const events = await w.until((evs) => evs.length > 0);
        assert.equal(events[0]?.type, 'ERROR', JSON.stringify(events));
        assert.equal(events[0]?.object['code'], 410);
        assert.equal(events[0]?.object['reason'], 'Expired');
      } finally {
        w.close();
      }
      assert.match(cp.log(), new RegExp(`Dropping watch-cache-size for gadgets\\.${GROUP.replace(/\./g, '\\.')} - watchCache size is now dynamic`));
      assert.doesNotMatch(cp.log(), /Dropping watch-cache-size for widgets/);
    });
  });
}
