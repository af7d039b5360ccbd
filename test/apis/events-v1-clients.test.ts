// events.k8s.io/v1 through real clients on SQLite and etcd (issue 16): the real kubectl
// (`get events.events.k8s.io` with kube's printEvent table, `get ev` still the core group's as
// kube's discovery order makes it, `kubectl events` unchanged) and @kubernetes/client-node's
// EventsV1Api (create, list with a field selector of events/v1).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, EventsV1Api, KubeConfig, type EventsV1Event } from '@kubernetes/client-node';
import { ok } from '../integration/assertions.js';
import { describeBackends } from '../integration/harness.js';
import { Kubectl, kubectlUnavailable, squashLines } from '../integration/kubectl.js';

const NS = 'ev1';

/** An events.k8s.io/v1 Event about ConfigMap `cm`, first seen `secondsAgo` ago. */
function newEvent(name: string, cm: string, reason: string, note: string, secondsAgo: number): Record<string, unknown> {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace: NS },
    eventTime: new Date(Date.now() - secondsAgo * 1000).toISOString(),
    reportingController: 'k8s.io/tester',
    reportingInstance: 'tester-1',
    action: 'Testing',
    reason,
    regarding: { apiVersion: 'v1', kind: 'ConfigMap', name: cm, namespace: NS },
    note,
    type: 'Normal',
  };
}

describe('events.k8s.io/v1 through kubectl and @kubernetes/client-node', () => {
  describeBackends('clients', (cp) => {
    let kc: KubeConfig;
    before(async () => {
      kc = new KubeConfig();
      kc.loadFromFile(cp().kubeconfigPath);
      await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: NS } } });
    });

    it('EventsV1Api: create, then list with regarding.name; CoreV1Api reads the same Event', async () => {
      const events = kc.makeApiClient(EventsV1Api);
      // The client's model holds eventTime as a Date, which its serializer writes as RFC 3339.
      const body: EventsV1Event = { ...newEvent('cn.1', 'cm-cn', 'Created', 'through client-node', 30), eventTime: new Date(Date.now() - 30_000) };
      const created = await events.createNamespacedEvent({ namespace: NS, body });
      // MicroTime as kube writes it back (client-node keeps the string it reads).
      assert.match(String(created.eventTime), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
      assert.equal(created.metadata?.name, 'cn.1');
      assert.equal(created.reportingController, 'k8s.io/tester');
      const listed = await events.listNamespacedEvent({ namespace: NS, fieldSelector: 'regarding.name=cm-cn' });
      assert.deepEqual(
        listed.items.map((e) => [e.metadata?.name, e.note, e.regarding?.kind]),
        [['cn.1', 'through client-node', 'ConfigMap']],
      );
      const core = await kc.makeApiClient(CoreV1Api).readNamespacedEvent({ namespace: NS, name: 'cn.1' });
      assert.equal(core.message, 'through client-node');
      assert.equal(core.involvedObject.name, 'cm-cn');
    });

    describe('kubectl', { skip: kubectlUnavailable() ?? false }, () => {
      let k: Kubectl;
      before(() => {
        k = new Kubectl(cp);
      });
      after(() => k.dispose());
      const run = async (args: string[], stdin?: string): Promise<string> => ok(await k.run(['-n', NS, ...args], stdin === undefined ? {} : { stdin }), cp());

      it('get events.events.k8s.io shows the printEvent table; get ev is core/v1; kubectl events lists both writers', async () => {
        assert.equal(await run(['create', '-f', '-'], JSON.stringify(newEvent('k.1', 'cm-k', 'Changed', 'through kubectl', 20))), 'event.events.k8s.io/k.1 created');
        const table = squashLines(await run(['get', 'events.events.k8s.io']));
        assert.equal(table[0], 'LAST SEEN TYPE REASON OBJECT MESSAGE');
        assert.ok(
          table.some((l) => /^\d+s Normal Changed configmap\/cm-k through kubectl$/.test(l)),
          table.join('\n'),
        );
        const wide = squashLines(await run(['get', 'events.events.k8s.io', '-o', 'wide']));
        assert.equal(wide[0], 'LAST SEEN TYPE REASON OBJECT SUBOBJECT SOURCE MESSAGE FIRST SEEN COUNT NAME');
        assert.ok(
          wide.some((l) => /^\d+s Normal Changed configmap\/cm-k k8s\.io\/tester, tester-1 through kubectl \d+s 1 k\.1$/.test(l)),
          wide.join('\n'),
        );
        // The short name resolves to the core group, first in kube's discovery order.
        const viaEv = JSON.parse(await run(['get', 'ev', 'k.1', '-o', 'json'])) as { apiVersion: string; message: string };
        assert.equal(viaEv.apiVersion, 'v1');
        assert.equal(viaEv.message, 'through kubectl');
        const viaGroup = JSON.parse(await run(['get', 'events.v1.events.k8s.io', 'k.1', '-o', 'json'])) as { apiVersion: string; note: string };
        assert.equal(viaGroup.apiVersion, 'events.k8s.io/v1');
        assert.equal(viaGroup.note, 'through kubectl');
        const forCm = squashLines(await run(['events', '--for', 'configmap/cm-k']));
        assert.equal(forCm[0], 'LAST SEEN TYPE REASON OBJECT MESSAGE');
        assert.match(forCm[1] ?? '', /^\d+s Normal Changed ConfigMap\/cm-k through kubectl$/);
        assert.equal(await run(['delete', 'events.events.k8s.io', 'k.1']), 'event.events.k8s.io "k.1" deleted');
        assert.equal(await run(['get', 'ev', '--field-selector', 'metadata.name=k.1', '-o', 'name']), '');
      });
    });
  });
});
