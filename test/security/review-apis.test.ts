// Issue 14: the review APIs (authorization.k8s.io/v1 access reviews, authentication.k8s.io/v1
// TokenReview and SelfSubjectReview) over the control plane command, with the real kubectl, on
// SQLite and etcd: `kubectl auth can-i` (with --list and --as), `kubectl auth whoami`, and
// `kubectl create -f` of reviews, which print kube's answers; discovery lists them with the one
// verb they have, and nothing of them is stored.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { fails, ok } from '../integration/assertions.js';
import { describeBackends } from '../integration/harness.js';
import { Kubectl, kubectlUnavailable, squashLines } from '../integration/kubectl.js';
import { tokenKubeconfig } from '../integration/token-kubeconfig.js';

const noKubectl = kubectlUnavailable();

// Static token users (--token-auth-file: token,user,uid,"groups").
const dir = mkdtempSync(join(tmpdir(), 'review-apis-'));
const tokenFile = join(dir, 'tokens.csv');
writeFileSync(tokenFile, ['alice-token,alice,alice-uid,"devs,qa"', 'bob-token,bob,bob-uid'].join('\n') + '\n');

interface Review {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown>;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

const sar = (spec: object): string => JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec });
const tokenReview = (token: string): string => JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });

describe('the review APIs with kubectl', { skip: noKubectl ?? false }, () => {
  describeBackends(
    'review APIs',
    (cp) => {
      let kc: Kubectl;
      before(() => {
        kc = new Kubectl(cp);
      });
      after(() => kc.dispose());
      const run = (args: string[], stdin?: string): ReturnType<Kubectl['run']> => kc.run(args, stdin === undefined ? {} : { stdin });
      const as = (user: string, token: string, args: string[], stdin?: string): ReturnType<Kubectl['run']> =>
        kc.run(['--kubeconfig', tokenKubeconfig(cp(), dir, user, token), ...args], stdin === undefined ? {} : { stdin });
      const create = async (body: string, ...extra: string[]): Promise<Review> => parse(ok(await run(['create', '-f', '-', '-o', 'yaml', ...extra], body), cp())) as Review;

      it('discovery lists the six review kinds with the verb create alone', async () => {
        const lines = squashLines(ok(await run(['api-resources', '-o', 'wide', '--sort-by', 'name']), cp()));
        const rows = new Map(lines.map((l) => [l.split(' ')[0], l]));
        for (const [name, gv, namespaced, kind] of [
          ['localsubjectaccessreviews', 'authorization.k8s.io/v1', 'true', 'LocalSubjectAccessReview'],
          ['selfsubjectaccessreviews', 'authorization.k8s.io/v1', 'false', 'SelfSubjectAccessReview'],
          ['selfsubjectrulesreviews', 'authorization.k8s.io/v1', 'false', 'SelfSubjectRulesReview'],
          ['subjectaccessreviews', 'authorization.k8s.io/v1', 'false', 'SubjectAccessReview'],
          ['selfsubjectreviews', 'authentication.k8s.io/v1', 'false', 'SelfSubjectReview'],
          ['tokenreviews', 'authentication.k8s.io/v1', 'false', 'TokenReview'],
        ] as const) {
          // kubectl prints the verbs joined or as a Go list, by version.
          assert.match(rows.get(name) ?? '', new RegExp(`^${name} ${gv} ${namespaced} ${kind} \\[?create\\]?$`));
        }
      });

      it('kubectl auth can-i: the admin (system:masters) may; a token user without bindings may not, also through --as', async () => {
        assert.equal(ok(await run(['auth', 'can-i', 'create', 'namespaces']), cp()), 'yes');
        assert.equal(ok(await run(['auth', 'can-i', 'get', '/healthz']), cp()), 'yes');
        const alice = await as('alice', 'alice-token', ['auth', 'can-i', 'create', 'namespaces']);
        assert.deepEqual([alice.code, alice.stdout.trim()], [1, 'no']);
        const impersonated = await run(['auth', 'can-i', 'delete', 'namespaces', '--as', 'alice', '--as-group', 'devs']);
        assert.deepEqual([impersonated.code, impersonated.stdout.trim()], [1, 'no']);
        // Every user may review itself (system:basic-user).
        assert.equal(ok(await as('alice', 'alice-token', ['auth', 'can-i', 'create', 'selfsubjectaccessreviews.authorization.k8s.io']), cp()), 'yes');
      });

      it('a SelfSubjectRulesReview lists the rules of the requesting user in spec.namespace, answered as a new review', async () => {
        const ssrr = JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' } });
        const admin = await create(ssrr);
        assert.deepEqual([admin.metadata, admin.spec], [{ creationTimestamp: null }, {}]);
        const rules = admin.status as {
          resourceRules: { verbs: string[]; apiGroups?: string[]; resources?: string[] }[];
          nonResourceRules: { verbs: string[]; nonResourceURLs?: string[] }[];
          incomplete: boolean;
        };
        assert.equal(rules.incomplete, false);
        assert.ok(
          rules.resourceRules.some((r) => r.verbs.includes('*') && r.apiGroups?.includes('*') && r.resources?.includes('*')),
          JSON.stringify(rules),
        );
        assert.ok(
          rules.nonResourceRules.some((r) => r.verbs.includes('*') && r.nonResourceURLs?.includes('*')),
          JSON.stringify(rules),
        );
        // Every authenticated user may review itself (system:basic-user), and nothing more here. (kubectl's client-side
        // check of a kind without a PATCH route lists CRDs, which bob may not: --validate=false, as against kube.)
        const bob = parse(ok(await as('bob', 'bob-token', ['create', '-f', '-', '-o', 'yaml', '--validate=false'], ssrr), cp())) as Review;
        const bobRules = (bob.status as typeof rules).resourceRules;
        assert.ok(
          bobRules.some((r) => r.verbs.includes('create') && r.apiGroups?.includes('authorization.k8s.io') && r.resources?.includes('selfsubjectaccessreviews')),
          JSON.stringify(bobRules),
        );
        assert.ok(!bobRules.some((r) => r.verbs.includes('*')), JSON.stringify(bobRules));
      });

      it('kubectl auth can-i --list: the rules of the requesting user in the namespace', async () => {
        const admin = squashLines(ok(await run(['auth', 'can-i', '--list', '-n', 'default']), cp()));
        assert.equal(admin[0], 'Resources Non-Resource URLs Resource Names Verbs');
        assert.ok(admin.includes('*.* [] [] [*]'), admin.join('\n'));
        assert.ok(admin.includes('[*] [] [*]'), admin.join('\n'));
        const bob = squashLines(ok(await as('bob', 'bob-token', ['auth', 'can-i', '--list']), cp()));
        assert.ok(
          bob.some((l) => l.startsWith('selfsubjectaccessreviews.authorization.k8s.io [] [] [create]')),
          bob.join('\n'),
        );
      });

      it('kubectl auth whoami: the user the server authenticated (client certificate, token)', async () => {
        assert.deepEqual(squashLines(ok(await run(['auth', 'whoami']), cp())), ['ATTRIBUTE VALUE', 'Username system:admin', 'Groups [system:masters system:authenticated]']);
        const alice = parse(ok(await as('alice', 'alice-token', ['auth', 'whoami', '-o', 'yaml']), cp())) as Review;
        assert.equal(alice.kind, 'SelfSubjectReview');
        assert.deepEqual(alice.status, { userInfo: { username: 'alice', uid: 'alice-uid', groups: ['devs', 'qa', 'system:authenticated'] } });
        assert.match(String(alice.metadata['creationTimestamp']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        // kubectl 1.28 is the first to ask authentication.k8s.io/v1; the newest one here asks the same.
        for (const minor of [28, 33]) {
          if (kubectlUnavailable(minor) !== undefined) continue;
          const out = await kc.run(['auth', 'whoami'], { minor });
          assert.deepEqual(squashLines(ok(out, cp())), ['ATTRIBUTE VALUE', 'Username system:admin', 'Groups [system:masters system:authenticated]'], `kubectl 1.${minor}`);
        }
      });

      it('kubectl create -f of a SubjectAccessReview prints the answer; a dry run answers the same; nothing is stored', async () => {
        const spec = { user: 'alice', groups: ['devs'], resourceAttributes: { namespace: 'default', verb: 'list', resource: 'pods' } };
        const out = await create(sar(spec));
        assert.deepEqual(out.metadata, { creationTimestamp: null });
        assert.deepEqual(out.spec, spec);
        assert.equal(out.status?.['allowed'], false);
        const masters = await create(sar({ ...spec, groups: ['system:masters'] }), '--dry-run=server');
        assert.equal(masters.status?.['allowed'], true);
        const get = await run(['get', 'subjectaccessreviews']);
        assert.notEqual(get.code, 0);
        assert.match(get.stderr, /MethodNotAllowed|not allow|not supported/);
      });

      it('an invalid review is 422 with kube’s wording; a LocalSubjectAccessReview is confined to its namespace', async () => {
        fails(await run(['create', '-f', '-'], sar({ user: 'alice' })), /exactly one of nonResourceAttributes or resourceAttributes must be specified/);
        const local = {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'LocalSubjectAccessReview',
          metadata: { namespace: 'default' },
          spec: { user: 'alice', resourceAttributes: { namespace: 'kube-system', verb: 'get', resource: 'pods' } },
        };
        fails(await run(['create', '-f', '-'], JSON.stringify(local)), /spec\.resourceAttributes\.namespace: Invalid value: "kube-system": must match metadata\.namespace/);
        const answered = await create(JSON.stringify({ ...local, spec: { ...local.spec, resourceAttributes: { ...local.spec.resourceAttributes, namespace: 'default' } } }));
        assert.deepEqual(answered.metadata, { namespace: 'default', creationTimestamp: null });
        assert.equal(answered.status?.['allowed'], false);
        // Answered in a namespace that does not exist too: NamespaceLifecycle lets access reviews through.
        const nowhere = { ...local, metadata: { namespace: 'no-such-namespace' }, spec: { ...local.spec, resourceAttributes: { ...local.spec.resourceAttributes, namespace: 'no-such-namespace' } } };
        assert.equal((await create(JSON.stringify(nowhere))).status?.['allowed'], false);
      });

      it('kubectl create -f of a TokenReview: a static token names its user; an unknown one is unauthenticated', async () => {
        const good = await create(tokenReview('alice-token'));
        assert.equal(good.status?.['authenticated'], true);
        const user = good.status?.['user'] as { username: string; uid: string; groups: string[] };
        assert.deepEqual([user.username, user.uid], ['alice', 'alice-uid']);
        assert.deepEqual(user.groups.slice(0, 2), ['devs', 'qa']);
        const bad = await create(tokenReview('nobody-has-this-token'));
        assert.deepEqual(bad.status, { user: {} });
        fails(await run(['create', '-f', '-'], JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: {} })), /token is required for TokenReview in authentication/);
      });
    },
    { extraArgs: ['--token-auth-file', tokenFile] },
  );
});
