// Writes that change nothing but managedFields times are no-ops: same resourceVersion, nothing
// stored. Ported from kubernetes test/integration/apiserver/apply/apply_test.go
// (TestNoOpUpdateSameResourceVersion, TestNoSemanticUpdatePutSameResourceVersion,
// TestNoSemanticUpdateApplySameResourceVersion, TestNoopChangeCreationTime) with ConfigMaps in
// place of Pods and StatefulSets; the pause makes the second write's time differ from the first.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, it } from 'node:test';
import { describeBackends } from '../../integration/harness.js';
import { HttpsClient } from '../../integration/https.js';

type Obj = Record<string, unknown>;
const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };
const CMS = '/api/v1/namespaces/default/configmaps';

const rv = (o: Obj): unknown => (o['metadata'] as Obj)['resourceVersion'];

describeBackends(
  'no-op writes keep the resourceVersion',
  (cp) => {
    let c: HttpsClient;
    before(() => {
      c = new HttpsClient(cp().credentials);
    });
    const body = (name: string): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { a: 'one', c: 'two', b: 'three' } }, data: { key: 'value' } });

    it('TestNoOpUpdateSameResourceVersion: a PUT of the object as read changes nothing', async () => {
      const created = await c.json('PATCH', `${CMS}/noop-put?fieldManager=apply_test`, JSON.stringify(body('noop-put')), APPLY);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await sleep(1100);
      const read = await c.json('GET', `${CMS}/noop-put`);
      const put = await c.json('PUT', `${CMS}/noop-put`, read.body);
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.equal(rv(put.body), rv(read.body));
    });

    it('TestNoSemanticUpdatePutSameResourceVersion: a POST then a PUT of the same body by the same manager', async () => {
      const created = await c.json('POST', `${CMS}?fieldManager=apply_test`, body('noop-post-put'));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await sleep(1100);
      const put = await c.json('PUT', `${CMS}/noop-post-put?fieldManager=apply_test`, body('noop-post-put'));
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.equal(rv(put.body), rv(created.body));
      assert.deepEqual((put.body['metadata'] as Obj)['managedFields'], (created.body['metadata'] as Obj)['managedFields']);
    });

    it('TestNoSemanticUpdateApplySameResourceVersion / TestNoopChangeCreationTime: the same apply twice answers the same object', async () => {
      const manifest = JSON.stringify({ ...body('noop-apply'), metadata: { name: 'noop-apply', creationTimestamp: null, resourceVersion: null, labels: { a: 'one' } } });
      const first = await c.json('PATCH', `${CMS}/noop-apply?fieldManager=apply_test`, manifest, APPLY);
      assert.equal(first.status, 201, JSON.stringify(first.body));
      await sleep(1100);
      const second = await c.json('PATCH', `${CMS}/noop-apply?fieldManager=apply_test`, manifest, APPLY);
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.deepEqual(second.body, first.body);
    });
  },
  { only: ['sqlite'] },
);
