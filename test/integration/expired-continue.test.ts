// Issue 12: a continue token whose revision was compacted is answered as kube-apiserver does:
// 410 Expired with the inconsistent-continuation message and, in Status.metadata.continue, a
// fresh token that continues the list at the latest revision. Against the control plane
// command on SQLite and etcd with kube's --etcd-compaction-interval=1s.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { until } from './assertions.js';
import { describeBackends } from './harness.js';
import { HttpsClient } from './https.js';
import { flunderV1beta1, uniqueName } from './objects.js';

const inconsistentContinue =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

interface ListBody {
  metadata?: { continue?: string; resourceVersion?: string };
  items?: Array<{ metadata: { name: string } }>;
}

describeBackends(
  'expired continue token',
  (cp) => {
    let c: HttpsClient;
    let ns: string;
    let path: string;
    before(async () => {
      c = new HttpsClient(cp().credentials);
      ns = uniqueName('continue');
      const r = await c.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      path = `/apis/wardle.example.com/v1beta1/namespaces/${ns}/flunders`;
    });
    after(() => c.close());

    const create = async (name: string): Promise<void> => {
      const r = await c.json('POST', path, flunderV1beta1.manifest(name, ns));
      assert.equal(r.status, 201, JSON.stringify(r.body));
    };

    it('410 Expired carries metadata.continue, which lists the remainder at the latest revision', async () => {
      for (const n of ['a', 'b', 'c']) await create(n);
      const first = await c.json('GET', `${path}?limit=1`);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const page = first.body as ListBody;
      assert.deepEqual(
        page.items?.map((i) => i.metadata.name),
        ['a'],
      );
      const token = page.metadata?.continue ?? '';
      assert.notEqual(token, '');

      // Writes after the first page; compaction (every second) then passes the token's revision.
      let written = 0;
      const expired = await until(
        'the continue token to expire',
        async () => {
          await create(`d${written++}`);
          const r = await c.json('GET', `${path}?limit=1&continue=${encodeURIComponent(token)}`);
          if (r.status === 200) return undefined;
          return r;
        },
        60_000,
      );
      assert.equal(expired.status, 410, JSON.stringify(expired.body));
      assert.deepEqual(
        {
          kind: expired.body['kind'],
          apiVersion: expired.body['apiVersion'],
          status: expired.body['status'],
          code: expired.body['code'],
          reason: expired.body['reason'],
          message: expired.body['message'],
        },
        { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 410, reason: 'Expired', message: inconsistentContinue },
      );
      const fresh = (expired.body['metadata'] as { continue?: string } | undefined)?.continue ?? '';
      assert.notEqual(fresh, '', `no metadata.continue in ${JSON.stringify(expired.body)}`);
      // kube's token: the same start key at resourceVersion -1 (continue at the latest revision).
      const decoded = JSON.parse(Buffer.from(fresh, 'base64url').toString('utf8')) as { v: string; rv: number; start: string };
      assert.equal(decoded.v, 'meta.k8s.io/v1');
      assert.equal(decoded.rv, -1);

      // The fresh token pages through the remainder, including objects written after the first page.
      const names: string[] = [];
      let cont = fresh;
      while (cont !== '') {
        const r = await c.json('GET', `${path}?limit=2&continue=${encodeURIComponent(cont)}`);
        assert.equal(r.status, 200, JSON.stringify(r.body));
        const b = r.body as ListBody;
        names.push(...(b.items ?? []).map((i) => i.metadata.name));
        cont = b.metadata?.continue ?? '';
      }
      const expected = ['b', 'c', ...Array.from({ length: written }, (_, i) => `d${i}`)].sort();
      assert.deepEqual(names, expected);
    });
  },
  { extraArgs: ['--etcd-compaction-interval=1s'] },
);
