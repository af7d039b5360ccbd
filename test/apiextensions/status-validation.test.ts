// Custom resources are validated as kube-apiserver 1.32 validates them after its strategy's
// PrepareFor*: a write to /status is judged on its status stanza only, against the schema's
// `status` property (errors under `status.`, the stanza's own paths in the details), since
// everything else is the stored object's; the main resource of a version with /status keeps the
// stored status and is judged with it. The scale subresource's replica checks run on the object
// in the request version, also when a conversion webhook moves the replica fields. Through the
// real kubectl and HTTPS, against the control plane command on SQLite and etcd.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ok, until } from '../integration/assertions.js';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { Kubectl, kubectlUnavailable } from '../integration/kubectl.js';
import { startConversionWebhook, type ConversionWebhook, type Obj } from './conversion-e2e-webhook.js';

const GROUP = 'statusval.example.com';
const GADGETS = `/apis/${GROUP}/v1/namespaces/default/gadgets`;
const MERGE = { 'Content-Type': 'application/merge-patch+json' };

/** spec.replicas at most 5; status.phase an enum, status.count below 10 (CEL), status and scale subresources. */
const GADGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `gadgets.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
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
              status: {
                type: 'object',
                properties: {
                  replicas: { type: 'integer' },
                  phase: { type: 'string', enum: ['Ready', 'Pending'] },
                  count: { type: 'integer' },
                },
                'x-kubernetes-validations': [{ rule: '!has(self.count) || self.count < 10', message: 'count must stay below 10' }],
              },
            },
          },
        },
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
      },
    ],
  },
};

const SCALE_GROUP = 'scaleconv.example.com';
const DIALS_V2 = `/apis/${SCALE_GROUP}/v2/namespaces/default/dials`;
const DIALS_V1 = `/apis/${SCALE_GROUP}/v1/namespaces/default/dials`;
const dialSchema = (field: string): Obj => ({
  type: 'object',
  properties: {
    spec: { type: 'object', properties: { [field]: { type: 'integer' } } },
    status: { type: 'object', properties: { [field]: { type: 'integer' } } },
  },
});

/** v1 (storage) keeps replicas at `replicas`, v2 at `size`, in spec and status; each version scales at its own paths. */
function dialCRD(hook: ConversionWebhook): Obj {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `dials.${SCALE_GROUP}` },
    spec: {
      group: SCALE_GROUP,
      scope: 'Namespaced',
      names: { plural: 'dials', singular: 'dial', kind: 'Dial' },
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: hook.url, caBundle: hook.caBundle } } },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: dialSchema('replicas') },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        },
        {
          name: 'v2',
          served: true,
          storage: false,
          schema: { openAPIV3Schema: dialSchema('size') },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' } },
        },
      ],
    },
  };
}

/** Renames `replicas` ⇄ `size` in spec and status. */
function convertDial(obj: Obj, desiredAPIVersion: string): Obj {
  const [from, to] = desiredAPIVersion.endsWith('/v2') ? ['replicas', 'size'] : ['size', 'replicas'];
  const rename = (part: unknown): unknown => {
    if (typeof part !== 'object' || part === null || Array.isArray(part)) return part;
    const { [from]: value, ...rest } = part as Obj;
    return value === undefined ? rest : { ...rest, [to]: value };
  };
  return { ...obj, apiVersion: desiredAPIVersion, ...('spec' in obj ? { spec: rename(obj['spec']) } : {}), ...('status' in obj ? { status: rename(obj['status']) } : {}) };
}

interface Cause {
  reason: string;
  message: string;
  field: string;
}

describe('custom resource validation of /status and per-version scale checks, through kubectl', { skip: kubectlUnavailable() ?? false }, () => {
  describeBackends('status and scale validation', (cp) => {
    let kc: Kubectl;
    let https: HttpsClient;
    let hook: ConversionWebhook;
    before(async () => {
      kc = new Kubectl(cp);
      https = new HttpsClient(cp().credentials);
      hook = await startConversionWebhook(convertDial);
      for (const crd of [GADGET_CRD, dialCRD(hook)]) {
        const name = (crd.metadata as { name: string }).name;
        ok(await kc.run(['apply', '-f', '-'], { stdin: JSON.stringify(crd) }), cp());
        ok(await kc.run(['wait', '--for=condition=Established', `crd/${name}`, '--timeout=60s']), cp());
      }
      await until('both CRDs served', async () => {
        for (const path of [GADGETS, DIALS_V1, DIALS_V2]) if ((await https.request({ path })).status !== 200) return undefined;
        return true;
      });
    });
    after(async () => {
      https.close();
      kc.dispose();
      await hook.close();
    });

    const gadget = (name: string, spec: Obj, status?: Obj): Obj => ({ apiVersion: `${GROUP}/v1`, kind: 'Gadget', metadata: { name }, spec, ...(status !== undefined ? { status } : {}) });
    const causes = (body: Obj): Array<[string, string, string]> => ((body['details'] as { causes?: Cause[] } | undefined)?.causes ?? []).map((c) => [c.reason, c.field, c.message]);

    it('a create ignores status (the /status subresource owns it): an invalid one is dropped, not judged', async () => {
      const r = await https.json('POST', GADGETS, gadget('g1', { replicas: 1 }, { phase: 'Bogus', count: 50 }));
      assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.equal(r.body['status'], undefined);
    });

    it('PUT /status ignores spec: an invalid spec sent there is not judged and not stored', async () => {
      const current = (await https.json('GET', `${GADGETS}/g1`)).body;
      const r = await https.json('PUT', `${GADGETS}/g1/status`, { ...current, spec: { replicas: 50 }, status: { phase: 'Ready', replicas: 1 } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body['spec'], { replicas: 1 });
      assert.deepEqual(r.body['status'], { phase: 'Ready', replicas: 1 });
      // kubectl's merge patch of /status, spec included: the same.
      assert.equal(
        ok(await kc.run(['patch', `gadgets.${GROUP}`, 'g1', '--subresource=status', '--type=merge', '-p', '{"spec":{"replicas":"many"},"status":{"phase":"Pending"}}']), cp()),
        `gadget.${GROUP}/g1 patched`,
      );
      const got = (await https.json('GET', `${GADGETS}/g1`)).body;
      assert.deepEqual(got['spec'], { replicas: 1 });
      assert.deepEqual(got['status'], { phase: 'Pending', replicas: 1 });
    });

    it("an invalid status sent to /status is 422 under status., worded with the stanza's own paths", async () => {
      const current = (await https.json('GET', `${GADGETS}/g1`)).body;
      const r = await https.json('PUT', `${GADGETS}/g1/status`, { ...current, status: { phase: 'Bogus', replicas: 'one' } });
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.equal(r.body['reason'], 'Invalid');
      // The schema errors block the CEL rules, as in kube (hasBlockingErr).
      assert.deepEqual(causes(r.body), [
        ['FieldValueNotSupported', 'status.phase', 'Unsupported value: "Bogus": supported values: "Ready", "Pending"'],
        ['FieldValueTypeInvalid', 'status.replicas', 'Invalid value: "string": replicas in body must be of type integer: "string"'],
        // ValidateScaleStatus, after the status schema (validator.go ValidateStatusUpdate).
        ['FieldValueInvalid', '.status.replicas', 'Invalid value: 0: .status.replicas accessor error: one is of the type string, expected int64'],
        ['FieldValueInvalid', '<nil>', 'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation'],
      ]);
      const k = await kc.run(['patch', `gadgets.${GROUP}`, 'g1', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Bogus"}}']);
      assert.equal(k.code, 1);
      assert.deepEqual(k.stderr.trim().split('\n'), [
        'The Gadget "g1" is invalid: ',
        '* status.phase: Unsupported value: "Bogus": supported values: "Ready", "Pending"',
        '* <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      ]);
    });

    it('the CEL rules of the status subtree judge a /status write', async () => {
      const k = await kc.run(['patch', `gadgets.${GROUP}`, 'g1', '--subresource=status', '--type=merge', '-p', '{"status":{"count":12}}']);
      assert.equal(k.code, 1);
      assert.equal(k.stderr.trim(), `The Gadget "g1" is invalid: status: Invalid value: "object": count must stay below 10`);
      assert.equal(ok(await kc.run(['patch', `gadgets.${GROUP}`, 'g1', '--subresource=status', '--type=merge', '-p', '{"status":{"count":3}}']), cp()), `gadget.${GROUP}/g1 patched`);
    });

    it("the scale subresource's status replicas are checked on /status", async () => {
      const k = await kc.run(['patch', `gadgets.${GROUP}`, 'g1', '--subresource=status', '--type=merge', '-p', '{"status":{"replicas":-1}}']);
      assert.equal(k.code, 1);
      assert.equal(k.stderr.trim(), `The Gadget "g1" is invalid: .status.replicas: Invalid value: -1: should be a non-negative integer`);
    });

    it('the main resource keeps the stored status: an invalid status sent there is not judged, an invalid spec is', async () => {
      const r = await https.json('PATCH', `${GADGETS}/g1`, { spec: { color: 'red' }, status: { phase: 'Bogus' } }, MERGE);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body['spec'], { replicas: 1, color: 'red' });
      assert.deepEqual(r.body['status'], { phase: 'Pending', replicas: 1, count: 3 });
      const bad = await https.json('PATCH', `${GADGETS}/g1`, { spec: { replicas: 50 }, status: { phase: 'Bogus' } }, MERGE);
      assert.equal(bad.status, 422, JSON.stringify(bad.body));
      assert.deepEqual(causes(bad.body), [['FieldValueInvalid', 'spec.replicas', 'Invalid value: 50: spec.replicas in body should be less than or equal to 5']]);
    });

    const dial = (version: string, name: string, spec: Obj): Obj => ({ apiVersion: `${SCALE_GROUP}/${version}`, kind: 'Dial', metadata: { name }, spec });

    it("under a webhook that moves the replicas, a version's scale checks read its own paths: a negative size through v2 is 422", async () => {
      const r = await https.json('POST', DIALS_V2, dial('v2', 'd-neg', { size: -1 }));
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.deepEqual(causes(r.body), [['FieldValueInvalid', '.spec.size', 'Invalid value: -1: should be a non-negative integer']]);
      const k = await kc.run(['create', '-f', '-'], { stdin: JSON.stringify(dial('v1', 'd-neg', { replicas: -1 })) });
      assert.equal(k.code, 1);
      assert.equal(k.stderr.trim(), `The Dial "d-neg" is invalid: .spec.replicas: Invalid value: -1: should be a non-negative integer`);
      assert.equal((await https.json('GET', `${DIALS_V1}/d-neg`)).status, 404);
    });

    it("valid sizes through v2 are stored as v1 replicas; v2's status size is checked on /status and update", async () => {
      const created = await https.json('POST', DIALS_V2, dial('v2', 'd1', { size: 2 }));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual((await https.json('GET', `${DIALS_V1}/d1`)).body['spec'], { replicas: 2 });
      const k = await kc.run(['patch', `dials.v2.${SCALE_GROUP}`, 'd1', '--subresource=status', '--type=merge', '-p', '{"status":{"size":-2}}']);
      assert.equal(k.code, 1);
      assert.equal(k.stderr.trim(), `The Dial "d1" is invalid: .status.size: Invalid value: -2: should be a non-negative integer`);
      assert.equal(ok(await kc.run(['patch', `dials.v2.${SCALE_GROUP}`, 'd1', '--subresource=status', '--type=merge', '-p', '{"status":{"size":2}}']), cp()), `dial.${SCALE_GROUP}/d1 patched`);
      assert.deepEqual((await https.json('GET', `${DIALS_V1}/d1`)).body['status'], { replicas: 2 });
      const neg = await kc.run(['patch', `dials.v2.${SCALE_GROUP}`, 'd1', '--type=merge', '-p', '{"spec":{"size":-3}}']);
      assert.equal(neg.code, 1);
      assert.equal(neg.stderr.trim(), `The Dial "d1" is invalid: .spec.size: Invalid value: -3: should be a non-negative integer`);
      assert.equal(ok(await kc.run(['scale', `dials.v2.${SCALE_GROUP}`, 'd1', '--replicas=4']), cp()), `dial.${SCALE_GROUP}/d1 scaled`);
      assert.deepEqual((await https.json('GET', `${DIALS_V2}/d1`)).body['spec'], { size: 4 });
    });
  });
});
