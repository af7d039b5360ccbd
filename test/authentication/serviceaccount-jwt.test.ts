// Service-account tokens signed and verified as kube does (pkg/serviceaccount/jwt.go): a port of
// jwt_test.go's TestTokenGenerateAndValidate cases by name, and every way a token is refused.
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import { decodeProtectedHeader, SignJWT } from 'jose';
import type { ServiceAccountTokenClaims, ServiceAccountTokenIssuer } from '../../runtime/apimachinery/request/authenticator.js';
import type { APIRequest } from '../../runtime/apimachinery/request/http.js';
import {
  newServiceAccountTokenAuthenticator,
  newServiceAccountTokenIssuer,
  PublicKeySet,
  type ObjectIdentity,
  type ServiceAccountTokenAuthenticatorOptions,
  type ServiceAccountTokenGetter,
} from '../../runtime/authentication/serviceaccount/index.js';

const ISS = 'https://kubernetes.default.svc.cluster.local';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ecdsa = generateKeyPairSync('ec', { namedCurve: 'P-256' });

/** The objects a token may name, keyed `kind/namespace/name`: what the lead's getter reads from storage. */
class MapGetter implements ServiceAccountTokenGetter {
  readonly objects = new Map<string, ObjectIdentity>();
  async getServiceAccount(namespace: string, name: string): Promise<ObjectIdentity | undefined> {
    return this.objects.get(`ServiceAccount/${namespace}/${name}`);
  }
  async getBoundObject(kind: string, namespace: string, name: string): Promise<ObjectIdentity | undefined> {
    return this.objects.get(`${kind}/${namespace}/${name}`);
  }
}

const sa: ServiceAccountTokenClaims = { namespace: 'test', serviceAccountName: 'my-service-account', serviceAccountUID: '12345', audiences: [ISS], expirationSeconds: 3600 };
const GROUPS = ['system:serviceaccounts', 'system:serviceaccounts:test'];

function issuer(signingKey: KeyObject, o: { iss?: string; now?: () => number; max?: number } = {}): Promise<ServiceAccountTokenIssuer> {
  return newServiceAccountTokenIssuer({ issuer: o.iss ?? ISS, signingKey, apiAudiences: [ISS], maxExpirationSeconds: o.max ?? 0, extendExpiration: true, now: o.now, newJTI: () => 'jti-1' });
}

function getterWith(...entries: [string, ObjectIdentity][]): MapGetter {
  const g = new MapGetter();
  for (const [k, v] of entries) g.objects.set(k, v);
  return g;
}

const SA_ENTRY: [string, ObjectIdentity] = ['ServiceAccount/test/my-service-account', { uid: '12345' }];

async function authn(keys: readonly KeyObject[], over: Partial<ServiceAccountTokenAuthenticatorOptions> = {}) {
  return newServiceAccountTokenAuthenticator({ issuers: [ISS], keys: await PublicKeySet.create(keys), apiAudiences: [ISS], getter: getterWith(SA_ENTRY), successCacheTTLMs: 0, ...over });
}

const rsaToken = (await (await issuer(rsa.privateKey)).issue(sa)).token;
const ecdsaToken = (await (await issuer(ecdsa.privateKey)).issue(sa)).token;

describe('TestTokenGenerateAndValidate', () => {
  type Case = { name: string; token: string; keys: KeyObject[]; getter?: MapGetter; expectedErr?: RegExp };
  const cases: Case[] = [
    { name: 'no keys', token: rsaToken, keys: [], expectedErr: /^invalid signature, no keys found$/ },
    { name: 'invalid keys (rsa)', token: rsaToken, keys: [other.publicKey, ecdsa.publicKey], expectedErr: /^invalid signature, no keys found$/ },
    { name: 'invalid keys (ecdsa)', token: ecdsaToken, keys: [other.publicKey, rsa.publicKey], expectedErr: /^invalid signature, no keys found$/ },
    { name: 'valid key (rsa)', token: rsaToken, keys: [rsa.publicKey] },
    { name: 'valid key (ecdsa)', token: ecdsaToken, keys: [ecdsa.publicKey] },
    { name: 'rotated keys (rsa)', token: rsaToken, keys: [other.publicKey, ecdsa.publicKey, rsa.publicKey] },
    { name: 'rotated keys (ecdsa)', token: ecdsaToken, keys: [other.publicKey, rsa.publicKey, ecdsa.publicKey] },
    { name: 'valid lookup', token: rsaToken, keys: [rsa.publicKey], getter: getterWith(SA_ENTRY) },
    { name: 'invalid serviceaccount lookup', token: rsaToken, keys: [rsa.publicKey], getter: getterWith(), expectedErr: /^serviceaccounts "my-service-account" not found$/ },
    { name: 'private key given as a verification key (its public half)', token: rsaToken, keys: [rsa.privateKey] },
  ];
  for (const tc of cases) {
    it(tc.name, async () => {
      const a = await authn(tc.keys, tc.getter === undefined ? {} : { getter: tc.getter });
      // An invalid, non-JWT token is never this authenticator's.
      assert.equal(await a.authenticateToken('invalid token', []), undefined);
      const p = a.authenticateToken(tc.token, []);
      if (tc.expectedErr !== undefined) return void (await assert.rejects(p, (e: Error) => tc.expectedErr!.test(e.message)));
      const resp = await p;
      assert.ok(resp);
      assert.equal(resp.user.name, 'system:serviceaccount:test:my-service-account');
      assert.equal(resp.user.uid, '12345');
      assert.deepEqual(resp.user.groups, GROUPS);
      assert.deepEqual(resp.user.extra, { 'authentication.kubernetes.io/credential-id': ['JTI=jti-1'] });
      assert.deepEqual(resp.audiences, [ISS]);
    });
  }
});

function b64(o: unknown): string {
  return Buffer.from(JSON.stringify(o)).toString('base64url');
}

function payloadOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('tokens as kube writes them', () => {
  it('header: alg and kid only, kid the base64url SHA-256 of the PKIX public key', async () => {
    const kid = createHash('sha256')
      .update(rsa.publicKey.export({ type: 'spki', format: 'der' }))
      .digest('base64url');
    assert.deepEqual(decodeProtectedHeader(rsaToken), { alg: 'RS256', kid });
    assert.equal(decodeProtectedHeader(ecdsaToken).alg, 'ES256');
    for (const [curve, alg] of [
      ['P-384', 'ES384'],
      ['P-521', 'ES512'],
    ] as const) {
      const k = generateKeyPairSync('ec', { namedCurve: curve });
      const t = (await (await issuer(k.privateKey)).issue(sa)).token;
      assert.equal(decodeProtectedHeader(t).alg, alg);
      assert.ok(await (await authn([k.publicKey])).authenticateToken(t, []), `${alg} round trip`);
    }
  });

  it('an EC key on another curve cannot sign (kube: unknown private key curve)', async () => {
    const k = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
    await assert.rejects(issuer(k.privateKey), /unknown private key curve, must be 256, 384, or 521/);
  });

  it('payload: sorted claims, iat = nbf = now, exp = now + expirationSeconds, the reported expiration', async () => {
    const now = Date.parse('2026-11-26T01:00:00.750Z');
    const res = await (await issuer(rsa.privateKey, { now: () => now })).issue(sa);
    const p = payloadOf(res.token);
    assert.deepEqual(Object.keys(p), ['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
    const s = Math.floor(now / 1000);
    assert.deepEqual(p, {
      aud: [ISS],
      exp: s + 3600,
      iat: s,
      iss: ISS,
      jti: 'jti-1',
      'kubernetes.io': { namespace: 'test', serviceaccount: { name: 'my-service-account', uid: '12345' } },
      nbf: s,
      sub: 'system:serviceaccount:test:my-service-account',
    });
    assert.equal(res.expirationTimestamp, '2026-11-26T02:00:00Z');
  });

  it('the maximum expiration bounds what is signed', async () => {
    const res = await (await issuer(rsa.privateKey, { max: 7200 })).issue({ ...sa, expirationSeconds: 86400 });
    const p = payloadOf(res.token);
    assert.equal((p.exp as number) - (p.iat as number), 7200);
  });
});

describe('refused tokens', () => {
  const keys = [rsa.publicKey];

  it('another issuer, or not a JWT at all, is not ours: the next authenticator is asked', async () => {
    const a = await authn(keys);
    const foreign = (await (await issuer(rsa.privateKey, { iss: 'https://elsewhere.example' })).issue(sa)).token;
    for (const t of [foreign, 'abc', 'a.b.c', '{"iss":"x"}.a.b', `x.${b64({ iss: ISS })}`]) assert.equal(await a.authenticateToken(t, []), undefined, t);
  });

  it('every issuer of --service-account-issuer is accepted; the first signs', async () => {
    const second = (await (await issuer(rsa.privateKey, { iss: 'https://old.example' })).issue(sa)).token;
    const a = await authn(keys, { issuers: [ISS, 'https://old.example'] });
    assert.ok(await a.authenticateToken(second, []));
  });

  it('expired, not yet valid, issued in the future (each beyond the 60 s leeway)', async () => {
    const a = await authn(keys);
    const at = async (ms: number) => (await (await issuer(rsa.privateKey, { now: () => ms })).issue(sa)).token;
    await assert.rejects(a.authenticateToken(await at(Date.now() - 3661_000), []), /^Error: service account token has expired$/);
    assert.ok(await a.authenticateToken(await at(Date.now() - 3600_000 + 30_000), []), 'within the leeway');
    await assert.rejects(a.authenticateToken(await at(Date.now() + 120_000), []), /service account token is not valid yet/);
  });

  it('wrong audience: kube names both lists', async () => {
    const a = await authn(keys);
    const t = (await (await issuer(rsa.privateKey)).issue({ ...sa, audiences: ['vault', 'other'] })).token;
    await assert.rejects(a.authenticateToken(t, []), (e: Error) => e.message === `token audiences ["vault" "other"] is invalid for the target audiences ["${ISS}"]`);
    // TokenReview may ask for its own audiences: the answer is the intersection.
    assert.deepEqual((await a.authenticateToken(t, ['other', 'x']))?.audiences, ['other']);
  });

  it('a token without audiences is for the API (legacy): the implicit audiences', async () => {
    const a = await authn(keys);
    const t = (await (await issuer(rsa.privateKey)).issue({ ...sa, audiences: [] })).token;
    assert.deepEqual((await a.authenticateToken(t, []))?.audiences, [ISS]);
  });

  it('bad signature, tampered payload, alg none', async () => {
    const a = await authn(keys);
    const [h, p, s] = rsaToken.split('.') as [string, string, string];
    const flipped = `${h}.${p}.${s.startsWith('A') ? 'B' : 'A'}${s.slice(1)}`;
    await assert.rejects(a.authenticateToken(flipped, []), /signature verification failed/);
    const tampered = `${h}.${b64({ ...payloadOf(rsaToken), sub: 'system:serviceaccount:kube-system:admin' })}.${s}`;
    await assert.rejects(a.authenticateToken(tampered, []), /signature verification failed/);
    const none = `${b64({ alg: 'none', kid: decodeProtectedHeader(rsaToken).kid })}.${p}.`;
    await assert.rejects(a.authenticateToken(none, []), /"alg" \(Algorithm\) Header Parameter value not allowed/);
  });

  it('a key that is not in the key files: by kid, or without kid by every key', async () => {
    const a = await authn(keys);
    const byOther = (await (await issuer(other.privateKey)).issue(sa)).token;
    await assert.rejects(a.authenticateToken(byOther, []), /^Error: invalid signature, no keys found$/);
    const payload = payloadOf(rsaToken);
    const noKidOther = await new SignJWT(payload).setProtectedHeader({ alg: 'RS256' }).sign(other.privateKey);
    await assert.rejects(a.authenticateToken(noKidOther, []), /signature verification failed/);
    const noKidOurs = await new SignJWT(payload).setProtectedHeader({ alg: 'RS256' }).sign(rsa.privateKey);
    assert.ok(await a.authenticateToken(noKidOurs, []));
    // Two keys tried, two errors: utilerrors' aggregate.
    const two = await authn([rsa.publicKey, ecdsa.publicKey]);
    await assert.rejects(two.authenticateToken(noKidOther, []), /^Error: \[signature verification failed, "alg" \(Algorithm\) Header Parameter value not allowed\]$/);
  });
});

describe('store validation through the authenticator', () => {
  it('deleted service account, recreated with another UID, a bound pod gone', async () => {
    const getter = getterWith(SA_ENTRY);
    const a = await authn([rsa.publicKey], { getter });
    assert.ok(await a.authenticateToken(rsaToken, []));
    getter.objects.set(SA_ENTRY[0], { uid: '12345', deletionTimestamp: new Date(Date.now() - 120_000).toISOString() });
    await assert.rejects(a.authenticateToken(rsaToken, []), /service account test\/my-service-account has been deleted/);
    getter.objects.set(SA_ENTRY[0], { uid: '67890' });
    await assert.rejects(a.authenticateToken(rsaToken, []), /service account UID \(67890\) does not match claim \(12345\)/);
    getter.objects.set(SA_ENTRY[0], { uid: '12345' });
    const podBound = (await (await issuer(rsa.privateKey)).issue({ ...sa, boundObject: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'pod-uid' } })).token;
    await assert.rejects(a.authenticateToken(podBound, []), /service account token has been invalidated/);
    getter.objects.set('Pod/test/p', { uid: 'pod-uid' });
    const resp = await a.authenticateToken(podBound, []);
    assert.deepEqual(resp?.user.extra?.['authentication.kubernetes.io/pod-name'], ['p']);
    assert.deepEqual(resp?.user.extra?.['authentication.kubernetes.io/pod-uid'], ['pod-uid']);
  });

  it("successes are remembered for the cache's TTL (kube's 10 s), failures are not", async () => {
    const getter = getterWith();
    let now = Date.now();
    const a = await authn([rsa.publicKey], { getter, successCacheTTLMs: 10_000, now: () => now });
    await assert.rejects(a.authenticateToken(rsaToken, []), /not found/);
    getter.objects.set(...SA_ENTRY);
    assert.ok(await a.authenticateToken(rsaToken, []));
    getter.objects.delete(SA_ENTRY[0]);
    assert.ok(await a.authenticateToken(rsaToken, []), 'cached');
    await assert.rejects(a.authenticateToken(rsaToken, ['other']), /audiences/, 'another audience list is another entry');
    now += 10_001;
    await assert.rejects(a.authenticateToken(rsaToken, []), /not found/);
  });
});

describe('the request authenticator (Authorization: Bearer)', () => {
  const request = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } }) as unknown as APIRequest;

  it('authenticates a bearer token; no bearer credential is not its business', async () => {
    const a = await authn([rsa.publicKey]);
    assert.equal((await a.authenticate(request(`Bearer ${rsaToken}`)))?.user.name, 'system:serviceaccount:test:my-service-account');
    assert.equal((await a.authenticate(request(`bearer   ${rsaToken}`)))?.user.name, undefined, 'kube splits at single spaces: an empty token');
    assert.equal(await a.authenticate(request()), undefined);
    assert.equal(await a.authenticate(request(`Basic ${rsaToken}`)), undefined);
    assert.equal(await a.authenticate(request('Bearer static-token')), undefined);
    await assert.rejects(a.authenticate(request(`Bearer ${(await (await issuer(other.privateKey)).issue(sa)).token}`)), /no keys found/);
  });
});
