// The pieces of delegated authentication and authorization on their own: the published
// ConfigMap's content and merge (kube's clusterauthenticationtrust), the TokenReview
// authenticator's cache, the always-allow paths and the delegation flags.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { TokenReview, TokenReviewStatus } from '../../apis/authentication/v1/types.js';
import type { APIRequest } from '../../runtime/apimachinery/request/http.js';
import type { Attributes } from '../../runtime/authorization/authorizer.js';
import { WebhookTokenAuthenticator } from '../../runtime/authentication/webhook.js';
import { pathAuthorizer } from '../../runtime/aggregated/authorization.js';
import { completeDelegationOptions, delegationOptionsFromFlags } from '../../runtime/aggregated/delegation-options.js';
import { OptionsError } from '../../runtime/server/options/flags.js';
import { attributesRecord } from '../authorization/rbac/helpers.js';
import { ensureCA } from '../../runtime/controlplane/certs.js';
import { authenticationInfoFor, combinedAuthenticationInfo, configMapDataFor } from '../../runtime/controllers/clusterauthenticationtrust/index.js';

describe('clusterauthenticationtrust: the ConfigMap content', () => {
  let dir: string;
  let ca1: string;
  let ca2: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trust-units-'));
    ca1 = (await ensureCA(dir, 'one', 'one-ca')).cert.toString('pem').trim() + '\n';
    ca2 = (await ensureCA(dir, 'two', 'two-ca')).cert.toString('pem').trim() + '\n';
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes client-ca-file alone without a request-header CA, and every request-header key with one', () => {
    assert.deepEqual(configMapDataFor({ clientCA: ca1, requestHeaderUsernameHeaders: ['X-Remote-User'] }), { 'client-ca-file': ca1 });
    assert.deepEqual(configMapDataFor({ requestHeaderCA: ca2, requestHeaderUsernameHeaders: ['X-Remote-User'], requestHeaderAllowedNames: [] }), {
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-uid-headers': '[]',
      'requestheader-group-headers': '[]',
      'requestheader-extra-headers-prefix': '[]',
      'requestheader-client-ca-file': ca2,
      'requestheader-allowed-names': '[]',
    });
  });

  it('merges what is published with what is required: ordered unions, CA bundles without duplicates', () => {
    const existing = authenticationInfoFor({ 'client-ca-file': ca1, 'requestheader-client-ca-file': ca1, 'requestheader-allowed-names': '["other-proxy"]', 'requestheader-username-headers': 'null' });
    const merged = combinedAuthenticationInfo(
      existing,
      { clientCA: ca2 + ca1, requestHeaderCA: ca1, requestHeaderAllowedNames: ['front-proxy-client', 'other-proxy'], requestHeaderUsernameHeaders: ['X-Remote-User'] },
      Date.now(),
    );
    assert.equal(merged.clientCA, ca1 + ca2);
    assert.equal(merged.requestHeaderCA, ca1);
    assert.deepEqual(merged.requestHeaderAllowedNames, ['other-proxy', 'front-proxy-client']);
    assert.deepEqual(merged.requestHeaderUsernameHeaders, ['X-Remote-User']);
  });

  it('drops certificates expired for more than five minutes', () => {
    const tenYears = 10 * 366 * 24 * 3600 * 1000;
    assert.equal(combinedAuthenticationInfo({ clientCA: ca1 }, {}, Date.now() + tenYears).clientCA, undefined);
  });

  it('refuses content it cannot read, naming the key', () => {
    assert.throws(() => authenticationInfoFor({ 'requestheader-group-headers': '{"a":1}' }), /requestheader-group-headers: must be a JSON array of strings/);
    assert.throws(() => authenticationInfoFor({ 'requestheader-group-headers': '[' }), /requestheader-group-headers: /);
    assert.throws(() => authenticationInfoFor({ 'client-ca-file': 'no certificate' }), /client-ca-file: no certificates found/);
    assert.deepEqual(authenticationInfoFor({ ['__proto__']: '["x"]' } as Record<string, string>), {});
  });
});

describe('authentication/webhook: the TokenReview authenticator', () => {
  const request = (token?: string): APIRequest => ({ headers: token === undefined ? {} : { authorization: `Bearer ${token}` } }) as unknown as APIRequest;
  const reviewer = (answer: (review: TokenReview) => TokenReviewStatus | Promise<TokenReviewStatus>) => {
    const seen: TokenReview[] = [];
    return { seen, create: async (r: TokenReview) => (seen.push(r), answer(r)) };
  };

  it('names the reviewed user, caches the answer for the TTL, and reviews again after it', async () => {
    let now = 1_000;
    const r = reviewer(() => ({ authenticated: true, user: { username: 'alice', uid: 'u1', groups: ['g'], extra: { ['__proto__']: ['x'] } } }));
    const a = new WebhookTokenAuthenticator({ reviewer: r, cacheTTLMs: 10_000, now: () => now });
    const resp = await a.authenticate(request('t1'));
    assert.equal(resp?.user.name, 'alice');
    assert.equal(resp?.user.uid, 'u1');
    assert.deepEqual(resp?.user.groups, ['g']);
    assert.ok(Object.hasOwn(resp?.user.extra ?? {}, '__proto__'), 'an extra key __proto__ is data');
    assert.deepEqual(r.seen[0]?.spec, { token: 't1' });
    await a.authenticate(request('t1'));
    assert.equal(r.seen.length, 1, 'cached');
    now += 10_000;
    await a.authenticate(request('t1'));
    assert.equal(r.seen.length, 2, 'expired');
  });

  it('caches "not authenticated" too (401 without a second review); no bearer token is not its credential', async () => {
    const r = reviewer(() => ({ authenticated: false }));
    const a = new WebhookTokenAuthenticator({ reviewer: r, cacheTTLMs: 10_000 });
    await assert.rejects(a.authenticate(request('bad')), /invalid bearer token/);
    await assert.rejects(a.authenticate(request('bad')), /invalid bearer token/);
    assert.equal(r.seen.length, 1);
    assert.equal(await a.authenticate(request()), undefined);
  });

  it('does not cache a failed review, rejects with status.error, and shares one review between concurrent requests', async () => {
    let fail = true;
    const r = reviewer(() => {
      if (fail) throw new Error('connection refused');
      return { authenticated: false, error: 'the token store is down' };
    });
    const a = new WebhookTokenAuthenticator({ reviewer: r, cacheTTLMs: 10_000 });
    await assert.rejects(a.authenticate(request('t')), /connection refused/);
    fail = false;
    const both = await Promise.allSettled([a.authenticate(request('t')), a.authenticate(request('t'))]);
    assert.deepEqual(
      both.map((s) => (s.status === 'rejected' ? (s.reason as Error).message : 'ok')),
      ['the token store is down', 'the token store is down'],
    );
    assert.equal(r.seen.length, 2, 'the failure was not cached; the two concurrent requests made one review');
  });

  it('with audiences: sends them, and accepts only an answer for one of them', async () => {
    const r = reviewer((review) => ({ authenticated: true, user: { username: 'sa' }, audiences: review.spec.token === 'other' ? ['elsewhere'] : ['api'] }));
    const a = new WebhookTokenAuthenticator({ reviewer: r, cacheTTLMs: 0, audiences: ['api'] });
    assert.deepEqual((await a.authenticate(request('mine')))?.audiences, ['api']);
    assert.deepEqual(r.seen[0]?.spec.audiences, ['api']);
    await assert.rejects(a.authenticate(request('other')), /invalid bearer token/);
  });
});

describe('aggregated: delegated authorization flags and always-allowed paths', () => {
  const nonResource = (path: string): Attributes => attributesRecord({ user: { name: 'system:anonymous', groups: [] }, verb: 'get', path });

  it('allows exact paths (leading / optional) and prefixes ending in *, and has no opinion on resources', async () => {
    const a = pathAuthorizer(['/healthz', 'readyz', '/debug/*']);
    for (const p of ['/healthz', '/readyz', '/debug/pprof/heap']) assert.equal((await a.authorize(nonResource(p))).decision, 'allow', p);
    for (const p of ['/healthz/etcd', '/livez', '/debug']) assert.equal((await a.authorize(nonResource(p))).decision, 'noOpinion', p);
    assert.equal((await a.authorize({ ...nonResource('/healthz'), isResourceRequest: true })).decision, 'noOpinion');
  });

  it("kube's defaults: 10 s caches, the health paths, system:masters, both kubeconfigs from --kubeconfig", () => {
    const d = completeDelegationOptions({}, '/tmp/kc');
    assert.deepEqual(
      [d.authenticationKubeconfig, d.authorizationKubeconfig, d.authenticationTokenWebhookCacheTTLMs, d.authorizationWebhookCacheAuthorizedTTLMs, d.authorizationWebhookCacheUnauthorizedTTLMs],
      ['/tmp/kc', '/tmp/kc', 10_000, 10_000, 10_000],
    );
    assert.deepEqual(d.authorizationAlwaysAllowPaths, ['/healthz', '/readyz', '/livez']);
    assert.deepEqual(d.authorizationAlwaysAllowGroups, ['system:masters']);
    assert.equal(completeDelegationOptions({}, undefined).authorizationKubeconfig, undefined);
  });

  it('parses the flags and refuses a * before the end of a path', () => {
    const o = delegationOptionsFromFlags({ 'authorization-always-allow-paths': ['/a,/b*'], 'authorization-webhook-cache-authorized-ttl': '1m', 'authentication-skip-lookup': 'true' });
    assert.deepEqual(o.authorizationAlwaysAllowPaths, ['/a', '/b*']);
    assert.equal(o.authorizationWebhookCacheAuthorizedTTLMs, 60_000);
    assert.equal(o.authenticationSkipLookup, true);
    assert.throws(
      () => completeDelegationOptions({ authorizationAlwaysAllowPaths: ['/a*/b'] }, undefined),
      (e: unknown) => e instanceof OptionsError && /only trailing \* allowed in "a\*\/b"/.test(e.message),
    );
  });
});
