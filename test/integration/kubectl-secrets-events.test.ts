// Issue 16's acceptance through the real kubectl on SQLite and etcd: Secrets (`create secret
// generic`, which client-go sends as protobuf; base64 data in `-o yaml`; NAME TYPE DATA AGE),
// ConfigMaps with `--dry-run=server`, Events (`get events`, `get ev --sort-by`, `kubectl events`
// with `--for`, and `describe` showing the Events of the object they name), and Leases.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fails, ok } from './assertions.js';
import { describeBackends } from './harness.js';
import { Kubectl, kubectlUnavailable, squashLines } from './kubectl.js';

const NS = 'se';

/** An Event of an old client (no eventTime) about a ConfigMap, last seen `secondsAgo` ago. */
function event(name: string, cm: { name: string; uid: string }, reason: string, message: string, secondsAgo: number): string {
  const at = new Date(Date.now() - secondsAgo * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: NS },
    involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: cm.name, namespace: NS, uid: cm.uid },
    reason,
    message,
    type: 'Normal',
    source: { component: 'tester' },
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
  });
}

describe('Secrets, ConfigMaps and Events through kubectl', { skip: kubectlUnavailable() ?? false }, () => {
  describeBackends('kubectl', (cp) => {
    let kc: Kubectl;
    before(async () => {
      kc = new Kubectl(cp);
      ok(await kc.createNamespace(NS), cp());
    });
    after(() => kc.dispose());
    const run = async (args: string[], stdin?: string): Promise<string> => ok(await kc.run(['-n', NS, ...args], stdin === undefined ? {} : { stdin }), cp());

    it('create secret generic --from-literal; get -o yaml shows base64 data; the table is NAME TYPE DATA AGE', async () => {
      assert.equal(await run(['create', 'secret', 'generic', 's1', '--from-literal=password=hunter2', '--from-literal=user=admin']), 'secret/s1 created');
      const yaml = await run(['get', 'secret', 's1', '-o', 'yaml']);
      assert.match(yaml, /^ {2}password: aHVudGVyMg==$/m);
      assert.match(yaml, /^type: Opaque$/m);
      assert.doesNotMatch(yaml, /stringData|hunter2/);
      const table = squashLines(await run(['get', 'secrets']));
      assert.equal(table[0], 'NAME TYPE DATA AGE');
      assert.match(table.find((l) => l.startsWith('s1 ')) ?? '', /^s1 Opaque 2 \d+s$/);
      assert.equal(await run(['get', 'secrets', '--field-selector', 'type=Opaque', '-o', 'name']), 'secret/s1');
    });

    it('apply (client-side, then server-side) of a Secret with stringData: merged into data, never returned', async () => {
      const secret = (v: string) => JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's2', namespace: NS }, stringData: { token: v } });
      assert.equal(await run(['apply', '-f', '-'], secret('one')), 'secret/s2 created');
      assert.equal(await run(['apply', '-f', '-'], secret('two')), 'secret/s2 configured');
      assert.equal(await run(['get', 'secret', 's2', '-o', 'jsonpath={.data.token}']), Buffer.from('two').toString('base64'));
      assert.equal(await run(['apply', '--server-side', '-f', '-'], secret('three')), 'secret/s2 serverside-applied');
      const got = JSON.parse(await run(['get', 'secret', 's2', '-o', 'json'])) as { data?: Record<string, string>; stringData?: unknown };
      assert.equal(got.data?.['token'], Buffer.from('three').toString('base64'));
      assert.equal(got.stringData, undefined);
    });

    it('create configmap --from-literal with --dry-run=server stores nothing', async () => {
      assert.equal(await run(['create', 'configmap', 'dry', '--from-literal=a=b', '--dry-run=server']), 'configmap/dry created (server dry run)');
      fails(await kc.run(['-n', NS, 'get', 'configmap', 'dry']), 'Error from server (NotFound): configmaps "dry" not found');
    });

    it('get events, get ev --sort-by=.lastTimestamp, kubectl events --for, describe configmap with its events', async () => {
      assert.equal(await run(['create', 'configmap', 'x', '--from-literal=a=b']), 'configmap/x created');
      const cm = { name: 'x', uid: await run(['get', 'configmap', 'x', '-o', 'jsonpath={.metadata.uid}']) };
      await run(['create', '-f', '-'], event('x.older', cm, 'Created', 'made it', 120));
      await run(['create', '-f', '-'], event('x.newer', cm, 'Changed', 'changed it', 10));
      await run(['create', '-f', '-'], event('other.1', { name: 'other', uid: 'u-other' }, 'Created', 'not about x', 60));

      const events = squashLines(await run(['get', 'events']));
      // kube's table: NAME is the last column and wide only.
      assert.equal(events[0], 'LAST SEEN TYPE REASON OBJECT MESSAGE');
      assert.ok(
        events.some((l) => /^1\ds Normal Changed configmap\/x changed it$/.test(l)),
        events.join('\n'),
      );
      const wide = squashLines(await run(['get', 'events', '-o', 'wide']));
      assert.equal(wide[0], 'LAST SEEN TYPE REASON OBJECT SUBOBJECT SOURCE MESSAGE FIRST SEEN COUNT NAME');

      const sorted = squashLines(await run(['get', 'ev', '--sort-by=.lastTimestamp', '-o', 'custom-columns=NAME:.metadata.name', '--no-headers']));
      assert.deepEqual(sorted, ['x.older', 'other.1', 'x.newer']);

      const forX = squashLines(await run(['events', '--for', 'configmap/x']));
      assert.equal(forX[0], 'LAST SEEN TYPE REASON OBJECT MESSAGE');
      assert.equal(forX.length, 3, forX.join('\n'));
      assert.match(forX[1] ?? '', /^2m\d*s? Normal Created ConfigMap\/x made it$/);
      assert.match(forX[2] ?? '', /^1\ds Normal Changed ConfigMap\/x changed it$/);

      const describe = await run(['describe', 'configmap', 'x']);
      const section = squashLines(describe.slice(describe.indexOf('Events:')));
      assert.equal(section[1], 'Type Reason Age From Message');
      assert.ok(
        section.some((l) => /^Normal Changed 1\ds tester changed it$/.test(l)),
        section.join('\n'),
      );
      assert.ok(!section.some((l) => l.includes('not about x')));
    });

    it('leases: coordination.k8s.io/v1 is served (apply, get with NAME HOLDER AGE)', async () => {
      const lease = {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'l1', namespace: NS },
        spec: { holderIdentity: 'me', leaseDurationSeconds: 15, renewTime: '2024-05-01T10:00:00Z' },
      };
      assert.equal(await run(['apply', '-f', '-'], JSON.stringify(lease)), 'lease.coordination.k8s.io/l1 created');
      const table = squashLines(await run(['get', 'leases']));
      assert.equal(table[0], 'NAME HOLDER AGE');
      assert.match(table[1] ?? '', /^l1 me \d+s$/);
      assert.equal(await run(['get', 'lease', 'l1', '-o', 'jsonpath={.spec.renewTime}']), '2024-05-01T10:00:00.000000Z');
    });
  });
});
