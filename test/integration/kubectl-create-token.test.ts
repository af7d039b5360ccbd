// Issue 14, the TokenRequest API with the real kubectl on SQLite and etcd: `kubectl create token`
// for a service account and for `default`, which the service-account controller made, the lifetime and
// audiences asked for, kube's errors as kubectl prints them (no such account, a lifetime under
// ten minutes, a bound object that does not exist), and the subresource in discovery and OpenAPI.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fails, ok, until } from './assertions.js';
import { describeBackends } from './harness.js';
import { Kubectl, kubectlUnavailable } from './kubectl.js';

const noKubectl = kubectlUnavailable();

/** The JWT's claims, unverified: what the server was asked to sign. */
function claims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('kubectl create token', { skip: noKubectl ?? false }, () => {
  describeBackends('TokenRequest', (cp) => {
    let kc: Kubectl;
    before(async () => {
      kc = new Kubectl(cp);
      ok(await kc.createNamespace('tokens'), cp());
      ok(await kc.run(['create', 'serviceaccount', 'builder', '-n', 'tokens']), cp());
    });
    after(() => kc.dispose());

    /** `kubectl create token <sa>`: the token names the account and its UID, for an hour. */
    const issuesFor = async (sa: string): Promise<void> => {
      const uid = ok(await kc.run(['get', 'serviceaccount', sa, '-n', 'tokens', '-o', 'jsonpath={.metadata.uid}']), cp());
      const c = claims(ok(await kc.run(['create', 'token', sa, '-n', 'tokens']), cp()));
      assert.equal(c['sub'], `system:serviceaccount:tokens:${sa}`);
      const k8s = c['kubernetes.io'] as { namespace: string; serviceaccount: { name: string; uid: string } };
      assert.equal(k8s.namespace, 'tokens');
      assert.deepEqual(k8s.serviceaccount, { name: sa, uid });
      assert.equal(Number(c['exp']) - Number(c['iat']), 3600);
    };

    it('issues a token for a service account, bound to it by name and UID', () => issuesFor('builder'));

    it('issues one for `default`, which the service-account controller made', async () => {
      await until('default service account in tokens', async () => ((await kc.run(['get', 'serviceaccount', 'default', '-n', 'tokens'])).code === 0 ? true : undefined));
      await issuesFor('default');
    });

    it('takes the duration and audiences asked for', async () => {
      const c = claims(ok(await kc.run(['create', 'token', 'builder', '-n', 'tokens', '--duration', '20m', '--audience', 'vault', '--audience', 'https://example.com']), cp()));
      assert.deepEqual(c['aud'], ['vault', 'https://example.com']);
      assert.equal(Number(c['exp']) - Number(c['iat']), 1200);
    });

    it("answers with kube's errors", async () => {
      fails(await kc.run(['create', 'token', 'nobody', '-n', 'tokens']), 'error: failed to create token: serviceaccounts "nobody" not found');
      fails(
        await kc.run(['create', 'token', 'builder', '-n', 'tokens', '--duration', '5m']),
        'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes',
      );
      fails(
        await kc.run(['create', 'token', 'builder', '-n', 'tokens', '--bound-object-kind', 'Secret', '--bound-object-name', 'missing']),
        'error: failed to create token: secrets "missing" not found',
      );
    });

    it('discovery lists serviceaccounts/token and OpenAPI has its path', async () => {
      const legacy = JSON.parse(ok(await kc.run(['get', '--raw', '/api/v1']), cp())) as { resources: { name: string; group?: string; version?: string; kind: string; verbs: string[] }[] };
      const token = legacy.resources.find((r) => r.name === 'serviceaccounts/token');
      assert.deepEqual(token && { group: token.group, version: token.version, kind: token.kind, verbs: token.verbs }, {
        group: 'authentication.k8s.io',
        version: 'v1',
        kind: 'TokenRequest',
        verbs: ['create'],
      });
      const v3 = JSON.parse(ok(await kc.run(['get', '--raw', '/openapi/v3/api/v1']), cp())) as { paths: Record<string, { post?: { operationId: string } }> };
      assert.equal(v3.paths['/api/v1/namespaces/{namespace}/serviceaccounts/{name}/token']?.post?.operationId, 'createCoreV1NamespacedServiceAccountToken');
    });
  });
});
