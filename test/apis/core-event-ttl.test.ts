// Issue 16's acceptance: Events expire after --event-ttl (kube's flag; the storage gives every
// create and update of an Event that time to live: an etcd lease on etcd, an expiry the SQLite
// backend sweeps), so they do not pile up; a watch sees the expiry as DELETED, and other kinds
// (a ConfigMap written at the same time) stay. Polled: only the outcome is asserted.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { eventually, ok } from '../integration/assertions.js';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { Kubectl, kubectlUnavailable } from '../integration/kubectl.js';

describeBackends(
  '--event-ttl=2s',
  (cp) => {
    let c: HttpsClient;
    before(() => {
      c = new HttpsClient(cp().credentials);
    });
    after(() => c.close());

    it('an Event disappears from the API after its TTL; a ConfigMap does not', async () => {
      const watch = await c.watch('/api/v1/namespaces/default/events?watch=true');
      const ev = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'short-lived' },
        involvedObject: { kind: 'ConfigMap', name: 'ttl-cm', namespace: 'default' },
        reason: 'Testing',
        message: 'expires',
        type: 'Normal',
      };
      const created = await c.json('POST', '/api/v1/namespaces/default/events', ev);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const cm = await c.json('POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ttl-cm' }, data: { a: 'b' } });
      assert.equal(cm.status, 201, JSON.stringify(cm.body));
      // An update renews the TTL as kube's does: the Event is still there right after it.
      const updated = await c.json('PUT', '/api/v1/namespaces/default/events/short-lived', { ...created.body, count: 2 });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      await eventually('the Event to expire', async () => (await c.json('GET', '/api/v1/namespaces/default/events/short-lived')).status === 404, 60_000);
      const events = await watch.until((es) => es.some((e) => e.type === 'DELETED'));
      assert.ok(events.some((e) => e.type === 'ADDED'));
      watch.close();
      assert.equal((await c.json('GET', '/api/v1/namespaces/default/configmaps/ttl-cm')).status, 200);
    });

    it(
      'through kubectl: `get events` lists an Event (about a cluster-scoped object: in default, as kube requires), then no longer once --event-ttl passed',
      { skip: kubectlUnavailable() ?? false },
      async () => {
        const kc = new Kubectl(cp);
        try {
          const ev = {
            apiVersion: 'v1',
            kind: 'Event',
            metadata: { name: 'kubectl-ttl', namespace: 'default' },
            involvedObject: { kind: 'Namespace', name: 'kube-public' },
            reason: 'Testing',
            message: 'expires soon',
            type: 'Normal',
          };
          ok(await kc.run(['create', '-f', '-'], { stdin: JSON.stringify(ev) }), cp());
          assert.match(ok(await kc.run(['get', 'events', '-n', 'default']), cp()), /Normal\s+Testing\s+namespace\/kube-public\s+expires soon/);
          await eventually(
            'kubectl to list no Event',
            async () => {
              const r = await kc.run(['get', 'events', '-n', 'default']);
              return r.code === 0 && /No resources found in default namespace\./.test(r.stderr) && r.stdout === '';
            },
            60_000,
          );
        } finally {
          kc.dispose();
        }
      },
    );
  },
  { extraArgs: ['--event-ttl', '2s'] },
);
