// Nulls where kube's Go decoding puts zero values, sent to the kinds whose Go-style validation is
// their whole validation (RBAC, Namespaces, APIServices): no schema refuses the nulls first, so
// each must reach the validation as Go's zero (a struct {}, "") and be answered with kube's 422,
// never a 500 from code that reads a property of null.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeBackends } from '../integration/harness.js';
import { HttpsClient, type StatusBody } from '../integration/https.js';

type Obj = Record<string, unknown>;

const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describeBackends('null list items of Go-validated kinds', (cp) => {
  let c: HttpsClient;
  before(() => {
    c = new HttpsClient(cp().credentials);
  });
  after(() => c.close());

  const causes = (body: Obj): string[] => ((body as unknown as StatusBody).details?.causes ?? []).map((x) => `${x.field ?? ''}: ${x.message ?? ''}`);

  it('RoleBinding: a null roleRef is the zero RoleRef (its apiGroup defaulted), a null subject the zero Subject', async () => {
    const r = await c.json('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'nulls' },
      roleRef: null,
      subjects: [null],
    });
    assert.deepEqual(
      [r.status, causes(r.body)],
      [
        422,
        [
          'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"',
          'roleRef.name: Required value',
          'subjects[0].name: Required value',
          'subjects[0].kind: Unsupported value: "": supported values: "ServiceAccount", "User", "Group"',
        ],
      ],
    );
  });

  it('ClusterRole: null rules, verbs, selectors and requirements are zero values', async () => {
    const r = await c.json('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'nulls' },
      rules: [null, { verbs: [null], apiGroups: [''], resources: ['pods'] }],
      aggregationRule: { clusterRoleSelectors: [null, { matchExpressions: [null] }] },
    });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    const selector = 'aggregationRule.clusterRoleSelectors[1]';
    assert.deepEqual(causes(r.body), [
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
      `${selector}.matchExpressions[0].operator: Invalid value: "": not a valid selector operator`,
      `${selector}.matchExpressions[0].key: Invalid value: "": name part must be non-empty`,
      `${selector}.matchExpressions[0].key: Invalid value: "": ${NAME_PART}`,
      `${selector}: Invalid value: "null": invalid label selector.`,
    ]);
  });

  it('Namespace: a null spec finalizer is the empty name, refused as kube refuses it', async () => {
    const r = await c.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'nulls' }, spec: { finalizers: [null] } });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.deepEqual(causes(r.body), [
      'spec.finalizers: Invalid value: "": name part must be non-empty',
      `spec.finalizers: Invalid value: "": ${NAME_PART}`,
      'spec.finalizers: Invalid value: "": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  it('APIService: null spec fields are zero values', async () => {
    const r = await c.json('POST', '/apis/apiregistration.k8s.io/v1/apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.nulls.example.com' },
      spec: { group: 'nulls.example.com', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1, service: { name: null, namespace: null, port: null } },
    });
    assert.deepEqual([r.status, causes(r.body)], [422, ['spec.service.namespace: Required value', 'spec.service.name: Required value']]);
  });
});
