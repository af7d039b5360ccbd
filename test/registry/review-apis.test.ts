// The review APIs' REST storages (runtime/controlplane/{authorization,authentication}): kube's
// pkg/apis/authorization/validation/validation_test.go and pkg/registry/authorization/util/
// helpers_test.go ported by name, the storages' create answers (subjectaccessreview/rest_test.go
// TestCreate and the other kinds), and that nothing but create is served. The server's
// authorizer, rule resolver and token authenticator are small in-test fakes (nothing is stored).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LocalSubjectAccessReview, SelfSubjectAccessReviewSpec, SubjectAccessReviewSpec, SubjectAccessReviewStatus } from '../../apis/authorization/v1/types.js';
import { namespaceLifecycle } from '../../runtime/admission/plugins/namespace-lifecycle.js';
import type { Attributes as AdmissionAttributes, ObjectLookup } from '../../runtime/admission/types.js';
import { isStatusError, newForbidden, type StatusError } from '../../runtime/apimachinery/errors/index.js';
import type { TokenAuthenticator } from '../../runtime/apimachinery/request/authenticator.js';
import type { Attributes, AuthorizationResult, Authorizer, RuleResolver } from '../../runtime/apimachinery/request/authorizer.js';
import type { UserInfo } from '../../runtime/apimachinery/request/types.js';
import { selfSubjectReviewStorage } from '../../runtime/controlplane/authentication/selfsubjectreview.js';
import { tokenReviewStorage } from '../../runtime/controlplane/authentication/tokenreview.js';
import { localSubjectAccessReviewStorage, selfSubjectAccessReviewStorage, subjectAccessReviewStorage } from '../../runtime/controlplane/authorization/access-reviews.js';
import { selfSubjectRulesReviewStorage } from '../../runtime/controlplane/authorization/rules-review.js';
import type { KubeObject, RequestContext, ValidateObjectFunc } from '../../runtime/registry/rest.js';
import type { RESTAuthContext } from '../../runtime/registry/types.js';
import { formatFieldError, type FieldError } from '../../runtime/apimachinery/validation/field.js';
import { authorizationAttributesFrom, type ReviewAttributes } from '../../runtime/controlplane/authorization/attributes.js';
import {
  validateLocalSubjectAccessReview,
  validateSelfSubjectAccessReview,
  validateSelfSubjectAccessReviewSpec,
  validateSubjectAccessReview,
  validateSubjectAccessReviewSpec,
} from '../../runtime/controlplane/authorization/validation.js';

const firstError = (errs: readonly FieldError[]): string => (errs[0] === undefined ? '' : formatFieldError(errs[0]));

function expectFirst(errs: readonly FieldError[], msg: string, name: string): void {
  assert.ok(errs.length > 0, `${name}: expected failure for ${JSON.stringify(msg)}`);
  assert.ok(firstError(errs).includes(msg), `${name}: unexpected error ${JSON.stringify(firstError(errs))}, expected ${JSON.stringify(msg)}`);
}

const IN_NOT_IN = "Required value: must be specified when `operator` is 'In' or 'NotIn'";
const EXISTS = "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'";

/** TestValidateSARSpec's error cases: each is also checked through the SAR and the local SAR, as kube does. */
const SAR_SPEC_ERRORS: readonly { name: string; obj: SubjectAccessReviewSpec; msg: string }[] = [
  { name: 'neither request', obj: { user: 'me' }, msg: 'exactly one of nonResourceAttributes or resourceAttributes must be specified' },
  { name: 'both requests', obj: { resourceAttributes: {}, nonResourceAttributes: {}, user: 'me' }, msg: 'cannot be specified in combination with resourceAttributes' },
  { name: 'no subject', obj: { resourceAttributes: {} }, msg: 'spec.user: Invalid value: "": at least one of user or group must be specified' },
  ...(['field', 'label'] as const).flatMap((kind) => {
    const sel = `spec.resourceAttributes.${kind}Selector`;
    const at = (requirements: object[]): SubjectAccessReviewSpec => ({ user: 'me', resourceAttributes: { [`${kind}Selector`]: { requirements } } });
    return [
      {
        name: `resource attributes: ${kind} selector specify both`,
        obj: { user: 'me', resourceAttributes: { [`${kind}Selector`]: { rawSelector: 'foo', requirements: [{}] } } },
        msg: `${sel}.rawSelector: Invalid value: "foo": may not specified at the same time as requirements`,
      },
      {
        name: `resource attributes: ${kind} selector specify neither`,
        obj: { user: 'me', resourceAttributes: { [`${kind}Selector`]: {} } },
        msg: `${sel}.requirements: Required value: when ${sel} is specified, requirements or rawSelector is required`,
      },
      { name: `resource attributes: ${kind} selector no value for in`, obj: at([{ key: 'k', operator: 'In', values: [] }]), msg: `${sel}.requirements[0].values: ${IN_NOT_IN}` },
      { name: `resource attributes: ${kind} selector no value for not in`, obj: at([{ key: 'k', operator: 'NotIn', values: [] }]), msg: `${sel}.requirements[0].values: ${IN_NOT_IN}` },
      { name: `resource attributes: ${kind} selector values for exists`, obj: at([{ key: 'k', operator: 'Exists', values: ['val'] }]), msg: `${sel}.requirements[0].values: ${EXISTS}` },
      { name: `resource attributes: ${kind} selector values for not exists`, obj: at([{ key: 'k', operator: 'DoesNotExist', values: ['val'] }]), msg: `${sel}.requirements[0].values: ${EXISTS}` },
    ];
  }),
  {
    name: 'resource attributes: field selector no key',
    obj: { user: 'me', resourceAttributes: { fieldSelector: { requirements: [{ key: '', operator: '' }] } } },
    msg: 'spec.resourceAttributes.fieldSelector.requirements[0].key: Required value: must be specified',
  },
  {
    name: 'resource attributes: label selector no key',
    obj: { user: 'me', resourceAttributes: { labelSelector: { requirements: [{ key: '', operator: '' as 'In' }] } } },
    msg: 'spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: "": name part must be non-empty',
  },
  {
    name: 'resource attributes: label selector invalid label name',
    obj: { user: 'me', resourceAttributes: { labelSelector: { requirements: [{ key: '()foo', operator: '' as 'In' }] } } },
    msg: `spec.resourceAttributes.labelSelector.requirements[0].key: Invalid value: "()foo": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
  },
];

describe('pkg/apis/authorization/validation', () => {
  test('TestValidateSARSpec', () => {
    const successCases: SubjectAccessReviewSpec[] = [
      { resourceAttributes: {}, user: 'me' },
      { nonResourceAttributes: {}, groups: ['my-group'] },
      { user: 'me', resourceAttributes: { fieldSelector: { rawSelector: '***foo' } } }, // field raw selector
      { user: 'me', resourceAttributes: { labelSelector: { rawSelector: '***foo' } } }, // label raw selector
      { user: 'me', resourceAttributes: { fieldSelector: { requirements: [{ key: 'k', operator: 'fake', values: ['val'] }] } } }, // unknown field operator
      { user: 'me', resourceAttributes: { labelSelector: { requirements: [{ key: 'k', operator: 'fake' as 'In', values: ['val'] }] } } }, // unknown label operator
    ];
    for (const spec of successCases) assert.deepEqual(validateSubjectAccessReviewSpec(spec, 'spec'), [], JSON.stringify(spec));

    for (const c of SAR_SPEC_ERRORS) {
      expectFirst(validateSubjectAccessReviewSpec(c.obj, 'spec'), c.msg, c.name);
      expectFirst(validateSubjectAccessReview({ spec: c.obj }), c.msg, c.name);
      expectFirst(validateLocalSubjectAccessReview({ spec: c.obj }), c.msg, c.name);
    }
  });

  test('TestValidateSelfSAR', () => {
    assert.deepEqual(validateSelfSubjectAccessReviewSpec({ resourceAttributes: {} }, 'spec'), []);
    const errorCases: { name: string; obj: SelfSubjectAccessReviewSpec; msg: string }[] = [
      { name: 'neither request', obj: {}, msg: 'exactly one of nonResourceAttributes or resourceAttributes must be specified' },
      { name: 'both requests', obj: { resourceAttributes: {}, nonResourceAttributes: {} }, msg: 'cannot be specified in combination with resourceAttributes' },
      {
        name: 'resource attributes: label selector specify both',
        obj: { resourceAttributes: { labelSelector: { rawSelector: 'foo', requirements: [{ key: '', operator: 'In' }] } } },
        msg: 'spec.resourceAttributes.labelSelector.rawSelector: Invalid value: "foo": may not specified at the same time as requirements',
      },
    ];
    for (const c of errorCases) {
      expectFirst(validateSelfSubjectAccessReviewSpec(c.obj, 'spec'), c.msg, c.name);
      expectFirst(validateSelfSubjectAccessReview({ spec: c.obj }), c.msg, c.name);
    }
  });

  test('TestValidateLocalSAR', () => {
    assert.deepEqual(validateLocalSubjectAccessReview({ spec: { resourceAttributes: {}, user: 'user' } }), []);
    const errorCases: { name: string; obj: LocalSubjectAccessReview; msg: string }[] = [
      { name: 'name', obj: { metadata: { name: 'a' }, spec: { resourceAttributes: {}, user: 'user' } }, msg: 'must be empty except for namespace' },
      { name: 'namespace conflict', obj: { metadata: { namespace: 'a' }, spec: { resourceAttributes: {}, user: 'user' } }, msg: 'must match metadata.namespace' },
      { name: 'nonresource', obj: { metadata: { namespace: 'a' }, spec: { nonResourceAttributes: {}, user: 'user' } }, msg: 'disallowed on this kind of request' },
      {
        name: 'resource attributes: label selector specify both',
        obj: { spec: { user: 'user', resourceAttributes: { labelSelector: { rawSelector: 'foo', requirements: [{ key: '', operator: 'In' }] } } } },
        msg: 'spec.resourceAttributes.labelSelector.rawSelector: Invalid value: "foo": may not specified at the same time as requirements',
      },
    ];
    for (const c of errorCases) expectFirst(validateLocalSubjectAccessReview(c.obj), c.msg, c.name);
  });

  test('metadata must be empty: zero values count as unset, managedFields are ignored, the field is metadata', () => {
    const spec: SubjectAccessReviewSpec = { resourceAttributes: {}, user: 'me' };
    assert.deepEqual(validateSubjectAccessReview({ metadata: { name: '', labels: {}, generation: 0, managedFields: [{ manager: 'kubectl' }] }, spec }), []);
    const errs = validateSubjectAccessReview({ metadata: { labels: { a: 'b' } }, spec });
    assert.deepEqual(
      errs.map((e) => [e.type, e.field, e.detail]),
      [['FieldValueInvalid', 'metadata', 'must be empty']],
    );
    assert.deepEqual(validateSelfSubjectAccessReview({ metadata: { generateName: 'x-' }, spec })[0]?.detail, 'must be empty');
    // Both union errors at kube 1.32's paths, and the missing user after them.
    assert.deepEqual(
      validateSubjectAccessReviewSpec({}, 'spec').map((e) => e.field),
      ['spec.resourceAttributes', 'spec.user'],
    );
  });
});

/** What a ReviewAttributes says, with selector requirements as plain data. */
function plain(r: ReviewAttributes): object {
  const sel = (s: { requirements: readonly object[]; error?: string } | undefined): object | undefined =>
    s === undefined ? undefined : { requirements: s.requirements.map((q) => ({ ...q })), ...(s.error === undefined ? {} : { error: s.error }) };
  return { attributes: r.attributes, ...(r.fieldSelector ? { fieldSelector: sel(r.fieldSelector) } : {}), ...(r.labelSelector ? { labelSelector: sel(r.labelSelector) } : {}) };
}

const NO_USER = { name: '', groups: [] };
const RESOURCE_ANY: Attributes = { user: NO_USER, verb: '', isResourceRequest: true, path: '', namespace: '', apiGroup: '', apiVersion: '*', resource: '', subresource: '', name: '' };

describe('pkg/registry/authorization/util', () => {
  test('TestResourceAttributesFrom: every field of ResourceAttributes reaches the attributes', () => {
    const out = authorizationAttributesFrom({ user: 'u', resourceAttributes: { namespace: 'n', verb: 'v', group: 'g', version: 'x', resource: 'r', subresource: 's', name: 'm' } });
    assert.deepEqual(out.attributes, {
      user: { name: 'u', groups: [] },
      verb: 'v',
      isResourceRequest: true,
      path: '',
      namespace: 'n',
      apiGroup: 'g',
      apiVersion: 'x',
      resource: 'r',
      subresource: 's',
      name: 'm',
    });
  });

  test('TestAuthorizationAttributesFrom', () => {
    const field = (fieldSelector: object, expected: object): [SubjectAccessReviewSpec, object] => [{ resourceAttributes: { fieldSelector } }, { attributes: RESOURCE_ANY, fieldSelector: expected }];
    const label = (labelSelector: object, expected: object): [SubjectAccessReviewSpec, object] => [{ resourceAttributes: { labelSelector } }, { attributes: RESOURCE_ANY, labelSelector: expected }];
    const freq = (key: string, operator: string, values: string[]) => ({ key, operator, values });
    const fr = (key: string, operator: string, values: string[]): object => ({ requirements: [freq(key, operator, values)] });
    const lr = (key: string, operator: string, values: string[]) => ({ key, operator, values });
    const labelRaw = `unable to parse requirement: <nil>: Invalid value: "&foo": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`;
    const cases: Record<string, [SubjectAccessReviewSpec, object]> = {
      nonresource: [
        { user: 'bob', groups: ['system:authenticated'], nonResourceAttributes: { verb: 'get', path: '/mypath' }, extra: { scopes: ['scope-a', 'scope-b'] } },
        {
          attributes: {
            user: { name: 'bob', groups: ['system:authenticated'], extra: { scopes: ['scope-a', 'scope-b'] } },
            verb: 'get',
            isResourceRequest: false,
            path: '/mypath',
            namespace: '',
            apiGroup: '',
            apiVersion: '',
            resource: '',
            subresource: '',
            name: '',
          },
        },
      ],
      resource: [
        { user: 'bob', resourceAttributes: { namespace: 'myns', verb: 'create', group: 'extensions', version: 'v1beta1', resource: 'deployments', subresource: 'scale', name: 'mydeployment' } },
        {
          attributes: {
            ...RESOURCE_ANY,
            user: { name: 'bob', groups: [] },
            apiGroup: 'extensions',
            apiVersion: 'v1beta1',
            namespace: 'myns',
            verb: 'create',
            resource: 'deployments',
            subresource: 'scale',
            name: 'mydeployment',
          },
        },
      ],
      'resource with no version': [
        { user: 'bob', resourceAttributes: { namespace: 'myns', verb: 'create', group: 'extensions', resource: 'deployments', subresource: 'scale', name: 'mydeployment' } },
        {
          attributes: {
            ...RESOURCE_ANY,
            user: { name: 'bob', groups: [] },
            apiGroup: 'extensions',
            namespace: 'myns',
            verb: 'create',
            resource: 'deployments',
            subresource: 'scale',
            name: 'mydeployment',
          },
        },
      ],
      'field: raw selector': field({ rawSelector: 'foo=bar' }, { requirements: [{ field: 'foo', operator: '=', value: 'bar' }] }),
      'field: raw selector error': field({ rawSelector: '&foo' }, { requirements: [], error: "invalid selector: '&foo'; can't understand '&foo'" }),
      'field: requirements': field(
        { requirements: [freq('one', 'In', ['apple']), freq('two', 'NotIn', ['banana'])] },
        {
          requirements: [
            { field: 'one', operator: '=', value: 'apple' },
            { field: 'two', operator: '!=', value: 'banana' },
          ],
        },
      ),
      'field: requirements too many values': field(fr('one', 'In', ['apple', 'other']), { requirements: [], error: 'fieldSelectors do not yet support multiple values' }),
      'field: requirements missing in value': field(fr('one', 'In', []), { requirements: [], error: 'fieldSelectors in must have one value' }),
      'field: requirements missing notin value': field(fr('one', 'NotIn', []), { requirements: [], error: 'fieldSelectors not in must have one value' }),
      'field: requirements exists': field(fr('one', 'Exists', []), { requirements: [], error: 'fieldSelectors do not yet support Exists' }),
      'field: requirements DoesNotExist': field(fr('one', 'DoesNotExist', []), { requirements: [], error: 'fieldSelectors do not yet support DoesNotExist' }),
      'field: requirements bad operator': field(fr('one', 'bad', []), { requirements: [], error: '"bad" is not a valid field selector operator' }),
      'label: raw selector': label({ rawSelector: 'foo=bar' }, { requirements: [lr('foo', '=', ['bar'])] }),
      'label: raw selector error': label({ rawSelector: '&foo' }, { requirements: [], error: labelRaw }),
      'label: requirements': label({ requirements: [lr('one', 'In', ['apple']), lr('two', 'NotIn', ['banana'])] }, { requirements: [lr('one', 'in', ['apple']), lr('two', 'notin', ['banana'])] }),
      'label: requirements multiple values': label(
        { requirements: [lr('one', 'In', ['apple', 'other']), lr('two', 'NotIn', ['carrot', 'donut'])] },
        { requirements: [lr('one', 'in', ['apple', 'other']), lr('two', 'notin', ['carrot', 'donut'])] },
      ),
      'label: requirements exists': label({ requirements: [lr('one', 'Exists', [])] }, { requirements: [lr('one', 'exists', [])] }),
      'label: requirements DoesNotExist': label({ requirements: [lr('one', 'DoesNotExist', [])] }, { requirements: [lr('one', '!', [])] }),
      'label: requirements bad operator': label({ requirements: [lr('one', 'bad', [])] }, { requirements: [], error: '"bad" is not a valid label selector operator' }),
    };
    for (const [name, [spec, want]] of Object.entries(cases)) assert.deepEqual(plain(authorizationAttributesFrom(spec)), want, name);
  });

  test('structured requirements: the usable ones are kept beside the errors of the rest (aggregated as Go does)', () => {
    const out = authorizationAttributesFrom({
      resourceAttributes: {
        fieldSelector: {
          requirements: [
            { key: 'a', operator: 'In', values: ['1'] },
            { key: 'b', operator: 'Exists' },
            { key: 'c', operator: 'Exists' },
            { key: 'd', operator: 'Nope' },
          ],
        },
      },
    });
    assert.deepEqual(plain(out), {
      attributes: RESOURCE_ANY,
      fieldSelector: { requirements: [{ field: 'a', operator: '=', value: '1' }], error: '[fieldSelectors do not yet support Exists, "Nope" is not a valid field selector operator]' },
    });
  });
});

// ---- The storages ----------------------------------------------------------------------------

const ALICE: UserInfo = { name: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] } };

function reqCtx(namespace = '', user: UserInfo = ALICE): RequestContext {
  const requestInfo = {
    isResourceRequest: true,
    path: '/',
    verb: 'create',
    apiPrefix: 'apis',
    apiGroup: 'authorization.k8s.io',
    apiVersion: 'v1',
    namespace,
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
  return { namespace, user, requestInfo, signal: new AbortController().signal, warn: () => {} };
}

/** An authorizer that answers one result (or rejects with one error) and remembers what it was asked. */
class RecordingAuthorizer implements Authorizer {
  asked: Attributes[] = [];
  constructor(private readonly result: AuthorizationResult | Error) {}
  authorize(attributes: Attributes): Promise<AuthorizationResult> {
    this.asked.push(attributes);
    return this.result instanceof Error ? Promise.reject(this.result) : Promise.resolve(this.result);
  }
}

function authContext(parts: Partial<RESTAuthContext>): RESTAuthContext {
  const unused = (): never => assert.fail('not used by the review storages');
  return {
    authorizer: { authorize: unused },
    ruleResolver: { rulesFor: unused },
    policyRuleResolver: { rulesFor: unused, getRoleReferenceRules: unused },
    tokenAuthenticator: { authenticateToken: unused, implicitAudiences: [] },
    ...parts,
  };
}

const admitAll: ValidateObjectFunc = () => Promise.resolve();
const WRITE = { dryRun: false, fieldManager: '' };

async function statusError(p: Promise<unknown>): Promise<StatusError> {
  const err = await p.then(
    () => assert.fail('expected an error'),
    (e: unknown) => e,
  );
  assert.ok(isStatusError(err), String(err));
  return err;
}

const sarObject = (spec: SubjectAccessReviewSpec, metadata?: Record<string, unknown>): KubeObject =>
  ({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', ...(metadata ? { metadata } : {}), spec }) as KubeObject;

describe('pkg/registry/authorization: the access review storages', () => {
  const deployment = { namespace: 'myns', verb: 'create', group: 'extensions', version: 'v1beta1', resource: 'deployments', subresource: 'scale', name: 'mydeployment' };
  const deploymentAttrs: Attributes = {
    ...RESOURCE_ANY,
    user: { name: 'bob', groups: [] },
    namespace: 'myns',
    verb: 'create',
    apiGroup: 'extensions',
    apiVersion: 'v1beta1',
    resource: 'deployments',
    subresource: 'scale',
    name: 'mydeployment',
  };
  const nonResourceAttrs: Attributes = { ...RESOURCE_ANY, user: { name: 'bob', groups: [] }, verb: 'get', isResourceRequest: false, path: '/mypath', apiVersion: '' };
  // Kube's authorizers return a decision with an error; an authorizer here that cannot decide rejects, which is no opinion with that error.
  const cases: Record<string, { spec: SubjectAccessReviewSpec; result: AuthorizationResult | Error; attrs: Attributes; status: SubjectAccessReviewStatus }> = {
    'nonresource rejected': {
      spec: { user: 'bob', nonResourceAttributes: { verb: 'get', path: '/mypath' } },
      result: new Error('myerror'),
      attrs: nonResourceAttrs,
      status: { allowed: false, evaluationError: 'myerror' },
    },
    'nonresource allowed': {
      spec: { user: 'bob', nonResourceAttributes: { verb: 'get', path: '/mypath' } },
      result: { decision: 'allow', reason: 'allowed' },
      attrs: nonResourceAttrs,
      status: { allowed: true, reason: 'allowed' },
    },
    'resource rejected': { spec: { user: 'bob', resourceAttributes: deployment }, result: new Error('myerror'), attrs: deploymentAttrs, status: { allowed: false, evaluationError: 'myerror' } },
    'resource no opinion': {
      spec: { user: 'bob', resourceAttributes: deployment },
      result: { decision: 'noOpinion', reason: 'myreason' },
      attrs: deploymentAttrs,
      status: { allowed: false, reason: 'myreason' },
    },
    'resource allowed': {
      spec: { user: 'bob', resourceAttributes: deployment },
      result: { decision: 'allow', reason: 'allowed' },
      attrs: deploymentAttrs,
      status: { allowed: true, reason: 'allowed' },
    },
    'resource denied': {
      spec: { user: 'bob', resourceAttributes: {} },
      result: { decision: 'deny', reason: '' },
      attrs: { ...RESOURCE_ANY, user: { name: 'bob', groups: [] } },
      status: { allowed: false, denied: true },
    },
    'resource denied, valid selectors': {
      spec: { user: 'bob', resourceAttributes: { fieldSelector: { rawSelector: 'foo=bar' }, labelSelector: { rawSelector: 'key=value' } } },
      result: { decision: 'deny', reason: '' },
      attrs: { ...RESOURCE_ANY, user: { name: 'bob', groups: [] } },
      status: { allowed: false, denied: true },
    },
    'resource denied, invalid selectors': {
      spec: { user: 'bob', resourceAttributes: { fieldSelector: { rawSelector: 'key in value' }, labelSelector: { rawSelector: '&' } } },
      result: { decision: 'deny', reason: '' },
      attrs: { ...RESOURCE_ANY, user: { name: 'bob', groups: [] } },
      status: { allowed: false, denied: true, evaluationError: 'spec.resourceAttributes.fieldSelector ignored due to parse error; spec.resourceAttributes.labelSelector ignored due to parse error' },
    },
  };

  test('TestCreate (subjectaccessreview)', async () => {
    const empty = await statusError(subjectAccessReviewStorage(authContext({})).main.create(reqCtx(), sarObject({}), admitAll, WRITE));
    assert.equal(empty.status.code, 422);
    assert.equal(
      empty.status.message,
      '.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
    );
    for (const [name, c] of Object.entries(cases)) {
      const authorizer = new RecordingAuthorizer(c.result);
      const out = await subjectAccessReviewStorage(authContext({ authorizer })).main.create(reqCtx(), sarObject(c.spec), admitAll, WRITE);
      assert.deepEqual(authorizer.asked, [c.attrs], name);
      assert.deepEqual(out.status, c.status, name);
    }
  });

  test('the answer is the review with its status: spec echoed, creationTimestamp null, a dry run answers the same, admission sees a copy', async () => {
    const storage = subjectAccessReviewStorage(authContext({ authorizer: new RecordingAuthorizer({ decision: 'allow', reason: 'ok' }) })).main;
    const spec = { user: 'bob', groups: ['g'], resourceAttributes: { verb: 'list', resource: 'pods' } };
    const seen: KubeObject[] = [];
    const admit: ValidateObjectFunc = (obj) => {
      seen.push(obj);
      (obj as { spec: { user: string } }).spec.user = 'mallory';
      return Promise.resolve();
    };
    const want = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: { creationTimestamp: null }, spec, status: { allowed: true, reason: 'ok' } };
    assert.deepEqual(await storage.create(reqCtx(), sarObject(structuredClone(spec)), admit, WRITE), want);
    assert.deepEqual(await storage.create(reqCtx(), sarObject(structuredClone(spec)), admitAll, { dryRun: true, fieldManager: '' }), want);
    assert.equal(seen.length, 1);
    const refused = await statusError(
      storage.create(reqCtx(), sarObject(spec), () => Promise.reject(newForbidden({ group: 'authorization.k8s.io', resource: 'subjectaccessreviews' }, '', 'no')), WRITE),
    );
    assert.equal(refused.status.code, 403);
    const named = await statusError(storage.create(reqCtx(), sarObject(spec, { name: 'x' }), admitAll, WRITE));
    assert.equal(named.status.message, '.authorization.k8s.io "" is invalid: metadata: Invalid value: {"name":"x"}: must be empty');
  });

  test('SelfSubjectAccessReview asks about the requesting user', async () => {
    const authorizer = new RecordingAuthorizer({ decision: 'allow', reason: 'RBAC: allowed' });
    const storage = selfSubjectAccessReviewStorage(authContext({ authorizer })).main;
    const out = await storage.create(reqCtx(), { kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'create', resource: 'namespaces' } } }, admitAll, WRITE);
    assert.deepEqual(out.status, { allowed: true, reason: 'RBAC: allowed' });
    assert.deepEqual(authorizer.asked, [{ ...RESOURCE_ANY, user: ALICE, verb: 'create', resource: 'namespaces' }]);
    await storage.create(reqCtx(), { spec: { nonResourceAttributes: { verb: 'get', path: '/healthz' } } }, admitAll, WRITE);
    assert.deepEqual(authorizer.asked[1], { ...RESOURCE_ANY, user: ALICE, verb: 'get', isResourceRequest: false, path: '/healthz', apiVersion: '' });
    const both = await statusError(storage.create(reqCtx(), { spec: { resourceAttributes: {}, nonResourceAttributes: {} } }, admitAll, WRITE));
    assert.equal(both.status.message, '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: {}: cannot be specified in combination with resourceAttributes');
  });

  test('LocalSubjectAccessReview: the namespace of the URL, the metadata and the spec agree', async () => {
    const authorizer = new RecordingAuthorizer({ decision: 'noOpinion', reason: '' });
    const storage = localSubjectAccessReviewStorage(authContext({ authorizer })).main;
    const lsar = (ns: string, specNs: string): KubeObject => ({ metadata: { namespace: ns }, spec: { user: 'bob', resourceAttributes: { namespace: specNs, verb: 'get', resource: 'pods' } } });
    const out = await storage.create(reqCtx('team'), lsar('team', 'team'), admitAll, WRITE);
    assert.deepEqual(out.metadata, { namespace: 'team', creationTimestamp: null });
    assert.deepEqual(out.status, { allowed: false });
    assert.equal(authorizer.asked[0]?.namespace, 'team');
    const mismatch = await statusError(storage.create(reqCtx('team'), lsar('team', 'other'), admitAll, WRITE));
    assert.equal(mismatch.status.message, '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace');
    const url = await statusError(storage.create(reqCtx('team'), lsar('other', 'other'), admitAll, WRITE));
    assert.deepEqual([url.status.code, url.status.message], [400, 'spec.resourceAttributes.namespace must match namespace: team']);
  });

  test('SelfSubjectRulesReview: a new review with the resolver rules of the requesting user in spec.namespace', async () => {
    const asked: [UserInfo, string][] = [];
    const ruleResolver: RuleResolver = {
      rulesFor: (user, namespace) => {
        asked.push([user, namespace]);
        return Promise.resolve({
          resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }],
          nonResourceRules: [
            { verbs: ['get'], nonResourceURLs: ['/healthz'] },
            { verbs: ['*'], nonResourceURLs: [] },
          ],
          incomplete: false,
          evaluationError: '',
        });
      },
    };
    const storage = selfSubjectRulesReviewStorage(authContext({ ruleResolver })).main;
    const out = await storage.create(
      reqCtx(),
      { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', metadata: { labels: { a: 'b' } }, spec: { namespace: 'ns1' } },
      admitAll,
      WRITE,
    );
    assert.deepEqual(out, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: { creationTimestamp: null },
      spec: {},
      status: { resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }, { verbs: ['*'] }], incomplete: false },
    });
    assert.deepEqual(asked, [[ALICE, 'ns1']]);
    const none = await statusError(storage.create(reqCtx(), { spec: {} }, admitAll, WRITE));
    assert.deepEqual([none.status.code, none.status.message], [400, 'no namespace on request']);
    const failing = selfSubjectRulesReviewStorage(authContext({ ruleResolver: { rulesFor: () => Promise.reject(new Error('store down')) } })).main;
    assert.deepEqual((await failing.create(reqCtx(), { spec: { namespace: 'x' } }, admitAll, WRITE)).status, {
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: 'store down',
    });
  });
});

describe('pkg/registry/authentication: TokenReview and SelfSubjectReview', () => {
  const bob: UserInfo = { name: 'bob', uid: '42', groups: ['devs'], extra: { 'example.com/team': ['x'] } };
  const tokens = (known: Record<string, { user: UserInfo; audiences: string[] }>, asked: (readonly string[])[] = []): TokenAuthenticator => ({
    implicitAudiences: ['https://kubernetes.default.svc'],
    authenticateToken: (token, audiences) => {
      asked.push(audiences);
      if (token === 'broken') return Promise.reject(new Error('token store unavailable'));
      return Promise.resolve(Object.hasOwn(known, token) ? known[token] : undefined);
    },
  });
  const review = (spec: object): KubeObject => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec });

  test('a token answers who it is, for which audiences; a bad one is an unauthenticated answer, an error is status.error', async () => {
    const asked: (readonly string[])[] = [];
    const storage = tokenReviewStorage(
      authContext({ tokenAuthenticator: tokens({ good: { user: bob, audiences: ['https://kubernetes.default.svc'] }, api: { user: bob, audiences: ['api'] } }, asked) }),
    ).main;
    const out = await storage.create(reqCtx(), review({ token: 'good' }), admitAll, WRITE);
    assert.deepEqual(out, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      metadata: { creationTimestamp: null },
      spec: { token: 'good' },
      status: { authenticated: true, user: { username: 'bob', uid: '42', groups: ['devs'], extra: { 'example.com/team': ['x'] } }, audiences: ['https://kubernetes.default.svc'] },
    });
    assert.deepEqual((await storage.create(reqCtx(), review({ token: 'api', audiences: ['api', 'other'] }), admitAll, WRITE)).status, {
      authenticated: true,
      user: { username: 'bob', uid: '42', groups: ['devs'], extra: { 'example.com/team': ['x'] } },
      audiences: ['api'],
    });
    assert.deepEqual(asked, [['https://kubernetes.default.svc'], ['api', 'other']]);
    assert.deepEqual((await storage.create(reqCtx(), review({ token: 'unknown' }), admitAll, WRITE)).status, { user: {} });
    assert.deepEqual((await storage.create(reqCtx(), review({ token: 'broken' }), admitAll, WRITE)).status, { user: {}, error: 'token store unavailable' });
    const wrongAudience = await statusError(storage.create(reqCtx(), review({ token: 'api', audiences: ['elsewhere'] }), admitAll, WRITE));
    assert.deepEqual([wrongAudience.status.code, wrongAudience.status.message], [500, 'Internal error occurred: error validating audiences']);
  });

  test('a token is required, and the review is cluster-scoped', async () => {
    const storage = tokenReviewStorage(authContext({})).main;
    const noToken = await statusError(storage.create(reqCtx(), review({}), admitAll, WRITE));
    assert.deepEqual([noToken.status.code, noToken.status.message], [400, 'token is required for TokenReview in authentication']);
    const namespaced = await statusError(storage.create(reqCtx('default'), review({ token: 't' }), admitAll, WRITE));
    assert.deepEqual([namespaced.status.code, namespaced.status.message], [400, 'namespace is not allowed on this type: default']);
  });

  test('SelfSubjectReview: the requesting user, stamped with the time of the answer', async () => {
    const storage = selfSubjectReviewStorage(() => new Date('2026-11-26T01:02:03.456Z')).main;
    const out = await storage.create(reqCtx(), { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: { name: 'ignored' } }, admitAll, WRITE);
    assert.deepEqual(out, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'SelfSubjectReview',
      metadata: { creationTimestamp: '2026-11-26T01:02:03Z' },
      status: { userInfo: { username: 'alice', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] } } },
    });
    const anonymous = await storage.create(reqCtx('', { name: 'system:anonymous', groups: ['system:unauthenticated'] }), {}, admitAll, WRITE);
    assert.deepEqual(anonymous.status, { userInfo: { username: 'system:anonymous', groups: ['system:unauthenticated'] } });
  });
});

describe('the review storages serve create only and store nothing', () => {
  test('every other verb is MethodNotSupported; without the server auth context a create is a 500 that says why', async () => {
    const main = subjectAccessReviewStorage(undefined).main;
    const ctx = reqCtx();
    const calls: [string, Promise<unknown>][] = [
      ['get', main.get(ctx, 'x', { resourceVersion: '' })],
      ['update', main.update(ctx, 'x', { preconditions: () => undefined, updatedObject: () => Promise.resolve({}) }, { create: admitAll, update: admitAll }, { ...WRITE, forceAllowCreate: false })],
      ['delete', main.delete(ctx, 'x', admitAll, { dryRun: false, gracePeriodSeconds: undefined, preconditions: undefined, propagationPolicy: undefined, orphanDependents: undefined })],
    ];
    for (const [verb, p] of calls) {
      const err = await statusError(p);
      assert.deepEqual(
        [err.status.code, err.status.reason, err.status.message],
        [405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "subjectaccessreviews.authorization.k8s.io"`],
      );
    }
    const noAuth = await statusError(main.create(ctx, sarObject({ user: 'u', resourceAttributes: {} }), admitAll, WRITE));
    assert.deepEqual([noAuth.status.code, noAuth.status.message], [500, "Internal error occurred: SubjectAccessReview needs the server's authenticator and authorizer, and this server has none"]);
  });
});

describe('NamespaceLifecycle and access reviews', () => {
  test('a LocalSubjectAccessReview is admitted in any namespace, existing or not (kube: no leak of whether it exists)', async () => {
    const lookup: ObjectLookup = { get: () => Promise.resolve(undefined), getCached: () => Promise.resolve(undefined), list: () => Promise.resolve([]) };
    const plugin = namespaceLifecycle(lookup);
    const ctx = { signal: new AbortController().signal };
    const review = {
      operation: 'CREATE',
      namespace: 'nowhere',
      name: '',
      group: 'authorization.k8s.io',
      resource: 'localsubjectaccessreviews',
      kind: 'LocalSubjectAccessReview',
    } as AdmissionAttributes;
    await plugin.admit(review, ctx);
    await assert.rejects(plugin.admit({ ...review, group: '', resource: 'configmaps', kind: 'ConfigMap' }, ctx), (e: unknown) => isStatusError(e) && e.status.code === 404);
  });
});
