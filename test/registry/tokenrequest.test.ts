// The TokenRequest subresource (`serviceaccounts/<name>/token`): kube 1.32's ValidateTokenRequest
// (pkg/apis/authentication/validation) and TokenREST.Create (pkg/registry/core/serviceaccount/
// storage/token.go, its storage_test.go TestCreate_Token_WithExpiryCap cases by name) over a real
// generic ServiceAccount store on SQLite, with a fake issuer that records the claims it is asked to
// sign; then the route as the installer serves it (decoding, defaulting, admission, 201), its
// discovery and OpenAPI entries, and no route at all without an issuer.
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { TokenRequest } from '../../apis/authentication/v1/types.js';
import { authenticationV1Protobuf } from '../../generated/protobuf/authentication/v1.js';
import { coreGroup } from '../../generated/registry/core.js';
import { newAdmissionChain, type AdmissionPlugin, type Attributes } from '../../runtime/admission/types.js';
import { isStatusError, newForbidden, newNotFound, type StatusError } from '../../runtime/apimachinery/errors/index.js';
import type { ServiceAccountTokenClaims, ServiceAccountTokenIssuer } from '../../runtime/apimachinery/request/authenticator.js';
import { adaptRequest } from '../../runtime/apimachinery/request/http.js';
import { resolveRequestInfo } from '../../runtime/apimachinery/request/requestinfo.js';
import { registerProtobufPackage } from '../../runtime/apimachinery/serializer/protobuf/builtin.js';
import { formatFieldError } from '../../runtime/apimachinery/validation/field.js';
import { serviceAccountStorage } from '../../runtime/controlplane/serviceaccount/rest.js';
import { TokenREST } from '../../runtime/controlplane/serviceaccount/token.js';
import { validateTokenRequest } from '../../runtime/controlplane/serviceaccount/validation.js';
import { installAPIGroupVersion } from '../../runtime/endpoints/installer.js';
import { createResourceStorage, formatTime } from '../../runtime/registry/generic/index.js';
import { ResourceRegistry } from '../../runtime/registry/resources.js';
import type { KubeObject, ResourceStorage, ValidateObjectFunc } from '../../runtime/registry/rest.js';
import type { APIGroupDefinition, CreateSubresource, RESTAuthContext } from '../../runtime/registry/types.js';
import { discoveryFromGroupDefinition } from '../../runtime/server/discovery/index.js';
import { openAPIFromGroupDefinition, toSwaggerV2 } from '../../runtime/server/openapi/index.js';
import { allow, ctx, newEnv, write, type Env } from './helpers.js';

/** A fake TokenGenerator: the token carries the claims, so tests read back what was signed. */
class FakeIssuer implements ServiceAccountTokenIssuer {
  readonly issued: ServiceAccountTokenClaims[] = [];
  constructor(
    readonly defaultAudiences: readonly string[] = ['https://kubernetes.default.svc'],
    readonly maxExpirationSeconds = 0,
    private readonly now: () => Date = () => new Date(),
  ) {}
  async issue(claims: ServiceAccountTokenClaims): Promise<{ token: string; expirationTimestamp: string }> {
    this.issued.push(claims);
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { token: `fake.${payload}.fake`, expirationTimestamp: formatTime(new Date(this.now().getTime() + claims.expirationSeconds * 1000)) };
  }
}

const tokenRequest = (spec: Partial<TokenRequest['spec']> = {}, metadata: TokenRequest['metadata'] = {}): KubeObject =>
  ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata, spec: { audiences: [], expirationSeconds: 3600, ...spec } }) as unknown as KubeObject;

async function rejects(p: Promise<unknown>, code: number, message: string): Promise<StatusError> {
  const err = await p.then(
    () => assert.fail('expected an error'),
    (e: unknown) => e,
  );
  assert.ok(isStatusError(err), String(err));
  assert.equal(err.status.message, message);
  assert.equal(err.code, code);
  return err;
}

/** A core group that serves pods too (a preserve-unknown-fields schema), so bound objects can be found. */
const podGroup: APIGroupDefinition = {
  name: '',
  hubVersion: 'v1',
  storageVersion: 'v1',
  versions: [
    {
      name: 'v1',
      openapi: { components: { schemas: {} } },
      resources: [
        {
          kind: 'Pod',
          listKind: 'PodList',
          plural: 'pods',
          singular: 'pod',
          shortNames: [],
          categories: [],
          namespaced: true,
          verbs: ['create', 'get'],
          subresources: { status: false },
          printerColumns: [],
          selectableFields: [],
          schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          openapiDefinition: 'io.k8s.api.core.v1.Pod',
        },
      ],
    },
  ],
};

describe('ValidateTokenRequest', () => {
  const cases: readonly { name: string; seconds: number | undefined; error?: string }[] = [
    { name: 'ten minutes', seconds: 600 },
    { name: 'an hour', seconds: 3600 },
    { name: '2^32 seconds', seconds: 2 ** 32 },
    { name: 'less than ten minutes', seconds: 599, error: 'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes' },
    { name: 'unset (Go zero)', seconds: undefined, error: 'spec.expirationSeconds: Invalid value: 0: may not specify a duration less than 10 minutes' },
    { name: 'larger than 2^32 seconds', seconds: 2 ** 32 + 1, error: 'spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds' },
  ];
  for (const c of cases) {
    test(c.name, () => {
      const spec = c.seconds === undefined ? { audiences: [] } : { audiences: [], expirationSeconds: c.seconds };
      const errs = validateTokenRequest({ spec } as unknown as TokenRequest);
      assert.deepEqual(errs.map(formatFieldError), c.error === undefined ? [] : [c.error]);
    });
  }
});

describe('TokenREST.Create', () => {
  let env: Env;
  let serviceAccounts: ResourceStorage;
  let pods: ResourceStorage;
  let registry: ResourceRegistry;
  let saUID: string;
  let podUID: string;

  before(async () => {
    env = await newEnv();
    serviceAccounts = await env.storages(coreGroup, 'ServiceAccount');
    const sa = await serviceAccounts.main.create(ctx('default'), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'foo', namespace: 'default' } }, allow, write);
    saUID = String(sa.metadata?.uid);
    pods = createResourceStorage({ group: podGroup, kind: 'Pod', storage: await env.raw('', 'pods'), now: env.clock.now });
    registry = new ResourceRegistry(() => ctx(''));
    registry.add({ group: '', resource: 'pods', kind: 'Pod', namespaced: true, rest: pods, storage: await env.raw('', 'pods') });
    const mk = async (name: string, serviceAccountName: string): Promise<string> =>
      String(
        (await pods.main.create(ctx('default'), { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { serviceAccountName } } as KubeObject, allow, write)).metadata?.uid,
      );
    podUID = await mk('test', 'foo');
    await mk('other', 'bar');
  });
  after(() => env.close());

  const rest = (issuer: FakeIssuer): TokenREST => new TokenREST({ serviceAccounts: serviceAccounts.main, issuer, resources: registry, now: env.clock.now });

  test('issues a token with the account, its UID and the issuer audiences; the answer is the request named as the account', async () => {
    const issuer = new FakeIssuer(['aud-1', 'aud-2'], 0, env.clock.now);
    let admitted: KubeObject | undefined;
    const out = (await rest(issuer).create(ctx('default'), 'foo', tokenRequest(), async (obj) => void (admitted = obj), write)) as unknown as TokenRequest;
    assert.deepEqual(issuer.issued, [{ namespace: 'default', serviceAccountName: 'foo', serviceAccountUID: saUID, audiences: ['aud-1', 'aud-2'], expirationSeconds: 3600 }]);
    assert.deepEqual(out.metadata, { name: 'foo', namespace: 'default', creationTimestamp: '2024-05-01T10:00:00Z' });
    assert.deepEqual(out.spec, { audiences: ['aud-1', 'aud-2'], expirationSeconds: 3600 });
    assert.match(out.status?.token ?? '', /^fake\./);
    assert.equal(out.status?.expirationTimestamp, '2024-05-01T11:00:00Z');
    // Validating admission sees the request as it will be answered, before a token exists.
    assert.equal((admitted as unknown as TokenRequest).status, undefined);
    assert.deepEqual((admitted as unknown as TokenRequest).spec.audiences, ['aud-1', 'aud-2']);
  });

  test('audiences asked for are kept', async () => {
    const issuer = new FakeIssuer();
    await rest(issuer).create(ctx('default'), 'foo', tokenRequest({ audiences: ['vault'] }), allow, write);
    assert.deepEqual(issuer.issued[0]?.audiences, ['vault']);
  });

  test('a service account that does not exist is not found', async () => {
    const issuer = new FakeIssuer();
    await rejects(rest(issuer).create(ctx('default'), 'missing', tokenRequest(), allow, write), 404, 'serviceaccounts "missing" not found');
    assert.equal(issuer.issued.length, 0);
  });

  test('a name or namespace in the body must be the URL’s', async () => {
    const r = rest(new FakeIssuer());
    const byName = await rejects(
      r.create(ctx('default'), 'foo', tokenRequest({}, { name: 'bar' }), allow, write),
      422,
      'TokenRequest.authentication.k8s.io "foo" is invalid: metadata.name: Invalid value: "bar": must match the service account name if specified',
    );
    assert.equal(byName.reason, 'Invalid');
    await rejects(
      r.create(ctx('default'), 'foo', tokenRequest({}, { namespace: 'other' }), allow, write),
      422,
      'TokenRequest.authentication.k8s.io "foo" is invalid: metadata.namespace: Invalid value: "other": must match the service account namespace if specified',
    );
    await rejects(r.create(ctx(''), 'foo', tokenRequest(), allow, write), 400, 'namespace is required');
  });

  test('a lifetime under ten minutes is invalid, named with an empty name as kube does', async () => {
    await rejects(
      rest(new FakeIssuer()).create(ctx('default'), 'foo', tokenRequest({ expirationSeconds: 599 }), allow, write),
      422,
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    );
  });

  test('validating admission refuses before anything is issued', async () => {
    const issuer = new FakeIssuer();
    const deny: ValidateObjectFunc = async () => {
      throw newForbidden({ group: '', resource: 'serviceaccounts' }, 'foo', 'no tokens today');
    };
    await rejects(rest(issuer).create(ctx('default'), 'foo', tokenRequest(), deny, write), 403, 'serviceaccounts "foo" is forbidden: no tokens today');
    assert.equal(issuer.issued.length, 0);
  });

  // TestCreate_Token_WithExpiryCap (extension disabled: this server never extends pod-bound tokens).
  test('requested time use with extension disabled', async () => {
    const issuer = new FakeIssuer(['aud'], 5 * 60 * 60);
    const warnings: string[] = [];
    await rest(issuer).create(ctx('default', warnings), 'foo', tokenRequest({ expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'test' } }), allow, write);
    assert.equal(issuer.issued[0]?.expirationSeconds, 3607);
    assert.deepEqual(warnings, []);
  });

  test('maxExpirationSeconds honoured with extension disabled', async () => {
    const issuer = new FakeIssuer(['aud'], 30 * 60);
    const warnings: string[] = [];
    const out = (await rest(issuer).create(ctx('default', warnings), 'foo', tokenRequest({ expirationSeconds: 3607 }), allow, write)) as unknown as TokenRequest;
    assert.equal(issuer.issued[0]?.expirationSeconds, 1800);
    assert.equal(out.spec.expirationSeconds, 1800);
    assert.deepEqual(warnings, ['requested expiration of 3607 seconds shortened to 1800 seconds']);
  });

  test('a token bound to a pod run by the account carries the pod', async () => {
    const issuer = new FakeIssuer();
    await rest(issuer).create(ctx('default'), 'foo', tokenRequest({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'test', uid: podUID } }), allow, write);
    assert.deepEqual(issuer.issued[0]?.boundObject, { kind: 'Pod', apiVersion: 'v1', name: 'test', uid: podUID });
  });

  test('bound objects that cannot be bound to', async () => {
    const r = rest(new FakeIssuer());
    const bound = (ref: NonNullable<TokenRequest['spec']['boundObjectRef']>): Promise<unknown> => r.create(ctx('default'), 'foo', tokenRequest({ boundObjectRef: ref }), allow, write);
    await rejects(bound({ kind: 'Pod', apiVersion: 'v1', name: 'other' }), 400, 'cannot bind token for serviceaccount "foo" to pod running with different serviceaccount name.');
    await rejects(
      bound({ kind: 'Pod', apiVersion: 'v1', name: 'test', uid: 'recreated' }),
      409,
      'Operation cannot be fulfilled on Pod "test": the UID in the bound object reference (recreated) does not match the UID in record. The object might have been deleted and then recreated',
    );
    await rejects(bound({ kind: 'Pod', apiVersion: 'v1', name: 'gone' }), 404, 'pods "gone" not found');
    await rejects(bound({ kind: 'Pod', apiVersion: 'v1', name: '' }), 400, 'Name parameter required.');
    // Kinds this server does not serve are answered as absent objects.
    await rejects(bound({ kind: 'Secret', apiVersion: 'v1', name: 's' }), 404, 'secrets "s" not found');
    await rejects(bound({ kind: 'Node', apiVersion: 'v1', name: 'n' }), 404, 'nodes "n" not found');
    await rejects(bound({ kind: 'Deployment', apiVersion: 'apps/v1', name: 'd' }), 400, 'cannot bind token to object of type apps/v1, Kind=Deployment');
    await rejects(bound({ kind: 'ConfigMap', apiVersion: 'v1', name: 'c' }), 400, 'cannot bind token to object of type /v1, Kind=ConfigMap');
    await rejects(bound({ kind: '__proto__', apiVersion: 'v1', name: 'c' }), 400, 'cannot bind token to object of type /v1, Kind=__proto__');
  });
});

describe('serviceaccounts/<name>/token route', () => {
  let env: Env;
  let server: Server;
  let port: number;
  const issuer = new FakeIssuer(['https://kubernetes.default.svc']);
  const admitted: Attributes[] = [];
  let subresources: ReadonlyMap<string, Readonly<Record<string, CreateSubresource>>>;
  let noIssuerPort: number;
  let noIssuerServer: Server;

  const recorder: AdmissionPlugin = {
    name: 'Recorder',
    handles: (op) => op === 'CREATE',
    async validate(attrs) {
      admitted.push(attrs);
    },
  };

  const serve = (storages: Map<string, ResourceStorage>, subs: ReadonlyMap<string, Readonly<Record<string, CreateSubresource>>>): Server => {
    const { handler } = installAPIGroupVersion({ group: coreGroup, version: 'v1', storages, subresources: subs, admission: newAdmissionChain([recorder]) });
    return createServer((raw, response) => {
      const { req, res } = adaptRequest(raw, response);
      req.info = resolveRequestInfo(req.method, req.path, req.query);
      if (!req.path.startsWith('/api/v1/')) return res.writeError(newNotFound({ group: '', resource: '' }, ''));
      void handler(req, res);
    });
  };
  const listen = async (s: Server): Promise<number> => {
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    return (s.address() as AddressInfo).port;
  };

  before(async () => {
    // What installing authentication.k8s.io does on a server: its messages join the decoder's scheme.
    registerProtobufPackage(authenticationV1Protobuf);
    env = await newEnv();
    const generic = await env.storages(coreGroup, 'ServiceAccount');
    await generic.main.create(ctx('ns'), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'ns' } }, allow, write);
    const auth = { serviceAccountTokens: issuer } as unknown as RESTAuthContext;
    const override = serviceAccountStorage({ storages: generic, auth, resources: undefined });
    assert.ok(override.subresources !== undefined);
    subresources = new Map([['ServiceAccount', override.subresources]]);
    server = serve(new Map([['ServiceAccount', override.storages]]), subresources);
    port = await listen(server);
    const bare = serviceAccountStorage({ storages: generic, resources: undefined });
    assert.equal(bare.subresources, undefined);
    noIssuerServer = serve(new Map([['ServiceAccount', bare.storages]]), new Map());
    noIssuerPort = await listen(noIssuerServer);
  });
  after(async () => {
    server.closeAllConnections();
    noIssuerServer.closeAllConnections();
    await new Promise((r) => server.close(r));
    await new Promise((r) => noIssuerServer.close(r));
    await env.close();
  });

  const post = (path: string, body: unknown, p = port, method = 'POST', contentType = 'application/json'): Promise<{ status: number; json: Record<string, unknown> }> =>
    new Promise((resolve, reject) => {
      const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
      const r = httpRequest({ host: '127.0.0.1', port: p, method, path, headers: { 'content-type': contentType, 'content-length': String(Buffer.byteLength(text)) } }, (resp) => {
        const chunks: Buffer[] = [];
        resp.on('data', (c: Buffer) => chunks.push(c));
        resp.on('end', () => resolve({ status: resp.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
      });
      r.on('error', reject);
      r.end(text);
    });
  const path = '/api/v1/namespaces/ns/serviceaccounts/default/token';

  test('kubectl create token: 201 with the token; expirationSeconds defaulted, null audiences the issuer’s; admission sees serviceaccounts/token', async () => {
    const resp = await post(path, {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { audiences: null, boundObjectRef: null },
      status: { expirationTimestamp: null, token: '' },
    });
    assert.equal(resp.status, 201, JSON.stringify(resp.json));
    const out = resp.json as unknown as TokenRequest;
    assert.equal(out.apiVersion, 'authentication.k8s.io/v1');
    assert.equal(out.kind, 'TokenRequest');
    assert.equal(out.metadata?.name, 'default');
    assert.equal(out.metadata?.namespace, 'ns');
    assert.match(String(out.metadata?.creationTimestamp), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(out.spec, { audiences: ['https://kubernetes.default.svc'], expirationSeconds: 3600 });
    assert.match(out.status?.token ?? '', /^fake\./);
    const a = admitted.at(-1);
    assert.deepEqual(a && { operation: a.operation, resource: a.resource, subresource: a.subresource, kind: a.kind, name: a.name, namespace: a.namespace }, {
      operation: 'CREATE',
      resource: 'serviceaccounts',
      subresource: 'token',
      kind: 'TokenRequest',
      name: 'default',
      namespace: 'ns',
    });
  });

  // kubectl 1.32 sends protobuf: these are its bodies, recorded (`create token default` without
  // flags, then with `--duration 20m --audience vault --bound-object-kind Secret --bound-object-name s`).
  test('kubectl’s protobuf bodies decode and are defaulted', async () => {
    const bare = Buffer.from('azhzAAooChhhdXRoZW50aWNhdGlvbi5rOHMuaW8vdjESDFRva2VuUmVxdWVzdBIaChAKABIAGgAiACoAMgA4AEIAEgAaBAoAEgAaACIA', 'base64');
    const resp = await post(path, bare, port, 'POST', 'application/vnd.kubernetes.protobuf');
    assert.equal(resp.status, 201, JSON.stringify(resp.json));
    assert.deepEqual((resp.json as unknown as TokenRequest).spec, { audiences: ['https://kubernetes.default.svc'], expirationSeconds: 3600 });
    const bound = Buffer.from('azhzAAooChhhdXRoZW50aWNhdGlvbi5rOHMuaW8vdjESDFRva2VuUmVxdWVzdBI3ChAKABIAGgAiACoAMgA4AEIAEh0KBXZhdWx0GhEKBlNlY3JldBICdjEaAXMiACCwCRoECgASABoAIgA=', 'base64');
    const refused = await post(path, bound, port, 'POST', 'application/vnd.kubernetes.protobuf');
    // The decoded request reached the bound-object lookup: this server serves no secrets.
    assert.equal(refused.status, 404, JSON.stringify(refused.json));
    assert.equal(refused.json['message'], 'secrets "s" not found');
  });

  test('the body is a TokenRequest of authentication.k8s.io/v1', async () => {
    const wrong = await post(path, { kind: 'TokenRequest', apiVersion: 'v1', spec: {} });
    assert.equal(wrong.status, 400);
    // kube's decoder makes the body's kind in its version first, and core v1 has no TokenRequest.
    assert.equal(
      wrong.json['message'],
      'TokenRequest in version "v1" cannot be handled as a TokenRequest: no kind "TokenRequest" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
    // A kind every scheme registers decodes, then has no conversion to authentication's TokenRequest.
    const options = await post(path, { kind: 'DeleteOptions', apiVersion: 'authentication.k8s.io/v1' });
    assert.equal(options.json['message'], 'DeleteOptions in version "v1" cannot be handled as a TokenRequest: converting (v1.DeleteOptions) to (authentication.TokenRequest): unknown conversion');
    const invalid = await post(path, { spec: { expirationSeconds: 60 } });
    assert.equal(invalid.status, 422);
    assert.equal(invalid.json['message'], 'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes');
    const typed = await post(path, { spec: { expirationSeconds: 'long' } });
    assert.equal(typed.status, 400);
    assert.match(String(typed.json['message']), /^TokenRequest in version "v1" cannot be handled as a TokenRequest: /);
  });

  test('a missing account is 404; only POST is served', async () => {
    const missing = await post('/api/v1/namespaces/ns/serviceaccounts/nobody/token', { spec: {} });
    assert.equal(missing.status, 404);
    assert.equal(missing.json['message'], 'serviceaccounts "nobody" not found');
    const get = await post(path, '', port, 'GET');
    assert.equal(get.status, 405);
  });

  test('without an issuer there is no token route', async () => {
    const resp = await post(path, { spec: {} }, noIssuerPort);
    assert.equal(resp.status, 404);
    assert.equal(resp.json['message'], 'the server could not find the requested resource');
  });

  test('discovery lists serviceaccounts/token with create and the TokenRequest kind', () => {
    const [v1] = discoveryFromGroupDefinition(coreGroup, { subresources });
    const sa = v1?.resources.find((r) => r.name === 'serviceaccounts');
    assert.deepEqual(sa?.subresources, [{ name: 'token', responseKind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }, verbs: ['create'] }]);
    const [bare] = discoveryFromGroupDefinition(coreGroup);
    assert.deepEqual(bare?.resources.find((r) => r.name === 'serviceaccounts')?.subresources, []);
  });

  test('OpenAPI has the token path with the TokenRequest schema', () => {
    const [v1] = openAPIFromGroupDefinition(coreGroup, { subresources });
    const item = v1?.document.paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token'];
    const op = item?.post;
    assert.equal(op?.operationId, 'createCoreV1NamespacedServiceAccountToken');
    assert.deepEqual(op?.['x-kubernetes-group-version-kind'], { group: 'authentication.k8s.io', kind: 'TokenRequest', version: 'v1' });
    assert.deepEqual(op?.requestBody?.content['application/json'], { schema: { $ref: '#/components/schemas/io.k8s.api.authentication.v1.TokenRequest' } });
    assert.deepEqual(
      item?.parameters?.map((p) => p.name),
      ['name', 'namespace'],
    );
    const schemas = v1?.document.components.schemas ?? {};
    for (const name of ['TokenRequest', 'TokenRequestSpec', 'TokenRequestStatus', 'BoundObjectReference']) assert.ok(schemas[`io.k8s.api.authentication.v1.${name}`] !== undefined, name);
    assert.deepEqual((schemas['io.k8s.api.authentication.v1.TokenRequest'] as Record<string, unknown>)['x-kubernetes-group-version-kind'], [
      { group: 'authentication.k8s.io', kind: 'TokenRequest', version: 'v1' },
    ]);
    const [bare] = openAPIFromGroupDefinition(coreGroup);
    assert.equal(bare?.document.paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token'], undefined);
    // Swagger 2.0 (/openapi/v2, what kubectl explain reads): a body parameter and the definition.
    const v2 = toSwaggerV2(v1 === undefined ? [] : [v1.document]) as unknown as {
      paths: Record<string, { post?: { parameters?: { in: string; schema?: unknown }[] } }>;
      definitions: Record<string, unknown>;
    };
    const body = v2.paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token']?.post?.parameters?.find((p) => p.in === 'body');
    assert.deepEqual(body?.schema, { $ref: '#/definitions/io.k8s.api.authentication.v1.TokenRequest' });
    assert.ok(v2.definitions['io.k8s.api.authentication.v1.TokenRequestSpec'] !== undefined);
  });
});
