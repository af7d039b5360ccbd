// The claims of bound service-account tokens and their validation against the store: ports of
// kube's pkg/serviceaccount/claims_test.go (TestClaims, TestValidatePrivateClaims) by name, the
// token lifetime rules of the TokenRequest storage, and the user a token names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServiceAccountTokenClaims } from '../../runtime/apimachinery/request/authenticator.js';
import { parseTokenClaims, tokenPayload, type KubernetesClaims } from '../../runtime/authentication/serviceaccount/claims.js';
import { tokenLifetime } from '../../runtime/authentication/serviceaccount/issuer.js';
import { makeGroupNames, makeUsername, serviceAccountUserInfo } from '../../runtime/authentication/serviceaccount/util.js';
import { validateServiceAccountToken, type ObjectIdentity, type ServiceAccountTokenGetter } from '../../runtime/authentication/serviceaccount/validator.js';

const NOW = 1514764800; // 2018-01-01T00:00:00Z, as kube's test clock

const sa = { namespace: 'myns', serviceAccountName: 'mysvcacct', serviceAccountUID: 'mysvcacct-uid' };

function claims(over: Partial<ServiceAccountTokenClaims>): ServiceAccountTokenClaims {
  return { ...sa, audiences: [], expirationSeconds: 100, ...over };
}

describe('TestClaims', () => {
  const cases: { name: string; c: ServiceAccountTokenClaims; exp: number; warnafter: number; want: Record<string, unknown> }[] = [
    {
      name: 'pod, really fast, no audience',
      c: claims({ boundObject: { kind: 'Pod', apiVersion: 'v1', name: 'mypod', uid: 'mypod-uid' } }),
      exp: 0,
      warnafter: 0,
      want: { aud: [], exp: NOW, iat: NOW, 'kubernetes.io': { namespace: 'myns', pod: { name: 'mypod', uid: 'mypod-uid' }, serviceaccount: { name: 'mysvcacct', uid: 'mysvcacct-uid' } }, nbf: NOW },
    },
    {
      name: 'secret, single member audience',
      c: claims({ audiences: ['1'], boundObject: { kind: 'Secret', apiVersion: 'v1', name: 'mysecret', uid: 'mysecret-uid' } }),
      exp: 100,
      warnafter: 0,
      want: {
        aud: ['1'],
        exp: NOW + 100,
        iat: NOW,
        'kubernetes.io': { namespace: 'myns', secret: { name: 'mysecret', uid: 'mysecret-uid' }, serviceaccount: { name: 'mysvcacct', uid: 'mysvcacct-uid' } },
        nbf: NOW,
      },
    },
    {
      name: 'no obj binding, multimember audience',
      c: claims({ audiences: ['1', '2'] }),
      exp: 100,
      warnafter: 0,
      want: { aud: ['1', '2'], exp: NOW + 100, iat: NOW, 'kubernetes.io': { namespace: 'myns', serviceaccount: { name: 'mysvcacct', uid: 'mysvcacct-uid' } }, nbf: NOW },
    },
    {
      name: 'warn after provided',
      c: claims({ boundObject: { kind: 'Pod', apiVersion: 'v1', name: 'mypod', uid: 'mypod-uid' } }),
      exp: 60 * 60 * 24,
      warnafter: 60 * 60,
      want: {
        aud: [],
        exp: NOW + 60 * 60 * 24,
        iat: NOW,
        'kubernetes.io': { namespace: 'myns', pod: { name: 'mypod', uid: 'mypod-uid' }, serviceaccount: { name: 'mysvcacct', uid: 'mysvcacct-uid' }, warnafter: NOW + 60 * 60 },
        nbf: NOW,
      },
    },
    {
      name: 'node binding (kube 1.32)',
      c: claims({ boundObject: { kind: 'Node', apiVersion: 'v1', name: 'mynode', uid: 'mynode-uid' } }),
      exp: 100,
      warnafter: 0,
      want: {
        aud: [],
        exp: NOW + 100,
        iat: NOW,
        'kubernetes.io': { namespace: 'myns', node: { name: 'mynode', uid: 'mynode-uid' }, serviceaccount: { name: 'mysvcacct', uid: 'mysvcacct-uid' } },
        nbf: NOW,
      },
    },
  ];
  for (const tc of cases) {
    it(tc.name, () => {
      const payload = tokenPayload('https://issuer.example', tc.c, NOW, tc.exp, tc.warnafter, 'the-jti');
      const want = { ...tc.want, iss: 'https://issuer.example', jti: 'the-jti', sub: 'system:serviceaccount:myns:mysvcacct' };
      assert.deepEqual(payload, want);
      // go-jose merges claims through maps: keys come out sorted, at every level.
      assert.equal(JSON.stringify(payload), JSON.stringify(sortKeys(want)));
    });
  }

  it('a bound object of another kind is an internal error', () => {
    assert.throws(() => tokenPayload('i', claims({ boundObject: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x', uid: 'y' } }), NOW, 1, 0, ''), /cannot bind token to object of kind "ConfigMap"/);
  });
});

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
  );
}

class FakeGetter implements ServiceAccountTokenGetter {
  constructor(private readonly objects: { serviceAccount?: ObjectIdentity; secret?: ObjectIdentity; pod?: ObjectIdentity; node?: ObjectIdentity }) {}
  async getServiceAccount(): Promise<ObjectIdentity | undefined> {
    return this.objects.serviceAccount;
  }
  async getBoundObject(kind: 'Pod' | 'Secret' | 'Node'): Promise<ObjectIdentity | undefined> {
    return kind === 'Pod' ? this.objects.pod : kind === 'Secret' ? this.objects.secret : this.objects.node;
  }
}

describe('TestValidatePrivateClaims', () => {
  const serviceAccount = { uid: 'sauid' };
  const secret = { uid: 'secretuid' };
  const pod = { uid: 'poduid' };
  const node = { uid: 'nodeuid' };
  const base: KubernetesClaims = { namespace: 'ns', serviceaccount: { name: 'saname', uid: 'sauid' } };
  type Case = { name: string; getter: FakeGetter; k: KubernetesClaims; exp?: number; nbf?: number; expectErr: string };
  const cases: Case[] = [
    { name: 'good', getter: new FakeGetter({ serviceAccount }), k: base, expectErr: '' },
    { name: 'expired', getter: new FakeGetter({ serviceAccount }), k: base, exp: NOW - 1000 * 3600, expectErr: 'service account token has expired' },
    { name: 'not yet valid', getter: new FakeGetter({ serviceAccount }), k: base, nbf: NOW + 1000 * 3600, expectErr: 'service account token is not valid yet' },
    { name: 'missing serviceaccount', getter: new FakeGetter({}), k: base, expectErr: 'serviceaccounts "saname" not found' },
    { name: 'missing secret', getter: new FakeGetter({ serviceAccount }), k: { ...base, secret: { name: 'secretname', uid: 'secretuid' } }, expectErr: 'service account token has been invalidated' },
    { name: 'missing pod', getter: new FakeGetter({ serviceAccount }), k: { ...base, pod: { name: 'podname', uid: 'poduid' } }, expectErr: 'service account token has been invalidated' },
    { name: 'missing node', getter: new FakeGetter({ serviceAccount }), k: { ...base, node: { name: 'nodename', uid: 'nodeuid' } }, expectErr: 'service account token has been invalidated' },
    {
      name: 'different uid serviceaccount',
      getter: new FakeGetter({ serviceAccount }),
      k: { ...base, serviceaccount: { name: 'saname', uid: 'sauidold' } },
      expectErr: 'service account UID (sauid) does not match claim (sauidold)',
    },
    {
      name: 'different uid secret',
      getter: new FakeGetter({ serviceAccount, secret }),
      k: { ...base, secret: { name: 'secretname', uid: 'secretuidold' } },
      expectErr: 'secret UID (secretuid) does not match service account secret ref claim (secretuidold)',
    },
    {
      name: 'different uid pod',
      getter: new FakeGetter({ serviceAccount, pod }),
      k: { ...base, pod: { name: 'podname', uid: 'poduidold' } },
      expectErr: 'pod UID (poduid) does not match service account pod ref claim (poduidold)',
    },
    {
      name: 'different uid node',
      getter: new FakeGetter({ serviceAccount, node }),
      k: { ...base, node: { name: 'nodename', uid: 'nodeuidold' } },
      expectErr: 'node UID (nodeuid) does not match service account node ref claim (nodeuidold)',
    },
    {
      name: 'node claim beside a pod claim is not looked up',
      getter: new FakeGetter({ serviceAccount, pod }),
      k: { ...base, pod: { name: 'podname', uid: 'poduid' }, node: { name: 'gone', uid: 'x' } },
      expectErr: '',
    },
  ];
  const deletions: { name: string; at: number | undefined; expectErr: boolean }[] = [
    { name: 'valid', at: undefined, expectErr: false },
    { name: 'deleted now', at: NOW, expectErr: false },
    { name: 'deleted near past', at: NOW - 1, expectErr: false },
    { name: 'deleted near future', at: NOW + 1, expectErr: false },
    { name: 'deleted now-leeway', at: NOW - 60, expectErr: false },
    { name: 'deleted now-leeway-1', at: NOW - 61, expectErr: true },
  ];
  for (const d of deletions) {
    const deleted = (o: ObjectIdentity): ObjectIdentity => (d.at === undefined ? o : { ...o, deletionTimestamp: new Date(d.at * 1000).toISOString().replace('.000Z', 'Z') });
    cases.push(
      { name: `${d.name} serviceaccount`, getter: new FakeGetter({ serviceAccount: deleted(serviceAccount) }), k: base, expectErr: d.expectErr ? 'service account ns/saname has been deleted' : '' },
      {
        name: `${d.name} secret`,
        getter: new FakeGetter({ serviceAccount, secret: deleted(secret) }),
        k: { ...base, secret: { name: 'secretname', uid: 'secretuid' } },
        expectErr: d.expectErr ? 'service account token has been invalidated' : '',
      },
      {
        name: `${d.name} pod`,
        getter: new FakeGetter({ serviceAccount, pod: deleted(pod) }),
        k: { ...base, pod: { name: 'podname', uid: 'poduid' } },
        expectErr: d.expectErr ? 'service account token has been invalidated' : '',
      },
      {
        name: `${d.name} node`,
        getter: new FakeGetter({ serviceAccount, node: deleted(node) }),
        k: { ...base, node: { name: 'nodename', uid: 'nodeuid' } },
        expectErr: d.expectErr ? 'service account token has been invalidated' : '',
      },
    );
  }
  for (const tc of cases) {
    it(tc.name, async () => {
      const pub = { iss: 'i', sub: '', aud: [], exp: tc.exp ?? NOW, nbf: tc.nbf, jti: '' };
      const p = validateServiceAccountToken(tc.getter, pub, tc.k, NOW * 1000);
      if (tc.expectErr === '') await p;
      else await assert.rejects(p, (err: Error) => err.message === tc.expectErr);
    });
  }

  it('a store error on a bound object invalidates the token; on the service account it is the error', async () => {
    const failing: ServiceAccountTokenGetter = {
      getServiceAccount: async () => ({ uid: 'sauid' }),
      getBoundObject: async () => {
        throw new Error('etcd is down');
      },
    };
    await assert.rejects(validateServiceAccountToken(failing, { iss: '', sub: '', aud: [], jti: '' }, { ...base, pod: { name: 'p', uid: 'u' } }, NOW * 1000), /has been invalidated/);
    const down: ServiceAccountTokenGetter = { ...failing, getServiceAccount: failing.getBoundObject.bind(null, 'Pod', '', '') };
    await assert.rejects(validateServiceAccountToken(down, { iss: '', sub: '', aud: [], jti: '' }, base, NOW * 1000), /etcd is down/);
  });

  it('issued in the future (beyond the leeway) is refused', async () => {
    const p = validateServiceAccountToken(new FakeGetter({ serviceAccount }), { iss: '', sub: '', aud: [], jti: '', iat: NOW + 61 }, base, NOW * 1000);
    await assert.rejects(p, /service account token is issued in the future/);
  });
});

describe('parseTokenClaims', () => {
  it('reads what go-jose reads: a string audience, absent fields empty, unknown claims ignored', () => {
    const c = parseTokenClaims({ iss: 'a', aud: 'x', other: 1, 'kubernetes.io': { namespace: 'ns', serviceaccount: { name: 'n' } } });
    assert.deepEqual(c.public, { iss: 'a', sub: '', aud: ['x'], exp: undefined, nbf: undefined, iat: undefined, jti: '' });
    assert.deepEqual(c.kubernetes.serviceaccount, { name: 'n', uid: '' });
  });

  it('refuses claims of the wrong type, and keys such as __proto__ are data', () => {
    assert.throws(() => parseTokenClaims({ exp: '1' }), /service account token claims could not be parsed: exp must be a number/);
    assert.throws(() => parseTokenClaims({ aud: [1] }), /aud must be a string or an array of strings/);
    assert.throws(() => parseTokenClaims({ 'kubernetes.io': { pod: 'x' } }), /kubernetes.io.pod must be an object/);
    const c = parseTokenClaims(JSON.parse('{"kubernetes.io":{"__proto__":{"namespace":"evil"},"namespace":"ns"}}'));
    assert.equal(c.kubernetes.namespace, 'ns');
    assert.equal(c.kubernetes.serviceaccount.name, '');
  });
});

describe('token lifetime (pkg/registry/core/serviceaccount/storage/token.go)', () => {
  const o = { apiAudiences: ['api'], maxExpirationSeconds: 0, extendExpiration: true };
  const podBound = claims({ expirationSeconds: 3607, audiences: ['api'], boundObject: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'u' } });

  it('bounded by --service-account-max-token-expiration', () => {
    assert.deepEqual(tokenLifetime({ ...o, maxExpirationSeconds: 7200 }, claims({ expirationSeconds: 86400 })), { signedSeconds: 7200, reportedSeconds: 7200, warnAfterSeconds: 0 });
    assert.deepEqual(tokenLifetime(o, claims({ expirationSeconds: 86400 })), { signedSeconds: 86400, reportedSeconds: 86400, warnAfterSeconds: 0 });
  });

  it("admission's pod-bound 3607 s token for the API's audiences is signed for a year and reported as asked", () => {
    assert.deepEqual(tokenLifetime(o, podBound), { signedSeconds: 365 * 24 * 3600, reportedSeconds: 3607, warnAfterSeconds: 3607 });
  });

  it('no extension when disabled, not pod-bound, another lifetime, or another audience', () => {
    const plain = { signedSeconds: 3607, reportedSeconds: 3607, warnAfterSeconds: 0 };
    assert.deepEqual(tokenLifetime({ ...o, extendExpiration: false }, podBound), plain);
    assert.deepEqual(tokenLifetime(o, { ...podBound, boundObject: { kind: 'Secret', apiVersion: 'v1', name: 's', uid: 'u' } }), plain);
    assert.deepEqual(tokenLifetime(o, { ...podBound, audiences: ['api', 'vault'] }), plain);
    assert.equal(tokenLifetime(o, { ...podBound, expirationSeconds: 3600 }).signedSeconds, 3600);
  });
});

describe('ServiceAccountInfo.UserInfo', () => {
  it('names, groups and extra as kube', () => {
    assert.equal(makeUsername('ns', 'name'), 'system:serviceaccount:ns:name');
    assert.deepEqual(makeGroupNames('ns'), ['system:serviceaccounts', 'system:serviceaccounts:ns']);
    assert.deepEqual(serviceAccountUserInfo({ namespace: 'ns', name: 'n', uid: 'u' }), {
      name: 'system:serviceaccount:ns:n',
      uid: 'u',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
    });
    const u = serviceAccountUserInfo({ namespace: 'ns', name: 'n', uid: 'u', podName: 'p', podUID: 'pu', nodeName: 'nd', nodeUID: 'nu', credentialID: 'JTI=j' });
    assert.deepEqual(u.extra, {
      'authentication.kubernetes.io/pod-name': ['p'],
      'authentication.kubernetes.io/pod-uid': ['pu'],
      'authentication.kubernetes.io/credential-id': ['JTI=j'],
      'authentication.kubernetes.io/node-name': ['nd'],
      'authentication.kubernetes.io/node-uid': ['nu'],
    });
    // A pod name without its UID says nothing; a node UID needs the node name.
    assert.equal(serviceAccountUserInfo({ namespace: 'ns', name: 'n', uid: 'u', podName: 'p', nodeUID: 'nu' }).extra, undefined);
  });
});
