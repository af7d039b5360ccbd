// Issue 14: the review APIs take the protobuf bodies kubectl's clientset sends
// (application/vnd.kubernetes.protobuf): `kubectl auth can-i` (SelfSubjectAccessReview),
// `auth can-i --list` (SelfSubjectRulesReview) and `auth whoami` (SelfSubjectReview) succeed
// against the control plane command, on SQLite and etcd, with kubectl's -v=8 log showing that
// the body was protobuf. A SubjectAccessReview whose `extra` (a map of the named list
// ExtraValue) is protobuf-encoded is answered, an `extra` key `__proto__` kept as a key.
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { authorizationV1Protobuf } from '../../generated/protobuf/authorization/v1.js';
import { metaV1Protobuf } from '../../generated/protobuf/meta/v1.js';
import { encodeProtobufObject, ProtobufScheme } from '../../runtime/apimachinery/serializer/protobuf/index.js';
import { ok } from '../integration/assertions.js';
import { describeBackends, type ControlPlane } from '../integration/harness.js';
import { Kubectl, kubectlUnavailable } from '../integration/kubectl.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
/** kubectl -v=8 logs each request's headers (answers are JSON): a review body sent as protobuf. */
const SENT_PROTOBUF = /Content-Type: application\/vnd\.kubernetes\.protobuf$/m;
/**
 * The minors the review commands are run with: the dispatcher's (the server's 1.32), 1.28 (the
 * first to ask authentication.k8s.io/v1 for whoami; it still sends JSON) and 1.33.
 */
const MINORS: readonly (number | undefined)[] = [undefined, 28, 33].filter((m) => kubectlUnavailable(m) === undefined);
/** Whether that kubectl sends the review bodies as protobuf (1.32 and later do; 1.28 sends JSON). */
const sendsProtobuf = (minor: number | undefined): boolean => minor === undefined || minor >= 32;

const scheme = new ProtobufScheme([metaV1Protobuf, authorizationV1Protobuf]);

/** POSTs `body` as the admin (client certificate) and returns the status and the JSON answer. */
function post(cp: ControlPlane, path: string, body: Uint8Array): Promise<{ status: number; json: Record<string, unknown> }> {
  const { caPEM, certPEM, keyPEM } = cp.credentials;
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, cp.url), { method: 'POST', ca: caPEM, cert: certPEM, key: keyPEM, headers: { 'Content-Type': PROTOBUF, Accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('kubectl auth over protobuf bodies', { skip: kubectlUnavailable() ?? false }, () => {
  describeBackends('review APIs', (cp) => {
    let kc: Kubectl;
    before(() => {
      kc = new Kubectl(cp);
    });
    after(() => kc.dispose());

    for (const minor of MINORS) {
      const which = `${minor === undefined ? 'kubectl' : `kubectl 1.${minor}`} (${sendsProtobuf(minor) ? 'protobuf' : 'JSON'} bodies)`;

      it(`${which} auth can-i create namespaces: yes for the admin`, async () => {
        const r = await kc.run(['auth', 'can-i', 'create', 'namespaces', '-v=8'], { minor });
        assert.equal(ok(r, cp()), 'yes');
        if (sendsProtobuf(minor)) assert.match(r.stderr, SENT_PROTOBUF);
      });

      it(`${which} auth can-i --list: the admin's rules`, async () => {
        const r = await kc.run(['auth', 'can-i', '--list', '-v=8'], { minor });
        const out = ok(r, cp());
        assert.match(out, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/m);
        assert.match(out, /^\*\.\*\s+\[\]\s+\[\]\s+\[\*\]$/m);
        if (sendsProtobuf(minor)) assert.match(r.stderr, SENT_PROTOBUF);
      });

      it(`${which} auth whoami: system:admin in system:masters`, async () => {
        const r = await kc.run(['auth', 'whoami', '-o', 'json', '-v=8'], { minor });
        const review = JSON.parse(ok(r, cp())) as { kind: string; status: { userInfo: { username: string; groups: string[] } } };
        assert.equal(review.kind, 'SelfSubjectReview');
        assert.equal(review.status.userInfo.username, 'system:admin');
        assert.deepEqual([...review.status.userInfo.groups].sort(), ['system:authenticated', 'system:masters']);
        if (sendsProtobuf(minor)) assert.match(r.stderr, SENT_PROTOBUF);
      });
    }

    it('a protobuf SubjectAccessReview with extra is answered, an extra key __proto__ kept as a key', async () => {
      const extra = { ...(JSON.parse('{"__proto__": ["polluted"]}') as Record<string, string[]>), scopes: ['read'], empty: [] };
      const review = (user: string, groups: string[]): Record<string, unknown> & { apiVersion: string; kind: string } => ({
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: { resourceAttributes: { verb: 'create', resource: 'namespaces' }, user, groups, extra },
      });
      const path = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
      const denied = await post(cp(), path, encodeProtobufObject(review('nobody', ['nobodies']), scheme));
      assert.equal(denied.status, 201, JSON.stringify(denied.json));
      const spec = denied.json['spec'] as Record<string, unknown>;
      const answered = spec['extra'] as Record<string, unknown>;
      assert.deepEqual(Object.keys(answered).sort(), ['__proto__', 'empty', 'scopes']);
      assert.deepEqual(Object.getOwnPropertyDescriptor(answered, '__proto__')?.value, ['polluted']);
      assert.equal((denied.json['status'] as { allowed: boolean }).allowed, false);
      const allowed = await post(cp(), path, encodeProtobufObject(review('root', ['system:masters']), scheme));
      assert.equal(allowed.status, 201, JSON.stringify(allowed.json));
      assert.equal((allowed.json['status'] as { allowed: boolean }).allowed, true);
    });
  });
});
