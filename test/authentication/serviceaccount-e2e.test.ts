// Issue 14, service-account tokens over the control plane command with the real kubectl, on
// SQLite and etcd: `kubectl create token` signs a token that authenticates as the service account
// (a SelfSubjectReview as that user, a TokenReview), stops authenticating once the service account
// is deleted or replaced, and verifies for a relying party through the issuer discovery documents,
// which kube serves to whoever `system:service-account-issuer-discovery` is bound to (nobody by
// default).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createRemoteJWKSet, customFetch, jwtVerify, type FetchImplementation } from 'jose';
import { parse } from 'yaml';
import { fails, ok, until } from '../integration/assertions.js';
import { describeBackends, type ControlPlane } from '../integration/harness.js';
import { Kubectl, kubectlUnavailable } from '../integration/kubectl.js';
import { tokenKubeconfig } from '../integration/token-kubeconfig.js';

const noKubectl = kubectlUnavailable();
const ISSUER = 'https://kubernetes.default.svc.cluster.local';
const dir = mkdtempSync(join(tmpdir(), 'sa-e2e-'));

/** An anonymous GET trusting the cluster CA: what a relying party outside the cluster does. */
function anonymousGet(cp: ControlPlane, url: string): Promise<{ status: number; body: string; contentType: string }> {
  return new Promise((resolve, reject) => {
    httpsGet(url, { ca: cp.credentials.caPEM }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, contentType: String(res.headers['content-type']) }));
    }).on('error', reject);
  });
}

describe('service-account tokens with kubectl', { skip: noKubectl ?? false }, () => {
  describeBackends('service-account tokens', (cp) => {
    let kc: Kubectl;
    let token = '';
    before(async () => {
      kc = new Kubectl(cp);
      ok(await kc.createNamespace('sa-e2e'), cp());
      ok(await kc.run(['create', 'serviceaccount', 'robot', '-n', 'sa-e2e']), cp());
      token = ok(await kc.run(['create', 'token', 'robot', '-n', 'sa-e2e']), cp()).trim();
    });
    after(() => kc.dispose());

    // A SelfSubjectReview created from JSON: what `kubectl auth whoami` asks, without its protobuf body.
    const selfSubjectReview = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    const whoami = (t: string) => kc.run(['--kubeconfig', tokenKubeconfig(cp(), dir, 'robot', t), 'create', '--validate=false', '-f', '-', '-o', 'yaml'], { stdin: selfSubjectReview });

    it('the token authenticates as the service account (SelfSubjectReview, TokenReview)', async () => {
      const uid = ok(await kc.run(['get', 'serviceaccount', 'robot', '-n', 'sa-e2e', '-o', 'jsonpath={.metadata.uid}']), cp());
      const me = parse(ok(await whoami(token), cp())) as { status: { userInfo: Record<string, unknown> } };
      const jti = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string }).jti;
      assert.deepEqual(me.status.userInfo, {
        username: 'system:serviceaccount:sa-e2e:robot',
        uid,
        groups: ['system:serviceaccounts', 'system:serviceaccounts:sa-e2e', 'system:authenticated'],
        extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${jti}`] },
      });
      const review = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
      const answer = parse(ok(await kc.run(['create', '-f', '-', '-o', 'yaml'], { stdin: review }), cp())) as { status: Record<string, unknown> };
      assert.equal(answer.status['authenticated'], true);
      assert.deepEqual(answer.status['audiences'], [ISSUER]);
    });

    it('a tampered token is 401, never anonymous', async () => {
      const [h, , s] = token.split('.');
      const forged = `${h}.${Buffer.from(JSON.stringify({ iss: ISSUER, sub: 'system:serviceaccount:kube-system:admin' })).toString('base64url')}.${s}`;
      fails(await whoami(forged), /Unauthorized/);
    });

    it('the discovery documents are for whoever the issuer-discovery role is bound to, and verify the token', async () => {
      const config = `${cp().url}/.well-known/openid-configuration`;
      assert.equal((await anonymousGet(cp(), config)).status, 403, 'not bound by default');
      ok(await kc.run(['create', 'clusterrolebinding', 'oidc-reviewer', '--clusterrole=system:service-account-issuer-discovery', '--group=system:unauthenticated']), cp());
      const served = await until('anonymous discovery allowed', async () => {
        const r = await anonymousGet(cp(), config);
        return r.status === 200 ? r : undefined;
      });
      assert.equal(served.contentType, 'application/json');
      const doc = JSON.parse(served.body) as { issuer: string; jwks_uri: string };
      assert.equal(doc.issuer, ISSUER);
      assert.equal(doc.jwks_uri, `${cp().url}/openid/v1/jwks`);
      const fetchTLS: FetchImplementation = async (url) => {
        const r = await anonymousGet(cp(), url);
        return new Response(r.body, { status: r.status, headers: { 'content-type': r.contentType } });
      };
      const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(doc.jwks_uri), { [customFetch]: fetchTLS }), { issuer: doc.issuer, audience: ISSUER });
      assert.equal(payload.sub, 'system:serviceaccount:sa-e2e:robot');
    });

    it('deleting the service account revokes its tokens; a new one of the same name does not revive them', async () => {
      ok(await kc.run(['delete', 'serviceaccount', 'robot', '-n', 'sa-e2e']), cp());
      // Successes are cached for 10 s, as kube's token cache does.
      await until('token refused', async () => ((await whoami(token)).code !== 0 ? true : undefined), 60_000);
      fails(await whoami(token), /Unauthorized/);
      ok(await kc.run(['create', 'serviceaccount', 'robot', '-n', 'sa-e2e']), cp());
      fails(await whoami(token), /Unauthorized/);
    });
  });
});
