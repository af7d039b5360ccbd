// Issue 16: --event-ttl applies to Events whichever API wrote them, on SQLite and etcd: kube's
// events.k8s.io storage is the core Events' (cohabitating resources) and gives each write the
// same time to live. An Event created through events.k8s.io/v1 expires, and a watch of core/v1
// sees it go as DELETED. Polled: only the outcome is asserted.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { eventually } from '../integration/assertions.js';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';

describeBackends(
  'events.k8s.io/v1 with --event-ttl=2s',
  (cp) => {
    let c: HttpsClient;
    before(() => {
      c = new HttpsClient(cp().credentials);
    });
    after(() => c.close());

    it('an Event written through events.k8s.io/v1 expires from both APIs; core/v1 watchers see it deleted', async () => {
      const watch = await c.watch('/api/v1/namespaces/default/events?watch=true&fieldSelector=metadata.name%3Dshort-lived');
      const created = await c.json('POST', '/apis/events.k8s.io/v1/namespaces/default/events', {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'short-lived' },
        eventTime: '2024-05-01T10:00:00.000000Z',
        reportingController: 'k8s.io/tester',
        reportingInstance: 'tester-1',
        action: 'Testing',
        reason: 'Expiring',
        regarding: { kind: 'Node', name: 'n1' },
        type: 'Normal',
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await eventually('the Event to expire', async () => (await c.json('GET', '/apis/events.k8s.io/v1/namespaces/default/events/short-lived')).status === 404, 60_000);
      assert.equal((await c.json('GET', '/api/v1/namespaces/default/events/short-lived')).status, 404);
      const events = await watch.until((es) => es.some((e) => e.type === 'DELETED'));
      assert.deepEqual(
        events.map((e) => e.type),
        ['ADDED', 'DELETED'],
      );
      watch.close();
    });
  },
  { extraArgs: ['--event-ttl', '2s'] },
);
