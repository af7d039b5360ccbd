// A body with the wrong JSON type at a typed field, through the control plane on SQLite: for the
// kinds of apis/ it is kube's typed decoder's 400 on create/update and the patcher's 422 on
// patch, with Go's wording (never a 500 from a defaulter writing into a string); custom resources
// are unstructured in kube, so their schema validation answers 422.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createEstablishedCRD, cronTabCRD, cronTabSchema, cronTabVersion } from '../apiextensions/env.js';
import { describeBackends, type ControlPlane } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';

type Obj = Record<string, unknown>;
const SERVICES = '/api/v1/namespaces/default/services';
const CRONTABS = '/apis/typed.example.com/v1/namespaces/default/crontabs';
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const STRATEGIC = { 'Content-Type': 'application/strategic-merge-patch+json' };
const JSONPATCH = { 'Content-Type': 'application/json-patch+json' };

const service = (spec: unknown, name = 'x'): Obj => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });
const cannotHandle = (kind: string, cause: string): string => `${kind} in version "v1" cannot be handled as a ${kind}: ${cause}`;
const causes = (body: Obj): Array<{ field?: string; message?: string }> => (body['details'] as { causes?: Array<{ field?: string; message?: string }> } | undefined)?.causes ?? [];

describeBackends(
  'typed decoding of bodies with wrong JSON types',
  (cp: () => ControlPlane) => {
    let c: HttpsClient;
    before(async () => {
      c = new HttpsClient(cp().credentials);
      const created = await c.json('POST', SERVICES, service({ ports: [{ port: 80 }] }, 'typed'));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const crd = cronTabCRD({ group: 'typed.example.com', versions: [cronTabVersion('v1', { storage: true, schema: cronTabSchema() })] });
      await createEstablishedCRD(c, crd, CRONTABS);
      const ct = await c.json('POST', CRONTABS, { apiVersion: 'typed.example.com/v1', kind: 'CronTab', metadata: { name: 'ct' }, spec: { cronSpec: '* * * * *' } });
      assert.equal(ct.status, 201, JSON.stringify(ct.body));
    });
    after(() => c.close());

    test('create and update: 400 with the JSON decoder error naming the Go struct field and type', async () => {
      for (const [body, cause] of [
        [service('str'), 'json: cannot unmarshal string into Go struct field Service.spec of type v1.ServiceSpec'],
        [service({ ports: 'x' }), 'json: cannot unmarshal string into Go struct field ServiceSpec.spec.ports of type []v1.ServicePort'],
        [service({ ports: [{ port: '80' }] }), 'json: cannot unmarshal string into Go struct field ServicePort.spec.ports.port of type int32'],
        [service({ ports: [{ port: 1.5 }] }), 'json: cannot unmarshal number 1.5 into Go struct field ServicePort.spec.ports.port of type int32'],
        [service({ selector: { app: 1 } }), 'json: cannot unmarshal number into Go struct field ServiceSpec.spec.selector of type string'],
        [{ ...service({}), metadata: { name: 'x', labels: [] } }, 'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string'],
        [{ ...service({}), metadata: 'x' }, 'json: cannot unmarshal string into Go struct field Service.metadata of type v1.ObjectMeta'],
        // Fields of named Go types print the type's name (`type ServiceType string`), not string.
        [service({ type: 5 }), 'json: cannot unmarshal number into Go struct field ServiceSpec.spec.type of type v1.ServiceType'],
        [service({ ipFamilies: 'IPv4' }), 'json: cannot unmarshal string into Go struct field ServiceSpec.spec.ipFamilies of type []v1.IPFamily'],
        [service({ ipFamilies: [4] }), 'json: cannot unmarshal number into Go struct field ServiceSpec.spec.ipFamilies of type v1.IPFamily'],
        [service({ ports: [{ port: 80, protocol: 6 }] }), 'json: cannot unmarshal number into Go struct field ServicePort.spec.ports.protocol of type v1.Protocol'],
        [{ ...service({}), metadata: { name: 'x', uid: 1 } }, 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID'],
      ] as const) {
        const r = await c.json('POST', SERVICES, body);
        assert.deepEqual([r.status, r.body['reason'], r.body['message']], [400, 'BadRequest', cannotHandle('Service', cause)], JSON.stringify(body));
      }
      const ns = await c.json('PUT', '/api/v1/namespaces/default', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', finalizers: 'x' } });
      assert.deepEqual([ns.status, ns.body['message']], [400, cannotHandle('Namespace', 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.finalizers of type []string')]);
      const nsSpec = await c.json('PUT', '/api/v1/namespaces/default', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' }, spec: { finalizers: [1] } });
      assert.deepEqual(
        [nsSpec.status, nsSpec.body['message']],
        [400, cannotHandle('Namespace', 'json: cannot unmarshal number into Go struct field NamespaceSpec.spec.finalizers of type v1.FinalizerName')],
      );
      const secret = await c.json('POST', '/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 5 });
      assert.deepEqual([secret.status, secret.body['message']], [400, cannotHandle('Secret', 'json: cannot unmarshal number into Go struct field Secret.type of type v1.SecretType')]);
      // metav1.Time's UnmarshalJSON: time.Parse(RFC3339)'s error as it is.
      const ts = await c.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ts', creationTimestamp: 'yesterday' } });
      assert.deepEqual(
        [ts.status, ts.body['reason'], ts.body['message']],
        [400, 'BadRequest', cannotHandle('Namespace', 'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"')],
      );
    });

    test('patch: 422 on `patch` with the decoder (JSON, merge) or unstructured converter (strategic) error', async () => {
      for (const [headers, patch, detail] of [
        [MERGE, { spec: 'str' }, 'json: cannot unmarshal string into Go struct field Service.spec of type v1.ServiceSpec'],
        [JSONPATCH, [{ op: 'replace', path: '/spec/ports', value: 7 }], 'json: cannot unmarshal number into Go struct field ServiceSpec.spec.ports of type []v1.ServicePort'],
        [STRATEGIC, { spec: 'str' }, 'cannot restore struct from: string'],
        [STRATEGIC, { spec: { ports: 'x' } }, 'cannot restore slice from string'],
        [STRATEGIC, { spec: { type: 5 } }, 'cannot convert int64 to v1.ServiceType'],
        [MERGE, { spec: { sessionAffinity: true } }, 'json: cannot unmarshal bool into Go struct field ServiceSpec.spec.sessionAffinity of type v1.ServiceAffinity'],
      ] as const) {
        const r = await c.json('PATCH', `${SERVICES}/typed`, patch, headers);
        assert.deepEqual([r.status, r.body['reason']], [422, 'Invalid'], JSON.stringify(r.body));
        const [cause] = causes(r.body);
        assert.equal(cause?.field, 'patch');
        assert.ok(cause?.message?.endsWith(`: ${detail}`), `${JSON.stringify(patch)}: ${String(cause?.message)}`);
      }
      const got = await c.json('GET', `${SERVICES}/typed`);
      assert.equal((got.body['spec'] as { ports: Array<{ port: number }> }).ports[0]?.port, 80, 'the stored object is unchanged');
    });

    test('custom resources are unstructured: schema validation answers 422, never 500', async () => {
      const created = await c.json('POST', CRONTABS, { apiVersion: 'typed.example.com/v1', kind: 'CronTab', metadata: { name: 'bad' }, spec: 'str' });
      assert.deepEqual([created.status, created.body['reason']], [422, 'Invalid'], JSON.stringify(created.body));
      assert.ok(
        causes(created.body).some((x) => x.field === 'spec'),
        JSON.stringify(created.body),
      );
      for (const [headers, patch] of [
        [MERGE, { spec: 'str' }],
        [MERGE, { spec: { replicas: 'x' } }],
        [JSONPATCH, [{ op: 'replace', path: '/spec', value: [] }]],
      ] as const) {
        const r = await c.json('PATCH', `${CRONTABS}/ct`, patch, headers);
        assert.deepEqual([r.status, r.body['reason']], [422, 'Invalid'], JSON.stringify(r.body));
      }
      assert.equal(cp().exited(), undefined);
    });
  },
  { only: ['sqlite'] },
);
