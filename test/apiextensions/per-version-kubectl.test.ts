// A multi-version CRD served per version as kube serves it (getOrCreateServingInfo builds one
// storage per version): subresources, schema (validation, defaulting), printer columns,
// selectable fields and discovery of the version the request names. Through the real kubectl and HTTP,
// against the control plane command on SQLite and etcd. Also `kubectl get crd`: kube's
// default table, CREATED AT as an RFC 3339 time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ok, until } from '../integration/assertions.js';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { Kubectl, kubectlUnavailable, squashLines } from '../integration/kubectl.js';

const GROUP = 'per.example.com';
const BASE = `/apis/${GROUP}`;

/** v1 (storage): status and scale, replicas at most 5, any color. v2: no subresources, any replicas, color an enum with a default. */
const WIDGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { replicas: { type: 'integer', maximum: 5 }, color: { type: 'string' } } },
              status: { type: 'object', properties: { replicas: { type: 'integer' } } },
            },
          },
        },
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        additionalPrinterColumns: [{ name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' }],
      },
      {
        name: 'v2',
        served: true,
        storage: false,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { replicas: { type: 'integer' }, color: { type: 'string', enum: ['red', 'blue'], default: 'red' } } },
              status: { type: 'object', properties: { replicas: { type: 'integer' } } },
            },
          },
        },
        additionalPrinterColumns: [{ name: 'Color', type: 'string', jsonPath: '.spec.color' }],
        selectableFields: [{ jsonPath: '.spec.color' }],
      },
    ],
  },
};

const widget = (version: string, name: string, spec: Record<string, unknown>): string => JSON.stringify({ apiVersion: `${GROUP}/${version}`, kind: 'Widget', metadata: { name }, spec });

interface DiscoveryResource {
  resource: string;
  subresources?: Array<{ subresource: string }>;
}
interface AggregatedList {
  items: Array<{ metadata: { name: string }; versions: Array<{ version: string; resources: DiscoveryResource[] }> }>;
}

describe('a CRD served per version, through kubectl', { skip: kubectlUnavailable() ?? false }, () => {
  describeBackends('per-version CRD', (cp) => {
    let kc: Kubectl;
    let https: HttpsClient;
    before(async () => {
      kc = new Kubectl(cp);
      https = new HttpsClient(cp().credentials);
      ok(await kc.run(['apply', '-f', '-'], { stdin: JSON.stringify(WIDGET_CRD) }), cp());
      ok(await kc.run(['wait', '--for=condition=Established', `crd/widgets.${GROUP}`, '--timeout=30s']), cp());
      await until('both versions served', async () => {
        for (const v of ['v1', 'v2']) if ((await https.request({ path: `${BASE}/${v}/namespaces/default/widgets` })).status !== 200) return undefined;
        return true;
      });
    });
    after(() => {
      https.close();
      kc.dispose();
    });

    it("an object created through v2 (replicas beyond v1's maximum) can be labelled and patched through v2", async () => {
      ok(await kc.run(['create', '-f', '-'], { stdin: widget('v2', 'w2', { replicas: 20 }) }), cp());
      ok(await kc.run(['label', `widgets.v2.${GROUP}`, 'w2', 'tier=gold']), cp());
      ok(await kc.run(['patch', `widgets.v2.${GROUP}`, 'w2', '--type=merge', '-p', '{"spec":{"replicas":21}}']), cp());
      const got = JSON.parse(ok(await kc.run(['get', `widgets.v2.${GROUP}`, 'w2', '-o', 'json']), cp())) as { metadata: { labels: Record<string, string> }; spec: Record<string, unknown> };
      assert.deepEqual(got.metadata.labels, { tier: 'gold' });
      // v2's default, applied on create through v2.
      assert.deepEqual(got.spec, { replicas: 21, color: 'red' });
    });

    it("v1 validates with v1's schema: a replica count v1 forbids is 422 there", async () => {
      const r = await kc.run(['patch', `widgets.v1.${GROUP}`, 'w2', '--type=merge', '-p', '{"spec":{"replicas":22}}']);
      assert.equal(r.code, 1);
      assert.equal(r.stderr.trim(), `The Widget "w2" is invalid: spec.replicas: Invalid value: 22: spec.replicas in body should be less than or equal to 5`);
    });

    it("v2 validates with v2's schema: a color outside v2's enum is 422 through v2, a color v1 allows", async () => {
      ok(await kc.run(['create', '-f', '-'], { stdin: widget('v1', 'w1', { replicas: 2, color: 'purple' }) }), cp());
      const r = await kc.run(['create', '-f', '-'], { stdin: widget('v2', 'w3', { color: 'purple' }) });
      assert.equal(r.code, 1);
      assert.equal(r.stderr.trim(), `The Widget "w3" is invalid: spec.color: Unsupported value: "purple": supported values: "red", "blue"`);
    });

    it('status and scale, declared on v1 only, are 404 through v2 as kube answers', async () => {
      for (const sub of ['status', 'scale']) {
        const v1 = await https.json('GET', `${BASE}/v1/namespaces/default/widgets/w1/${sub}`);
        assert.equal(v1.status, 200, `v1 ${sub}`);
        const v2 = await https.json('GET', `${BASE}/v2/namespaces/default/widgets/w1/${sub}`);
        assert.equal(v2.status, 404, `v2 ${sub}: ${JSON.stringify(v2.body)}`);
        assert.equal(v2.body['reason'], 'NotFound');
        assert.equal(v2.body['message'], `widgets.${GROUP} "w1" not found`);
      }
      const scaled = await kc.run(['scale', `widgets.v1.${GROUP}`, 'w1', '--replicas=3']);
      assert.equal(ok(scaled, cp()), `widget.${GROUP}/w1 scaled`);
    });

    it('status belongs to the subresource through v1 only: a main-resource write through v2 sets it', async () => {
      const viaV1 = await https.json('PATCH', `${BASE}/v1/namespaces/default/widgets/w1`, { status: { replicas: 7 } }, { 'Content-Type': 'application/merge-patch+json' });
      assert.equal(viaV1.status, 200, JSON.stringify(viaV1.body));
      assert.equal((viaV1.body['status'] as { replicas?: number } | undefined)?.replicas, undefined);
      const viaV2 = await https.json('PATCH', `${BASE}/v2/namespaces/default/widgets/w1`, { status: { replicas: 7 } }, { 'Content-Type': 'application/merge-patch+json' });
      assert.equal(viaV2.status, 200, JSON.stringify(viaV2.body));
      assert.deepEqual(viaV2.body['status'], { replicas: 7 });
    });

    it('each version prints its own columns', async () => {
      const v1 = squashLines(ok(await kc.run(['get', `widgets.v1.${GROUP}`, 'w1']), cp()));
      assert.deepEqual(v1, ['NAME REPLICAS', 'w1 3']);
      const v2 = squashLines(ok(await kc.run(['get', `widgets.v2.${GROUP}`, 'w2']), cp()));
      assert.deepEqual(v2, ['NAME COLOR', 'w2 red']);
    });

    it('field selectors use the selectable fields of the request version', async () => {
      assert.equal(ok(await kc.run(['get', `widgets.v2.${GROUP}`, '--field-selector', 'spec.color=red', '-o', 'name']), cp()), `widget.${GROUP}/w2`);
      const v1 = await kc.run(['get', `widgets.v1.${GROUP}`, '--field-selector', 'spec.color=red', '-o', 'name']);
      assert.equal(v1.code, 1);
      assert.match(v1.stderr, /field label not supported: spec\.color/);
    });

    it('aggregated discovery lists the subresources of each version', async () => {
      const r = await https.json('GET', '/apis', undefined, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
      const group = (r.body as unknown as AggregatedList).items.find((g) => g.metadata.name === GROUP);
      const subs = (v: string): string[] => (group?.versions.find((x) => x.version === v)?.resources.find((x) => x.resource === 'widgets')?.subresources ?? []).map((s) => s.subresource).sort();
      assert.deepEqual(subs('v1'), ['scale', 'status']);
      assert.deepEqual(subs('v2'), []);
    });

    it('kubectl get crd prints CREATED AT as kube does: the creation time in RFC 3339, not an age', async () => {
      const created = JSON.parse(ok(await kc.run(['get', 'crd', `widgets.${GROUP}`, '-o', 'json']), cp())) as { metadata: { creationTimestamp: string } };
      assert.match(created.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const lines = squashLines(ok(await kc.run(['get', 'crd', `widgets.${GROUP}`]), cp()));
      assert.deepEqual(lines, ['NAME CREATED AT', `widgets.${GROUP} ${created.metadata.creationTimestamp}`]);
      const table = await https.json('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${GROUP}`, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
      const columns = table.body['columnDefinitions'] as Array<{ name: string; type: string; format: string; priority: number; description: string }>;
      assert.deepEqual(
        columns.map((c) => [c.name, c.type, c.format, c.priority]),
        [
          ['Name', 'string', 'name', 0],
          ['Created At', 'date', '', 0],
        ],
      );
      assert.match(columns[1]?.description ?? '', /^CreationTimestamp is a timestamp representing the server time when this object was created\./);
      assert.deepEqual((table.body['rows'] as Array<{ cells: unknown[] }>)[0]?.cells, [`widgets.${GROUP}`, created.metadata.creationTimestamp]);
    });
  });
});
