// kubectl 1.27's client-side validation of a custom resource from /openapi/v2, against the control
// plane command on SQLite. A `kind: List` is validated item by item against the v2 document (the
// server's fieldValidation cannot be used for a List), so the CRD's v2 schema must be the one
// kube's v2 builder publishes: a null in a nullable field, an int-or-string given as a string and
// arbitrary content under preserved unknown fields all pass, while an unknown field is still refused.
// Skipped (with the reason) only where kubectl 1.27 is not installed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEstablishedCRD } from '../apiextensions/env.js';
import { fails, ok, until } from './assertions.js';
import { describeBackends } from './harness.js';
import { HttpsClient } from './https.js';
import { Kubectl, kubectlUnavailable } from './kubectl.js';
import { uniqueName } from './objects.js';

const GROUP = 'v2validation.example.com';
const MINOR = 27;

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
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
                required: ['note'],
                properties: {
                  note: { type: 'string', nullable: true },
                  tags: { type: 'array', nullable: true, items: { type: 'string' } },
                  port: { 'x-kubernetes-int-or-string': true },
                  config: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'string' } } },
                },
              },
            },
          },
        },
      },
    ],
  },
};

function widget(name: string, ns: string, spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name, namespace: ns }, spec };
}

const list = (items: readonly unknown[]): string => JSON.stringify({ apiVersion: 'v1', kind: 'List', items });

describe(`kubectl 1.${MINOR} validates custom resources from /openapi/v2`, { skip: kubectlUnavailable(MINOR) ?? false }, () => {
  describeBackends(
    `kubectl 1.${MINOR}`,
    (cp) => {
      let c: HttpsClient;
      let kc: Kubectl;
      let ns: string;
      before(async () => {
        c = new HttpsClient(cp().credentials);
        kc = new Kubectl(cp);
        ns = uniqueName('crdv2');
        ok(await kc.createNamespace(ns), cp());
        await createEstablishedCRD(c, CRD, `/apis/${GROUP}/v1/namespaces/${ns}/widgets`);
        await until('the Widget definition is in /openapi/v2', async () => (await c.request({ path: '/openapi/v2' })).text.includes('"com.example.v2validation.v1.Widget"') || undefined, 60_000);
      });
      after(() => {
        kc.dispose();
        c.close();
      });

      it('null in nullable fields, an int-or-string string and arbitrary preserved content pass client-side validation', async () => {
        const name = uniqueName('w');
        const spec = { note: null, tags: null, port: 'http', config: { known: 'k', anything: { nested: [1, 'two', { three: true }] } } };
        assert.equal(ok(await kc.run(['create', '--validate=true', '-f', '-'], { minor: MINOR, stdin: list([widget(name, ns, spec)]) }), cp()), `widget.${GROUP}/${name} created`);
        const stored = JSON.parse(ok(await kc.run(['get', 'widgets', name, '-n', ns, '-o', 'jsonpath={.spec}'], { minor: MINOR }), cp())) as Record<string, unknown>;
        assert.deepEqual(stored['config'], spec.config);
        assert.equal(stored['port'], 'http');
        const number = uniqueName('w');
        assert.equal(ok(await kc.run(['create', '-f', '-'], { minor: MINOR, stdin: list([widget(number, ns, { note: 'n', port: 8080 })]) }), cp()), `widget.${GROUP}/${number} created`);
      });

      it('an unknown field is still refused client-side', async () => {
        fails(
          await kc.run(['create', '-f', '-'], { minor: MINOR, stdin: list([widget(uniqueName('w'), ns, { note: 'n', bogus: 1 })]) }),
          'error: error validating "STDIN": error validating data: ValidationError(Widget.spec): unknown field "bogus" in com.example.v2validation.v1.Widget.spec; ' +
            'if you choose to ignore these errors, turn validation off with --validate=false',
        );
      });
    },
    { only: ['sqlite'] },
  );
});
