// Answers a client sees that must be kube-apiserver's, code, reason and wording (issue 12's
// client-visible mismatches), over raw HTTPS against the control plane command on SQLite and
// etcd: updates without a resourceVersion, bodies of another kind, /version/, the 404s of unknown
// paths, credentials nobody accepts, generateName.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { cronTab, cronTabCRD, createEstablishedCRD } from '../apiextensions/env.js';
import { describeBackends } from './harness.js';
import { HttpsClient, asStatus, type StatusBody } from './https.js';
import { flunderV1beta1, uniqueName } from './objects.js';

type Obj = Record<string, unknown>;
type Meta = { name?: string; resourceVersion?: string; generateName?: string };
const meta = (o: Obj): Meta => (o['metadata'] ?? {}) as Meta;

const FLUNDERS = '/apis/wardle.example.com/v1beta1';
const FISCHERS = '/apis/wardle.example.com/v1alpha1/fischers';
const APISERVICES = '/apis/apiregistration.k8s.io/v1/apiservices';
/** A CRD group of this file's own, so that it runs beside the other files' CronTabs. */
const CR_GROUP = 'parity.example.com';
const CRONTABS = `/apis/${CR_GROUP}/v1/namespaces/default/crontabs`;

const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** Without metadata.resourceVersion: what a client that blindly overwrites sends. */
function withoutResourceVersion(o: Obj): Obj {
  const { resourceVersion: _rv, ...m } = meta(o) as Obj;
  return { ...o, metadata: m };
}

/** kube's registry Store: Invalid on the *resource* (kube's TODO), with Go's %#v of uint64 0. */
function unconditionalUpdateRefused(group: string, resource: string, name: string): Obj {
  const gr = group === '' ? resource : `${resource}.${group}`;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${gr} "${name}" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`,
    reason: 'Invalid',
    details: {
      name,
      ...(group === '' ? {} : { group }),
      kind: resource,
      causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' }],
    },
    code: 422,
  };
}

describeBackends('kube-apiserver parity', (cp) => {
  let c: HttpsClient;
  let ns: string;
  before(async () => {
    c = new HttpsClient(cp().credentials);
    ns = uniqueName('parity');
    const r = await c.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    await createEstablishedCRD(c, cronTabCRD({ group: CR_GROUP }), CRONTABS);
  });
  after(() => c.close());

  it('PUT without resourceVersion: 422 for Flunders, Fischers, APIServices, custom resources and their status; Namespaces and Services overwrite', async () => {
    const flunder = await c.json('POST', `${FLUNDERS}/namespaces/${ns}/flunders`, flunderV1beta1.manifest(uniqueName('fl'), ns));
    assert.equal(flunder.status, 201, JSON.stringify(flunder.body));
    const fname = meta(flunder.body).name!;
    const put = await c.json('PUT', `${FLUNDERS}/namespaces/${ns}/flunders/${fname}`, withoutResourceVersion(flunder.body));
    assert.equal(put.status, 422);
    assert.deepEqual(put.body, unconditionalUpdateRefused('wardle.example.com', 'flunders', fname));
    const status = await c.json('PUT', `${FLUNDERS}/namespaces/${ns}/flunders/${fname}/status`, withoutResourceVersion(flunder.body));
    assert.deepEqual(status.body, unconditionalUpdateRefused('wardle.example.com', 'flunders', fname));

    const fischer = await c.json('POST', FISCHERS, { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name: uniqueName('fi') }, disallowedFlunders: [] });
    assert.equal(fischer.status, 201, JSON.stringify(fischer.body));
    const fiName = meta(fischer.body).name!;
    const fiPut = await c.json('PUT', `${FISCHERS}/${fiName}`, withoutResourceVersion(fischer.body));
    assert.deepEqual(fiPut.body, unconditionalUpdateRefused('wardle.example.com', 'fischers', fiName));

    const apiServiceName = 'v1alpha1.wardle.example.com';
    const apiService = await c.json('GET', `${APISERVICES}/${apiServiceName}`);
    assert.equal(apiService.status, 200, JSON.stringify(apiService.body));
    const asPut = await c.json('PUT', `${APISERVICES}/${apiServiceName}`, withoutResourceVersion(apiService.body));
    assert.deepEqual(asPut.body, unconditionalUpdateRefused('apiregistration.k8s.io', 'apiservices', apiServiceName));

    const ct = await c.json('POST', CRONTABS, cronTab('ct1', undefined, `${CR_GROUP}/v1`));
    assert.equal(ct.status, 201, JSON.stringify(ct.body));
    const ctPut = await c.json('PUT', `${CRONTABS}/ct1`, withoutResourceVersion(ct.body));
    assert.deepEqual(ctPut.body, unconditionalUpdateRefused(CR_GROUP, 'crontabs', 'ct1'));
    const ctStatus = await c.json('PUT', `${CRONTABS}/ct1/status`, withoutResourceVersion({ ...ct.body, status: { replicas: 1 } }));
    assert.deepEqual(ctStatus.body, unconditionalUpdateRefused(CR_GROUP, 'crontabs', 'ct1'));
    // With the resourceVersion it read, the same write goes through.
    assert.equal((await c.json('PUT', `${CRONTABS}/ct1`, ct.body)).status, 200);

    const namespace = await c.json('GET', `/api/v1/namespaces/${ns}`);
    const nsPut = await c.json('PUT', `/api/v1/namespaces/${ns}`, withoutResourceVersion({ ...namespace.body, metadata: { ...meta(namespace.body), labels: { overwritten: 'yes' } } }));
    assert.equal(nsPut.status, 200, JSON.stringify(nsPut.body));
    assert.notEqual(meta(nsPut.body).resourceVersion, meta(namespace.body).resourceVersion);
    const svc = await c.json('POST', `/api/v1/namespaces/${ns}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 's1' }, spec: { ports: [{ name: 'http', port: 80 }] } });
    assert.equal(svc.status, 201, JSON.stringify(svc.body));
    const svcPut = await c.json('PUT', `/api/v1/namespaces/${ns}/services/s1`, withoutResourceVersion(svc.body));
    assert.equal(svcPut.status, 200, JSON.stringify(svcPut.body));
  });

  it("RBAC kinds are validated by kube's rules alone, in its words: no schema enum or required field stands in front", async () => {
    const role = await c.json('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: uniqueName('agg') },
      aggregationRule: {
        clusterRoleSelectors: [
          {
            matchExpressions: [
              { key: 'a', operator: 'Foo', values: ['x'] },
              { key: 'b', operator: 'In' },
            ],
          },
        ],
      },
    });
    const at = 'aggregationRule.clusterRoleSelectors[0]';
    assert.deepEqual(
      [role.status, (((role.body as unknown as StatusBody).details?.causes ?? []) as Obj[]).map((x) => `${String(x['field'])}: ${String(x['message'])}`)],
      [
        422,
        [
          `${at}.matchExpressions[0].operator: Invalid value: "Foo": not a valid selector operator`,
          `${at}.matchExpressions[1].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
          `${at}: Invalid value: "null": invalid label selector.`,
        ],
      ],
    );
    // No roleRef: Go's zero RoleRef, its apiGroup defaulted (SetDefaults_RoleBinding, as the User's),
    // the rest refused field by field (the schema would have said "roleRef: Required value").
    const binding = await c.json('POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'no-roleref' },
      subjects: [{ kind: 'User', name: 'u' }],
    });
    assert.equal(binding.status, 422);
    assert.equal(
      (binding.body as unknown as StatusBody).message,
      'RoleBinding.rbac.authorization.k8s.io "no-roleref" is invalid: [roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole", roleRef.name: Required value]',
    );
  });

  it("finalizers: core's ObjectMeta rules for core and RBAC kinds (unqualified non-standard names refused), a Namespace's spec and status as ValidateNamespace*", async () => {
    const kube = (i: number, name: string): string => `metadata.finalizers[${i}]: Invalid value: "${name}": name is neither a standard finalizer name nor is it fully qualified`;
    const causes = (body: Obj): string[] => (((body as unknown as StatusBody).details?.causes ?? []) as Obj[]).map((x) => `${String(x['field'])}: ${String(x['message'])}`);
    const cm = await c.json('POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fin', finalizers: ['kubernetes', 'example.com/ok', 'mine'] } });
    assert.deepEqual([cm.status, causes(cm.body)], [422, [kube(2, 'mine')]]);
    const role = await c.json('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: uniqueName('fin'), finalizers: ['mine'] },
    });
    assert.deepEqual([role.status, causes(role.body)], [422, [kube(0, 'mine')]]);
    const ep = await c.json('POST', `/api/v1/namespaces/${ns}/endpoints`, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'fin', finalizers: ['mine'] } });
    assert.deepEqual([ep.status, causes(ep.body)], [422, [kube(0, 'mine')]]);
    // An update reports it twice, as kube's ValidateConfigMapUpdate (ObjectMetaUpdate, then ValidateConfigMap).
    const ok = await c.json('POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fin2' } });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    const patched = await c.json('PATCH', `/api/v1/namespaces/${ns}/configmaps/fin2`, { metadata: { finalizers: ['mine'] } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.deepEqual([patched.status, causes(patched.body)], [422, [kube(0, 'mine'), kube(0, 'mine')]]);
    // A Namespace's spec.finalizers: a qualified name, then kube's rule, at spec.finalizers.
    const nsName = uniqueName('fin');
    const bad = await c.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: nsName }, spec: { finalizers: ['a b'] } });
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    assert.deepEqual(causes(bad.body), [
      "spec.finalizers: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'spec.finalizers: Invalid value: "a b": name is neither a standard finalizer name nor is it fully qualified',
    ]);
    // Status: the phase follows deletionTimestamp, in kube's words (not the schema enum's).
    const created = await c.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: nsName } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const phase = await c.json('PATCH', `/api/v1/namespaces/${nsName}/status`, { status: { phase: 'Gone' } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.deepEqual([phase.status, causes(phase.body)], [422, ['status.Phase: Invalid value: "Gone": may only be \'Active\' if `deletionTimestamp` is empty']]);
  });

  it("[]byte fields decode as Go's base64: a string it refuses is the decoder's 400, or a patch's 422 on `patch`", async () => {
    const secret = await c.json('POST', `/api/v1/namespaces/${ns}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'b64' }, data: { a: 'YWJj', b: 'YQ' } });
    assert.deepEqual([secret.status, secret.body['message']], [400, 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 0']);
    const apiService = await c.json('POST', APISERVICES, {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1.b64.example.com' },
      spec: { group: 'b64.example.com', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1, caBundle: 'not base64!', service: { namespace: 'a', name: 'b' } },
    });
    assert.deepEqual([apiService.status, apiService.body['message']], [400, 'APIService in version "v1" cannot be handled as a APIService: illegal base64 data at input byte 3']);
    const ok = await c.json('POST', `/api/v1/namespaces/${ns}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'b64' }, data: { a: 'YWJj' } });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    const patched = await c.json('PATCH', `/api/v1/namespaces/${ns}/secrets/b64`, { data: { a: '*' } }, { 'Content-Type': 'application/merge-patch+json' });
    assert.equal(patched.status, 422, JSON.stringify(patched.body));
    assert.match(String(patched.body['message']), /^ "" is invalid: patch: Invalid value: ".*": illegal base64 data at input byte 0$/s);
  });

  it('/version/ is /version (the Python client asks for it)', async () => {
    const plain = await c.json('GET', '/version');
    const slash = await c.json('GET', '/version/');
    assert.equal(slash.status, 200);
    assert.deepEqual(slash.body, plain.body);
    assert.equal(slash.body['gitVersion'], plain.body['gitVersion']);
  });

  it('a bearer token nobody accepts is 401 (no token file configured); no credential, or a Basic header, is anonymous', async () => {
    const anonymous = new HttpsClient(cp().credentials, { anonymous: true });
    try {
      for (const authorization of ['Bearer anything', 'bearer anything', 'Bearer x y']) {
        const r = await anonymous.request({ path: '/version', headers: { Authorization: authorization } });
        assert.equal(r.status, 401, `${authorization}: ${r.text}`);
        assert.deepEqual(asStatus(r.text), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
      }
      // kube has had no password authenticator since 1.19: Basic is no credential at all, and an
      // empty bearer token is none either (bearertoken.New leaves both to the next authenticator).
      for (const authorization of [undefined, 'Basic YWRtaW46YWRtaW4=', 'Bearer ']) {
        const r = await anonymous.request({ path: '/version', headers: authorization === undefined ? {} : { Authorization: authorization } });
        assert.equal(r.status, 200, `${authorization ?? 'no credential'}: ${r.text}`);
      }
    } finally {
      anonymous.close();
    }
  });

  it('generateName is validated as a name prefix, with or without a name (422, generateName first)', async () => {
    const url = `${FLUNDERS}/namespaces/${ns}/flunders`;
    const both = await c.json('POST', url, { ...flunderV1beta1.manifest('ok-name', ns), metadata: { name: 'ok-name', generateName: 'Bad_' } });
    assert.equal(both.status, 422, JSON.stringify(both.body));
    assert.equal(both.body['message'], `Flunder.wardle.example.com "ok-name" is invalid: metadata.generateName: Invalid value: "Bad_": ${SUBDOMAIN}`);
    assert.deepEqual((both.body['details'] as { causes: unknown[] }).causes, [{ reason: 'FieldValueInvalid', message: `Invalid value: "Bad_": ${SUBDOMAIN}`, field: 'metadata.generateName' }]);

    const generated = await c.json('POST', url, { ...flunderV1beta1.manifest('', ns), metadata: { generateName: 'Bad-' } });
    assert.equal(generated.status, 422, JSON.stringify(generated.body));
    const causes = (generated.body['details'] as { causes: Array<{ field: string }> }).causes;
    assert.deepEqual(
      causes.map((x) => x.field),
      ['metadata.generateName', 'metadata.name'],
    );

    // A trailing dash is how prefixes end: valid, with or without a name.
    const named = await c.json('POST', url, { ...flunderV1beta1.manifest('named', ns), metadata: { name: 'named', generateName: 'fine-' } });
    assert.equal(named.status, 201, JSON.stringify(named.body));
    const dashed = await c.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { generateName: 'gen-' } });
    assert.equal(dashed.status, 201, JSON.stringify(dashed.body));
    assert.match(meta(dashed.body).name!, /^gen-[a-z0-9]{5}$/);
  });
  it('a body of another kind: 400 from the typed decoder for built-in kinds, 422 on kind for custom resources (create and update)', async () => {
    const services = `/api/v1/namespaces/${ns}/services`;
    const asNamespace = await c.json('POST', services, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'k1' } });
    assert.equal(asNamespace.status, 400);
    assert.deepEqual(asNamespace.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'BadRequest',
      code: 400,
      message: 'Namespace in version "v1" cannot be handled as a Service: converting (v1.Namespace) to (core.Service): unknown conversion',
    });
    const unknown = await c.json('POST', services, { apiVersion: 'v1', kind: 'Foo', metadata: { name: 'k1' } });
    assert.equal(unknown.status, 400);
    assert.match(String(unknown.body['message']), /^Foo in version "v1" cannot be handled as a Service: no kind "Foo" is registered for version "v1" in scheme "[^"]+"$/);

    const fl = await c.json('POST', `${FLUNDERS}/namespaces/${ns}/flunders`, flunderV1beta1.manifest('kinds', ns));
    assert.equal(fl.status, 201, JSON.stringify(fl.body));
    const asList = await c.json('PUT', `${FLUNDERS}/namespaces/${ns}/flunders/kinds`, { ...fl.body, kind: 'FlunderList' });
    assert.equal(asList.status, 400);
    assert.equal(asList.body['message'], 'FlunderList in version "v1beta1" cannot be handled as a Flunder: converting (v1beta1.FlunderList) to (wardle.Flunder): unknown conversion');

    // The kinds metav1.AddToGroupVersion registers in every scheme decode, then do not convert.
    const asStatus = await c.json('POST', services, { apiVersion: 'v1', kind: 'Status' });
    assert.equal(asStatus.body['message'], 'Status in version "v1" cannot be handled as a Service: converting (v1.Status) to (core.Service): unknown conversion');
    const clusterRoles = '/apis/rbac.authorization.k8s.io/v1/clusterroles';
    const asOptions = await c.json('POST', clusterRoles, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'DeleteOptions' });
    assert.equal(asOptions.status, 400);
    assert.equal(asOptions.body['message'], 'DeleteOptions in version "v1" cannot be handled as a ClusterRole: converting (v1.DeleteOptions) to (rbac.ClusterRole): unknown conversion');
    // Another group version: its kind decodes when the group has it (then the handler refuses the
    // version); a kind the version does not have is the decoder's error, as for the URL's version.
    const wrongVersion = await c.json('POST', clusterRoles, { apiVersion: 'v1', kind: 'ClusterRole', metadata: { name: 'k1' } });
    assert.equal(wrongVersion.status, 400);
    // kube-apiserver's groups share legacyscheme, named after where it is made.
    assert.equal(
      wrongVersion.body['message'],
      'ClusterRole in version "v1" cannot be handled as a ClusterRole: no kind "ClusterRole" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
    // legacyscheme holds every kube-apiserver group: another group's kind decodes, then has no
    // conversion to the URL's kind; the apiextensions server's scheme has no such kind.
    const roleAsService = await c.json('POST', `/api/v1/namespaces/${ns}/services`, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'k1' } });
    assert.equal(roleAsService.body['message'], 'ClusterRole in version "v1" cannot be handled as a Service: converting (v1.ClusterRole) to (core.Service): unknown conversion');
    const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    const roleAsCRD = await c.json('POST', crds, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'k1' } });
    assert.equal(
      roleAsCRD.body['message'],
      'ClusterRole in version "v1" cannot be handled as a CustomResourceDefinition: no kind "ClusterRole" is registered for version "rbac.authorization.k8s.io/v1" in scheme "pkg/apiserver/apiserver.go:53"',
    );
    const asFoo = await c.json('POST', crds, { apiVersion: 'apiextensions.k8s.io/v1', kind: 'Foo', metadata: { name: 'k1' } });
    assert.equal(
      asFoo.body['message'],
      'Foo in version "v1" cannot be handled as a CustomResourceDefinition: no kind "Foo" is registered for version "apiextensions.k8s.io/v1" in scheme "pkg/apiserver/apiserver.go:53"',
    );
    // kube-aggregator's APIServices decode with its own scheme (aggregatorscheme).
    const apiServiceAsFoo = await c.json('POST', APISERVICES, { apiVersion: 'apiregistration.k8s.io/v1', kind: 'Foo', metadata: { name: 'v1.k1' } });
    assert.equal(
      apiServiceAsFoo.body['message'],
      'Foo in version "v1" cannot be handled as a APIService: no kind "Foo" is registered for version "apiregistration.k8s.io/v1" in scheme "pkg/apiserver/scheme/scheme.go:32"',
    );
    const olderVersion = await c.json('POST', `${FLUNDERS}/namespaces/${ns}/flunders`, { ...flunderV1beta1.manifest('older', ns), apiVersion: 'wardle.example.com/v1alpha1' });
    assert.equal(olderVersion.body['message'], 'the API version in the data (wardle.example.com/v1alpha1) does not match the expected API version (wardle.example.com/v1beta1)');
    // A version the group no longer serves is still in kube's scheme (rbac's v1beta1 in 1.32's
    // legacyscheme, apiextensions' v1beta1): the body decodes, then the version is refused.
    const unserved = await c.json('POST', clusterRoles, { apiVersion: 'rbac.authorization.k8s.io/v1beta1', kind: 'ClusterRole', metadata: { name: 'k1' } });
    assert.equal(unserved.body['message'], 'the API version in the data (rbac.authorization.k8s.io/v1beta1) does not match the expected API version (rbac.authorization.k8s.io/v1)');
    const crdV1beta1 = await c.json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1beta1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'a.b.c' },
    });
    assert.equal(crdV1beta1.body['message'], 'the API version in the data (apiextensions.k8s.io/v1beta1) does not match the expected API version (apiextensions.k8s.io/v1)');
    // A version the group never had is in no scheme: the decoder fails before the version check.
    const neverRBAC = await c.json('POST', clusterRoles, { apiVersion: 'rbac.authorization.k8s.io/v2', kind: 'ClusterRole', metadata: { name: 'k1' } });
    assert.equal(neverRBAC.status, 400);
    assert.equal(
      neverRBAC.body['message'],
      'ClusterRole in version "v2" cannot be handled as a ClusterRole: no kind "ClusterRole" is registered for version "rbac.authorization.k8s.io/v2" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
    const neverFlunder = await c.json('POST', `${FLUNDERS}/namespaces/${ns}/flunders`, { ...flunderV1beta1.manifest('never', ns), apiVersion: 'wardle.example.com/v9' });
    assert.equal(neverFlunder.status, 400);
    assert.equal(
      neverFlunder.body['message'],
      'Flunder in version "v9" cannot be handled as a Flunder: no kind "Flunder" is registered for version "wardle.example.com/v9" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
    const olderKind = await c.json('POST', `${FLUNDERS}/namespaces/${ns}/flunders`, { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Fischer', metadata: { name: 'k1' } });
    assert.equal(olderKind.body['message'], 'Fischer in version "v1alpha1" cannot be handled as a Flunder: converting (v1alpha1.Fischer) to (wardle.Flunder): unknown conversion');

    const invalidKind = (name: string): Obj => ({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: `Foo.${CR_GROUP} "${name}" is invalid: kind: Invalid value: "Foo": must be CronTab`,
      details: { name, group: CR_GROUP, kind: 'Foo', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "Foo": must be CronTab', field: 'kind' }] },
    });
    const crCreate = await c.json('POST', CRONTABS, { ...cronTab('kinds', undefined, `${CR_GROUP}/v1`), kind: 'Foo' });
    assert.deepEqual(crCreate.body, invalidKind('kinds'));
    const created = await c.json('POST', CRONTABS, cronTab('kinds', undefined, `${CR_GROUP}/v1`));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const crUpdate = await c.json('PUT', `${CRONTABS}/kinds`, { ...created.body, kind: 'Foo' });
    assert.deepEqual(crUpdate.body, invalidKind('kinds'));
  });

  it('unknown paths: the route-less 404 Status below a served group or /api, plain-text 404 page not found elsewhere, NotFound naming a custom resource', async () => {
    const svc = await c.json('POST', `/api/v1/namespaces/${ns}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ok' }, spec: { ports: [{ name: 'http', port: 80 }] } });
    assert.equal(svc.status, 201, JSON.stringify(svc.body));
    const routeless = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      details: {},
      code: 404,
    };
    for (const path of [
      '/api/v1/foos',
      '/api/v1/foos/',
      `/api/v1/namespaces/${ns}/foos`,
      `/api/v1/namespaces/${ns}/services/ok/proxy/`,
      `/api/v1/namespaces/${ns}/services/ok/foo`,
      `/api/v1/namespaces/${ns}/services/ok/status/extra`,
      '/api/v9/pods',
      '/apis/wardle.example.com/v9/flunders',
      '/apis/wardle.example.com/v1beta1/foos',
      '/apis/apiregistration.k8s.io/v1/foos',
      '/apis/apiextensions.k8s.io/v9/customresourcedefinitions',
      '/version/extra',
    ]) {
      const r = await c.request({ path, headers: { Accept: 'application/json' } });
      assert.equal(r.status, 404, `${path}: ${r.text}`);
      assert.deepEqual(JSON.parse(r.text), routeless, path);
    }
    for (const path of [
      '/apis/nosuch.example.com',
      '/apis/nosuch.example.com/',
      '/apis/nosuch.example.com/v1',
      '/apis/nosuch.example.com/v1/foos',
      `/apis/${CR_GROUP}/v1/foos`,
      `/apis/${CR_GROUP}/v9/namespaces/default/crontabs`,
      '/nothing/here',
    ]) {
      const r = await c.request({ path, headers: { Accept: 'application/json' } });
      assert.equal(r.status, 404, `${path}: ${r.text}`);
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8', path);
      assert.equal(r.text, '404 page not found\n', path);
    }
    // A route that exists, for an object that does not, names the object.
    const missing = await c.json('GET', `/api/v1/namespaces/${ns}/services/nosuch/status`);
    assert.equal(missing.body['message'], 'services "nosuch" not found');
    // kube's CRD handler reads only the RequestInfo: an unknown subresource names the object.
    const crSub = await c.json('GET', `${CRONTABS}/any/foo`);
    assert.equal(crSub.status, 404);
    assert.deepEqual(crSub.body['details'], { name: 'any', group: CR_GROUP, kind: 'crontabs' });
    assert.equal(crSub.body['message'], `crontabs.${CR_GROUP} "any" not found`);
  });
});
