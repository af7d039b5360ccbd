import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { UserInfo } from '../../runtime/apimachinery/request/types.js';
import { alwaysDenyAuthorizer, type Attributes, type AuthorizationResult, type RuleResolver, type RulesReview } from '../../runtime/authorization/authorizer.js';
import { newAuthorizerFromModes, type ModeAuthorization } from '../../runtime/authorization/modes.js';
import { privilegedGroupsAuthorizer } from '../../runtime/authorization/privileged.js';
import { alwaysAllowRuleResolver, unionRuleResolver } from '../../runtime/authorization/rule-resolvers.js';
import {
  ANONYMOUS_WITH_ALWAYS_ALLOW_WARNING,
  anonymousAuthWithAuthorization,
  AUTHORIZATION_FLAGS,
  authorizationOptionsFromFlags,
  completeAuthorizationOptions,
  newAuthorizationFromOptions,
} from '../../runtime/server/options/authorization.js';
import { given, OptionsError, parseFlags } from '../../runtime/server/options/flags.js';
import { describeBackends } from '../integration/harness.js';
import { asStatus, HttpsClient } from '../integration/https.js';

const alice: UserInfo = { name: 'alice', groups: ['devs', 'system:authenticated'] };
const admin: UserInfo = { name: 'system:admin', groups: ['system:masters', 'system:authenticated'] };

function attrs(user: UserInfo | undefined, more: Partial<Attributes> = {}): Attributes {
  return { user, verb: 'list', isResourceRequest: true, path: '/api/v1/pods', namespace: 'a', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: '', ...more };
}

/** An RBAC stand-in: allows alice to list, denies nobody, lists one rule; counts how often it was built. */
function fakeRBAC(): { factory: () => ModeAuthorization; built: () => number } {
  let built = 0;
  const review: RulesReview = { resourceRules: [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }], nonResourceRules: [], incomplete: false, evaluationError: '' };
  return {
    factory: () => {
      built++;
      return {
        authorizer: {
          authorize: (a) =>
            Promise.resolve<AuthorizationResult>(a.user?.name === 'alice' ? { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "r/a"' } : { decision: 'noOpinion', reason: '' }),
        },
        ruleResolver: { rulesFor: () => Promise.resolve(review) },
      };
    },
    built: () => built,
  };
}

describe('authorization modes (kube authorizer config New)', () => {
  it('system:masters is allowed whatever the modes say, before them (NewPrivilegedGroups)', async () => {
    const { authorizer } = newAuthorizerFromModes(['AlwaysDeny'], {});
    assert.deepEqual(await authorizer.authorize(attrs(admin)), { decision: 'allow', reason: '' });
    assert.deepEqual(await authorizer.authorize(attrs(alice)), { decision: 'noOpinion', reason: 'Everything is forbidden.' });
  });

  it('AlwaysDeny is kube\'s: no opinion, reason "Everything is forbidden."', async () => {
    assert.deepEqual(await alwaysDenyAuthorizer.authorize(attrs(alice)), { decision: 'noOpinion', reason: 'Everything is forbidden.' });
  });

  it('the privileged-group authorizer fails a request without a user', async () => {
    await assert.rejects(privilegedGroupsAuthorizer('system:masters').authorize(attrs(undefined)), /no user on request\./);
  });

  it('asks the modes in order: the first to allow or deny decides, no opinion asks the next', async () => {
    const rbac = fakeRBAC();
    const denyThenAllow = newAuthorizerFromModes(['AlwaysDeny', 'AlwaysAllow'], {});
    assert.equal((await denyThenAllow.authorizer.authorize(attrs(alice))).decision, 'allow');
    const rbacThenDeny = newAuthorizerFromModes(['RBAC', 'AlwaysDeny'], { rbac: rbac.factory });
    assert.deepEqual(await rbacThenDeny.authorizer.authorize(attrs(alice)), { decision: 'allow', reason: 'RBAC: allowed by RoleBinding "r/a"' });
    assert.deepEqual(await rbacThenDeny.authorizer.authorize(attrs({ name: 'bob', groups: [] })), { decision: 'noOpinion', reason: 'Everything is forbidden.' });
  });

  it('builds RBAC only when it is a mode, and refuses a mode it cannot build', () => {
    const rbac = fakeRBAC();
    newAuthorizerFromModes(['AlwaysAllow'], { rbac: rbac.factory });
    assert.equal(rbac.built(), 0);
    newAuthorizerFromModes(['RBAC'], { rbac: rbac.factory });
    assert.equal(rbac.built(), 1);
    assert.throws(() => newAuthorizerFromModes(['RBAC'], {}), /authorization mode RBAC: no RBAC authorizer was given/);
    assert.throws(() => newAuthorizerFromModes(['Webhook'], {}), /authorization mode Webhook: no webhook authorizer was given/);
    assert.throws(() => newAuthorizerFromModes(['Magic'], {}), /^Error: unknown authorization mode Magic specified$/);
    assert.throws(() => newAuthorizerFromModes(['Node'], {}), /authorization mode Node is not supported by this server/);
    assert.throws(() => newAuthorizerFromModes(['AlwaysAllow', 'AlwaysAllow'], {}), /authorization mode AlwaysAllow specified more than once/);
    assert.throws(() => newAuthorizerFromModes([], {}), /at least one authorization mode must be passed/);
  });

  it('the rule resolvers form a union: AlwaysAllow lists *, AlwaysDeny nothing, RBAC its rules; the privileged group none', async () => {
    const rbac = fakeRBAC();
    const { ruleResolver } = newAuthorizerFromModes(['RBAC', 'AlwaysDeny', 'AlwaysAllow'], { rbac: rbac.factory });
    const review = await ruleResolver.rulesFor(admin, 'a');
    assert.deepEqual(review, {
      resourceRules: [
        { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      ],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
      evaluationError: '',
    });
  });

  it("union of rule resolvers: incomplete when one is, errors aggregated as Go's utilerrors", async () => {
    const failing = (message: string, incomplete: boolean): RuleResolver => ({
      rulesFor: () => Promise.resolve({ resourceRules: [], nonResourceRules: [], incomplete, evaluationError: message }),
    });
    const rejecting: RuleResolver = { rulesFor: () => Promise.reject(new Error('store down')) };
    const one = await unionRuleResolver(alwaysAllowRuleResolver, failing('webhook authorizer does not support user rule resolution', true)).rulesFor(alice, '');
    assert.equal(one.incomplete, true);
    assert.equal(one.evaluationError, 'webhook authorizer does not support user rule resolution');
    assert.equal(one.resourceRules.length, 1);
    const two = await unionRuleResolver(failing('a', false), rejecting, failing('a', false)).rulesFor(alice, '');
    assert.deepEqual({ incomplete: two.incomplete, evaluationError: two.evaluationError }, { incomplete: true, evaluationError: '[a, store down]' });
  });
});

describe('authorization options (BuiltInAuthorizationOptions)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'authz-options-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  function complete(argv: string[]): ReturnType<typeof completeAuthorizationOptions> {
    return completeAuthorizationOptions(given(authorizationOptionsFromFlags(parseFlags(argv, AUTHORIZATION_FLAGS, 'usage'))));
  }

  it("defaults to RBAC and kube's webhook defaults (v1, 5m authorized, 30s unauthorized)", () => {
    assert.deepEqual(complete([]), { modes: ['RBAC'], webhookConfigFile: undefined, webhookVersion: 'v1', webhookCacheAuthorizedTTLMs: 300_000, webhookCacheUnauthorizedTTLMs: 30_000 });
  });

  it('reads a comma list and repeated flags in order, durations as Go durations, the config file made absolute', () => {
    const file = join(dir, 'w.kubeconfig');
    const o = complete([
      '--authorization-mode=Webhook,RBAC',
      '--authorization-mode',
      'AlwaysDeny',
      `--authorization-webhook-config-file=${file}`,
      '--authorization-webhook-version=v1beta1',
      '--authorization-webhook-cache-authorized-ttl=1m30s',
      '--authorization-webhook-cache-unauthorized-ttl=0s',
    ]);
    assert.deepEqual(o, { modes: ['Webhook', 'RBAC', 'AlwaysDeny'], webhookConfigFile: file, webhookVersion: 'v1beta1', webhookCacheAuthorizedTTLMs: 90_000, webhookCacheUnauthorizedTTLMs: 0 });
  });

  it("refuses what kube's Validate refuses, in its words, all at once", () => {
    const cases: [string[], string][] = [
      [['--authorization-mode='], 'at least one authorization-mode must be passed'],
      [['--authorization-mode=RBAC,Magic'], 'authorization-mode "Magic" is not a valid mode'],
      [['--authorization-mode=ABAC'], 'authorization-mode "ABAC" is not supported by this server (AlwaysAllow, AlwaysDeny, Webhook, RBAC)'],
      [['--authorization-mode=Webhook'], "authorization-mode Webhook's authorization config file not passed"],
      [['--authorization-webhook-config-file=/x'], 'cannot specify --authorization-webhook-config-file without mode Webhook'],
      [['--authorization-mode=RBAC,AlwaysAllow,RBAC'], 'authorization-mode ["RBAC" "AlwaysAllow" "RBAC"] has mode specified more than once'],
      [['--authorization-webhook-version=v2'], 'unsupported webhook authorizer version "v2", supported versions are "v1", "v1beta1"'],
      [
        ['--authorization-mode=Node,Webhook'],
        '[authorization-mode "Node" is not supported by this server (AlwaysAllow, AlwaysDeny, Webhook, RBAC), authorization-mode Webhook\'s authorization config file not passed]',
      ],
    ];
    for (const [argv, message] of cases) {
      assert.throws(
        () => complete(argv),
        (e: unknown) => e instanceof OptionsError && e.message === message,
        argv.join(' '),
      );
    }
    assert.throws(() => complete(['--authorization-webhook-cache-authorized-ttl=soon']), /--authorization-webhook-cache-authorized-ttl: /);
  });

  it("with AlwaysAllow among the modes, anonymous authentication is forced off with kube's warning (ApplyAuthorization)", () => {
    const warnings: string[] = [];
    const warn = (m: string): number => warnings.push(m);
    assert.equal(anonymousAuthWithAuthorization(true, complete(['--authorization-mode=AlwaysAllow']), warn), false);
    assert.equal(anonymousAuthWithAuthorization(true, complete(['--authorization-mode=RBAC,AlwaysAllow']), warn), false);
    assert.deepEqual(warnings, [ANONYMOUS_WITH_ALWAYS_ALLOW_WARNING, ANONYMOUS_WITH_ALWAYS_ALLOW_WARNING]);
    assert.equal(ANONYMOUS_WITH_ALWAYS_ALLOW_WARNING, 'AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer');
    assert.equal(anonymousAuthWithAuthorization(true, complete(['--authorization-mode=RBAC']), warn), true);
    assert.equal(anonymousAuthWithAuthorization(false, complete(['--authorization-mode=AlwaysAllow']), warn), false);
    assert.equal(warnings.length, 2);
  });

  it('an unusable webhook kubeconfig is an OptionsError naming the flag, the file and the field', () => {
    const file = join(dir, 'bad.kubeconfig');
    writeFileSync(file, 'apiVersion: v1\nkind: Config\nclusters:\n- name: w\n  cluster: {}\ncontexts:\n- name: w\n  context: {cluster: w}\ncurrent-context: w\n');
    const o = complete(['--authorization-mode=Webhook', `--authorization-webhook-config-file=${file}`]);
    assert.throws(
      () => newAuthorizationFromOptions(o, {}),
      (e: unknown) => e instanceof OptionsError && e.message === `--authorization-webhook-config-file ${file}: clusters[0].cluster.server: no server defined`,
    );
    const missing = complete(['--authorization-mode=Webhook', `--authorization-webhook-config-file=${join(dir, 'nope')}`]);
    assert.throws(() => newAuthorizationFromOptions(missing, {}), /--authorization-webhook-config-file .*nope: cannot be read: ENOENT/);
  });

  it('builds the union of the options with RBAC from the caller', async () => {
    const rbac = fakeRBAC();
    const { authorizer } = newAuthorizationFromOptions(complete([]), { rbac: rbac.factory });
    assert.equal((await authorizer.authorize(attrs(alice))).decision, 'allow');
    assert.equal((await authorizer.authorize(attrs({ name: 'bob', groups: [] }))).decision, 'noOpinion');
    assert.equal((await authorizer.authorize(attrs(admin))).decision, 'allow');
  });
});

describe('authorization modes in the control plane', () => {
  describeBackends(
    '--authorization-mode=AlwaysAllow',
    (cp) => {
      it("forces anonymous authentication off with kube's warning: a request without credentials is 401, never allowed", async () => {
        const anonymous = await new HttpsClient(cp().credentials, { anonymous: true }).request({ path: '/api/v1/namespaces' });
        assert.equal(anonymous.status, 401);
        assert.equal(asStatus(anonymous.text).reason, 'Unauthorized');
        assert.ok(cp().log().includes(ANONYMOUS_WITH_ALWAYS_ALLOW_WARNING), cp().log());
        assert.equal((await new HttpsClient(cp().credentials).request({ path: '/api/v1/namespaces' })).status, 200);
      });
    },
    { only: ['sqlite'], extraArgs: ['--authorization-mode=AlwaysAllow'] },
  );

  describeBackends(
    '--authorization-mode=AlwaysDeny',
    (cp) => {
      it("system:masters is still allowed; anyone else is forbidden with AlwaysDeny's reason", async () => {
        const admin = new HttpsClient(cp().credentials);
        assert.equal((await admin.request({ path: '/api/v1/namespaces' })).status, 200);
        const bob = await admin.request({ path: '/api/v1/namespaces', headers: { 'Impersonate-User': 'bob' } });
        assert.equal(bob.status, 403);
        assert.equal(asStatus(bob.text).message, 'namespaces is forbidden: User "bob" cannot list resource "namespaces" in API group "" at the cluster scope: Everything is forbidden.');
        const anonymous = await new HttpsClient(cp().credentials, { anonymous: true }).request({ path: '/version' });
        assert.equal(anonymous.status, 403);
        assert.equal(asStatus(anonymous.text).message, 'forbidden: User "system:anonymous" cannot get path "/version": Everything is forbidden.');
      });
    },
    { only: ['sqlite'], extraArgs: ['--authorization-mode=AlwaysDeny'] },
  );
});
