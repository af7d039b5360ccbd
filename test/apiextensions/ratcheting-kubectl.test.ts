// Validation ratcheting (CRDValidationRatcheting, on by default in kube 1.32): a CRD whose schema
// gets stricter after objects exist. An update that leaves the now-invalid values unchanged
// passes (a CEL rule failing on an unchanged value is a warning); what an update changes is
// validated, with values correlated as kube correlates them (properties and map values by
// key, list-type=map items by their keys, never plain list indexes); transition rules are
// never ratcheted. Through the real kubectl, against the control plane on SQLite and etcd.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ok, until } from '../integration/assertions.js';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { Kubectl, kubectlUnavailable } from '../integration/kubectl.js';

const GROUP = 'ratchet.example.com';
const RESOURCE = `gadgets.${GROUP}`;

function gadgetCRD(strict: boolean): string {
  const s = <T extends object>(loose: T, tight: Partial<T> & Record<string, unknown>): T => (strict ? { ...loose, ...tight } : loose);
  return JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: RESOURCE },
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
                spec: {
                  type: 'object',
                  properties: {
                    name: s({ type: 'string' }, { maxLength: 5 }),
                    other: { type: 'string' },
                    labels: { type: 'object', additionalProperties: s({ type: 'string' }, { maxLength: 3 }) },
                    aliases: { type: 'array', items: s({ type: 'string' }, { maxLength: 3 }) },
                    tags: s({ type: 'array', items: { type: 'string' } }, { 'x-kubernetes-list-type': 'set' }),
                    ports: {
                      type: 'array',
                      'x-kubernetes-list-type': 'map',
                      'x-kubernetes-list-map-keys': ['name'],
                      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: s({ type: 'integer' }, { maximum: 100 }) } },
                    },
                    limits: s({ type: 'object', properties: { count: { type: 'integer' } } }, { 'x-kubernetes-validations': [{ rule: 'self.count < 3' }] }),
                    epoch: s({ type: 'integer' }, { 'x-kubernetes-validations': [{ rule: 'self > oldSelf', message: 'must grow' }] }),
                  },
                },
              },
            },
          },
        },
      ],
    },
  });
}

const gadget = (name: string, spec: Record<string, unknown>): string => JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Gadget', metadata: { name }, spec });

/** What kube adds when a schema error keeps the CEL rules from running (hasBlockingErr). */
const RULES_NOT_CHECKED = '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';
const LIMITS_RULE = 'spec.limits: Invalid value: "object": failed rule: self.count < 3';

const INVALID_SPEC = { name: 'much-too-long', other: 'a', labels: { keep: 'toolong', edit: 'x' }, aliases: ['toolong'], tags: ['a', 'a'], ports: [{ name: 'http', port: 8080 }], limits: { count: 5 } };

describe('validation ratcheting, through kubectl', { skip: kubectlUnavailable() ?? false }, () => {
  describeBackends('ratcheting CRD', (cp) => {
    let kc: Kubectl;
    let https: HttpsClient;
    const patch = (name: string, body: unknown) => kc.run(['patch', RESOURCE, name, '--type=merge', '-p', JSON.stringify(body)]);
    /** kubectl's stderr for a 422 with these causes, after the Warning lines of the answer. */
    const invalid = (r: { code: number | null; stderr: string }, o: { name?: string; causes: readonly string[]; warnings?: readonly string[] }): void => {
      assert.equal(r.code, 1, r.stderr);
      const head = `The Gadget "${o.name ?? 'g1'}" is invalid: `;
      const message = o.causes.length === 1 ? `${head}${o.causes[0] ?? ''}` : `${head}\n${o.causes.map((c) => `* ${c}`).join('\n')}`;
      assert.equal(r.stderr.trim(), [...(o.warnings ?? []).map((w) => `Warning: ${w}`), message].join('\n'));
    };

    before(async () => {
      kc = new Kubectl(cp);
      https = new HttpsClient(cp().credentials);
      ok(await kc.run(['apply', '-f', '-'], { stdin: gadgetCRD(false) }), cp());
      ok(await kc.run(['wait', '--for=condition=Established', `crd/${RESOURCE}`, '--timeout=30s']), cp());
      await until('gadgets served', async () => ((await https.request({ path: `/apis/${GROUP}/v1/namespaces/default/gadgets` })).status === 200 ? true : undefined));
      ok(await kc.run(['create', '-f', '-'], { stdin: gadget('g1', INVALID_SPEC) }), cp());
      ok(await kc.run(['create', '-f', '-'], { stdin: gadget('g2', { epoch: 1 }) }), cp());
      ok(await kc.run(['create', '-f', '-'], { stdin: gadget('g4', { tags: ['a'] }) }), cp());
      // The schema gets stricter: g1 and g2 are now invalid as they are.
      ok(await kc.run(['apply', '-f', '-'], { stdin: gadgetCRD(true) }), cp());
      await until('the stricter schema served', async () => {
        const r = await kc.run(['create', '--dry-run=server', '-f', '-'], { stdin: gadget('probe', { name: 'much-too-long' }) });
        return r.code === 1 ? true : undefined;
      });
    });
    after(() => {
      https.close();
      kc.dispose();
    });

    it('a create is validated in full', async () => {
      invalid(await kc.run(['create', '-f', '-'], { stdin: gadget('g3', { name: 'much-too-long' }) }), {
        name: 'g3',
        causes: ['spec.name: Too long: may not be more than 5 bytes', RULES_NOT_CHECKED],
      });
    });

    it('labelling an object whose values the schema now rejects passes; the CEL rule failing on an unchanged value is a warning', async () => {
      const r = await kc.run(['label', RESOURCE, 'g1', 'tier=gold']);
      assert.equal(ok(r, cp()), `${RESOURCE.replace('gadgets', 'gadget')}/g1 labeled`);
      assert.equal(r.stderr.trim(), `Warning: ${LIMITS_RULE}`);
    });

    it('changing another field of spec passes: the invalid values it holds are unchanged', async () => {
      ok(await patch('g1', { spec: { other: 'b' } }), cp());
      ok(await kc.run(['annotate', RESOURCE, 'g1', 'note=x']), cp());
    });

    it('changing an invalid value is validated', async () => {
      invalid(await patch('g1', { spec: { name: 'still-too-long' } }), { causes: ['spec.name: Too long: may not be more than 5 bytes', RULES_NOT_CHECKED] });
    });

    it('map values correlate by key: changing one validates that one only', async () => {
      ok(await patch('g1', { spec: { labels: { edit: 'y' } } }), cp());
      invalid(await patch('g1', { spec: { labels: { edit: 'long' } } }), { causes: ['spec.labels.edit: Too long: may not be more than 3 bytes', RULES_NOT_CHECKED] });
    });

    it('list-type=map items correlate by key: a new item is validated, the unchanged one is not', async () => {
      invalid(
        await patch('g1', {
          spec: {
            ports: [
              { name: 'http', port: 8080 },
              { name: 'https', port: 8443 },
            ],
          },
        }),
        {
          causes: ['spec.ports[1].port: Invalid value: 8443: spec.ports[1].port in body should be less than or equal to 100'],
          warnings: [LIMITS_RULE],
        },
      );
      ok(
        await patch('g1', {
          spec: {
            ports: [
              { name: 'https', port: 44 },
              { name: 'http', port: 8080 },
            ],
          },
        }),
        cp(),
      );
    });

    it('items of a plain list never correlate: changing the list validates every item', async () => {
      invalid(await patch('g1', { spec: { aliases: ['toolong', 'ok'] } }), { causes: ['spec.aliases[0]: Too long: may not be more than 3 bytes', RULES_NOT_CHECKED] });
    });

    it('list-type=set duplicates count only when the stored object had none', async () => {
      ok(await patch('g1', { spec: { tags: ['a', 'a', 'b', 'b'] } }), cp());
      invalid(await kc.run(['patch', RESOURCE, 'g4', '--type=merge', '-p', JSON.stringify({ spec: { tags: ['b', 'b'] } })]), { name: 'g4', causes: ['spec.tags[1]: Duplicate value: "b"'] });
    });

    it('a CEL rule on a changed value fails', async () => {
      invalid(await patch('g1', { spec: { limits: { count: 6 } } }), { causes: [LIMITS_RULE] });
    });

    it('a transition rule is never ratcheted', async () => {
      invalid(await kc.run(['label', RESOURCE, 'g2', 'tier=gold']), { name: 'g2', causes: ['spec.epoch: Invalid value: "integer": must grow'] });
      ok(await patch('g2', { spec: { epoch: 2 } }), cp());
    });

    it('what was stored is what the accepted updates made', async () => {
      const got = JSON.parse(ok(await kc.run(['get', RESOURCE, 'g1', '-o', 'json']), cp())) as { metadata: { labels: Record<string, string> }; spec: Record<string, unknown> };
      assert.deepEqual(got.metadata.labels, { tier: 'gold' });
      assert.deepEqual(got.spec, {
        ...INVALID_SPEC,
        other: 'b',
        labels: { keep: 'toolong', edit: 'y' },
        tags: ['a', 'a', 'b', 'b'],
        ports: [
          { name: 'https', port: 44 },
          { name: 'http', port: 8080 },
        ],
      });
    });
  });
});
