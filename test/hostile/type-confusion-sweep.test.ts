// A type-confusion sweep over every built-in kind: each field of a valid object (every leaf and
// every container, down to list items) is replaced in turn by values of every JSON type and by
// prototype keys, and the object is sent as a dry-run create, update, JSON merge patch and
// server-side apply of a stored one (and its status through the status subresource, for kinds
// that have one). Every answer must be a success, kube's Status with a 4xx code, or one of the
// 500s kube answers itself (sweep.ts KUBE_500: an apply configuration structured-merge-diff cannot
// convert): never a 500 from code of ours that read a property of a value whose type it assumed,
// never a non-Status body; and the server must be the same process, ready, afterwards. The fuzz
// (test/fuzz) draws its inputs at random for four kinds; this walks every field of every kind,
// which is how the RBAC kinds' null items (go-validated-nulls.test.ts) would have been found.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { assertStillServing, sweepObject } from './sweep.js';

type Obj = Record<string, unknown>;

const NS = 'sweep';
const TIME = '2026-11-27T00:00:00Z';
const MICRO_TIME = '2026-11-27T00:00:00.000000Z';

interface Kind {
  /** The collection path. */
  readonly collection: string;
  readonly apiVersion: string;
  readonly kind: string;
  /** The valid object's fields besides apiVersion, kind and metadata.name. */
  readonly fields: Obj;
  /** Only created (reviews, token requests): no object to patch, no dry run. */
  readonly createOnly?: boolean;
  /** The object's name, when the kind constrains it. */
  readonly name?: string;
  /** A valid status, swept through the status subresource (merge patches), for kinds that have one. */
  readonly status?: Obj;
}

const rbac = 'rbac.authorization.k8s.io/v1';
const resourceRule = { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'], resourceNames: ['a'] };
const subjects = [
  { kind: 'User', name: 'u', apiGroup: 'rbac.authorization.k8s.io' },
  { kind: 'ServiceAccount', name: 'sa', namespace: NS },
];
const resourceAttributes = { namespace: NS, verb: 'get', group: '', resource: 'pods', name: 'p', fieldSelector: { rawSelector: 'a=b' }, labelSelector: { rawSelector: 'c=d' } };

const KINDS: readonly Kind[] = [
  {
    collection: '/api/v1/namespaces',
    apiVersion: 'v1',
    kind: 'Namespace',
    fields: { metadata: { labels: { a: 'b' } }, spec: { finalizers: ['kubernetes'] } },
    status: { phase: 'Active', conditions: [{ type: 'NamespaceDeletionDiscoveryFailure', status: 'False', lastTransitionTime: TIME, reason: 'R', message: 'm' }] },
  },
  {
    collection: `/api/v1/namespaces/${NS}/configmaps`,
    apiVersion: 'v1',
    kind: 'ConfigMap',
    fields: { metadata: { labels: { a: 'b' }, annotations: { c: 'd' }, finalizers: ['example.com/f'] }, data: { a: 'b' }, binaryData: { c: 'ZA==' }, immutable: false },
  },
  { collection: `/api/v1/namespaces/${NS}/secrets`, apiVersion: 'v1', kind: 'Secret', fields: { type: 'Opaque', data: { a: 'Yg==' }, stringData: { x: 'y' } } },
  {
    collection: `/api/v1/namespaces/${NS}/services`,
    apiVersion: 'v1',
    kind: 'Service',
    fields: { spec: { type: 'ClusterIP', selector: { app: 'x' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }], sessionAffinity: 'None', ipFamilyPolicy: 'SingleStack' } },
    status: {
      loadBalancer: { ingress: [{ ip: '192.0.2.1', ipMode: 'VIP', ports: [{ port: 80, protocol: 'TCP', error: 'e' }] }] },
      conditions: [{ type: 'Ready', status: 'True', observedGeneration: 1, lastTransitionTime: TIME, reason: 'R', message: 'm' }],
    },
  },
  {
    collection: `/api/v1/namespaces/${NS}/serviceaccounts`,
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    fields: { secrets: [{ name: 's' }], imagePullSecrets: [{ name: 'p' }], automountServiceAccountToken: true },
  },
  {
    collection: `/api/v1/namespaces/${NS}/endpoints`,
    apiVersion: 'v1',
    kind: 'Endpoints',
    fields: {
      subsets: [
        { addresses: [{ ip: '10.0.0.1', targetRef: { kind: 'Pod', name: 'p', namespace: NS } }], notReadyAddresses: [{ ip: '10.0.0.2' }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
      ],
    },
  },
  {
    collection: `/apis/events.k8s.io/v1/namespaces/${NS}/events`,
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    fields: {
      eventTime: MICRO_TIME,
      reportingController: 'example.com/c',
      reportingInstance: 'i',
      action: 'Act',
      reason: 'Why',
      type: 'Normal',
      regarding: { kind: 'Pod', name: 'p', namespace: NS, apiVersion: 'v1' },
      note: 'n',
      series: { count: 2, lastObservedTime: MICRO_TIME },
    },
  },
  {
    collection: `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases`,
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    fields: { spec: { holderIdentity: 'h', leaseDurationSeconds: 15, acquireTime: MICRO_TIME, renewTime: MICRO_TIME, leaseTransitions: 1 } },
  },
  { collection: `/apis/${rbac}/namespaces/${NS}/roles`, apiVersion: rbac, kind: 'Role', fields: { rules: [resourceRule] } },
  {
    collection: `/apis/${rbac}/clusterroles`,
    apiVersion: rbac,
    kind: 'ClusterRole',
    fields: {
      rules: [resourceRule, { nonResourceURLs: ['/healthz'], verbs: ['get'] }],
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['v'] }] }] },
    },
  },
  {
    collection: `/apis/${rbac}/namespaces/${NS}/rolebindings`,
    apiVersion: rbac,
    kind: 'RoleBinding',
    fields: { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects },
  },
  {
    collection: `/apis/${rbac}/clusterrolebindings`,
    apiVersion: rbac,
    kind: 'ClusterRoleBinding',
    fields: { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' }, subjects },
  },
  {
    collection: '/apis/apiregistration.k8s.io/v1/apiservices',
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    name: 'v1.sweep.example.com',
    fields: { spec: { group: 'sweep.example.com', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10, service: { namespace: NS, name: 's', port: 443 }, caBundle: 'Yg==' } },
    status: { conditions: [{ type: 'Available', status: 'False', lastTransitionTime: TIME, reason: 'R', message: 'm' }] },
  },
  {
    collection: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    name: 'widgets.sweep.example.com',
    fields: {
      spec: {
        group: 'sweep.example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'], categories: ['all'] },
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
                    required: ['size'],
                    properties: { size: { type: 'integer', minimum: 0, default: 1 }, tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' } },
                    'x-kubernetes-validations': [{ rule: 'self.size < 100', message: 'too big' }],
                  },
                  status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
            },
            subresources: { status: {}, scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.size' } },
            additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
          },
        ],
      },
    },
    status: {
      conditions: [{ type: 'Established', status: 'True', lastTransitionTime: TIME, reason: 'R', message: 'm' }],
      acceptedNames: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', shortNames: ['wd'], categories: ['all'] },
      storedVersions: ['v1'],
    },
  },
  {
    collection: `/apis/wardle.example.com/v1beta1/namespaces/${NS}/flunders`,
    apiVersion: 'wardle.example.com/v1beta1',
    kind: 'Flunder',
    fields: { spec: { flunderReference: 'x', referenceType: 'Flunder' } },
    status: { conditions: [{ type: 'ReferenceResolved', status: 'True', lastTransitionTime: TIME, reason: 'R', message: 'm' }] },
  },
  {
    collection: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    createOnly: true,
    fields: { spec: { user: 'u', uid: '1', groups: ['g'], extra: { scopes: ['a'] }, resourceAttributes } },
  },
  {
    collection: `/apis/authorization.k8s.io/v1/namespaces/${NS}/localsubjectaccessreviews`,
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'LocalSubjectAccessReview',
    createOnly: true,
    fields: { metadata: { namespace: NS }, spec: { user: 'u', groups: ['g'], resourceAttributes } },
  },
  {
    collection: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    createOnly: true,
    fields: { spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } },
  },
  { collection: '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', createOnly: true, fields: { spec: { namespace: NS } } },
  { collection: '/apis/authentication.k8s.io/v1/tokenreviews', apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', createOnly: true, fields: { spec: { token: 'abc', audiences: ['a'] } } },
  { collection: '/apis/authentication.k8s.io/v1/selfsubjectreviews', apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', createOnly: true, fields: {} },
  {
    collection: `/api/v1/namespaces/${NS}/serviceaccounts/sweep-sa/token`,
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    createOnly: true,
    fields: { spec: { audiences: ['a'], expirationSeconds: 3600, boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 's' } } },
  },
];

function manifest(k: Kind, name: string): Obj {
  const fields = k.fields;
  const meta = (fields['metadata'] as Obj | undefined) ?? {};
  return { apiVersion: k.apiVersion, kind: k.kind, ...fields, metadata: { ...meta, name } };
}

describeBackends(
  'type-confusion sweep over every built-in kind',
  (cp) => {
    let c: HttpsClient;
    before(async () => {
      c = new HttpsClient(cp().credentials, { maxSockets: 8 });
      for (const [path, body] of [
        ['/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }],
        [`/api/v1/namespaces/${NS}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sweep-sa' } }],
      ] as const) {
        const r = await c.json('POST', path, body);
        assert.equal(r.status, 201, JSON.stringify(r.body));
      }
    });
    after(() => c.close());

    it("every field replaced by every JSON type or a prototype key: a success, a 4xx Status or kube's own 500, never one of ours", async (t) => {
      const failures: string[] = [];
      let sent = 0;
      for (const k of KINDS) {
        const name = k.name ?? `sweep-${k.kind.toLowerCase()}`;
        const valid = manifest(k, name);
        if (k.createOnly !== true) {
          const created = await c.json('POST', k.collection, valid);
          assert.equal(created.status, 201, `${k.kind}: ${JSON.stringify(created.body)}`);
        }
        const swept = await sweepObject(c, { collection: k.collection, name, valid, createOnly: k.createOnly === true, ...(k.status !== undefined ? { status: k.status } : {}) });
        sent += swept.sent;
        failures.push(...swept.failures);
      }
      t.diagnostic(`${sent} requests`);
      assert.deepEqual(failures.slice(0, 40), [], `${failures.length} of ${sent} answers were neither a success, a 4xx Status nor kube's own 500`);
      await assertStillServing(c, () => cp().exited());
    });

    const causes = (body: Obj): string[] =>
      ((body['details'] as { causes?: Array<{ field?: string; message?: string }> } | undefined)?.causes ?? []).map((x) => `${x.field ?? ''}: ${x.message ?? ''}`);

    it("what the sweep's 500s became: Go's zero values, then kube's answers", async () => {
      // A null Service port is the zero ServicePort, defaulted (protocol TCP, targetPort = port).
      const svc = await c.json('POST', `/api/v1/namespaces/${NS}/services?dryRun=All`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'null-port' }, spec: { ports: [null] } });
      assert.deepEqual(
        [svc.status, causes(svc.body)],
        [422, ['spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive', 'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive']],
      );
      // A selector requirement without a key or operator has Go's "" for both.
      const cr = await c.json('POST', `/apis/${rbac}/clusterroles?dryRun=All`, {
        apiVersion: rbac,
        kind: 'ClusterRole',
        metadata: { name: 'empty-req' },
        aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{}] }] },
      });
      assert.equal(cr.status, 422, JSON.stringify(cr.body));
      assert.deepEqual(causes(cr.body).slice(0, 2), [
        'aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator: Invalid value: "": not a valid selector operator',
        'aggregationRule.clusterRoleSelectors[0].matchExpressions[0].key: Invalid value: "": name part must be non-empty',
      ]);
      // A TokenRequest's metadata is decoded into ObjectMeta like any typed kind's.
      const tr = await c.json('POST', `/api/v1/namespaces/${NS}/serviceaccounts/sweep-sa/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: 'x', spec: {} });
      assert.deepEqual(
        [tr.status, tr.body['message']],
        [400, 'TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal string into Go struct field TokenRequest.metadata of type v1.ObjectMeta'],
      );
      // A CRD schema's nulls: a null property is the zero schema, a null bound none, a null list
      // item of items the zero schema, a null rule the zero rule.
      const schema = {
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            properties: { size: null, n: { type: 'integer', minimum: null }, tags: { type: 'array', items: [null] } },
            'x-kubernetes-validations': [null, { rule: null }],
          },
        },
      };
      const crd = await c.json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?dryRun=All', {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'nulls.sweep.example.com' },
        spec: {
          group: 'sweep.example.com',
          scope: 'Namespaced',
          names: { plural: 'nulls', kind: 'Null' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
        },
      });
      const at = 'spec.validation.openAPIV3Schema.properties[spec]';
      assert.deepEqual(
        [crd.status, causes(crd.body)],
        [
          422,
          [
            `${at}.properties[size].type: Required value: must not be empty for specified object fields`,
            `${at}.properties[tags].items: Required value: must be specified`,
            `${at}.properties[tags].items: Forbidden: items must be a schema object and not an array`,
            `${at}.x-kubernetes-validations[0].rule: Required value: rule is not specified`,
            `${at}.x-kubernetes-validations[1].rule: Required value: rule is not specified`,
          ],
        ],
      );
    });
  },
  { only: ['sqlite'] },
);
