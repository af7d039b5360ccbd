// A token user of a control plane started by the harness, granted exactly what a test needs. The
// control plane authorizes with RBAC (kube's default), so a test about something else than
// authorization acts either as the admin (system:masters) or, where system:masters would change
// what is tested (it is exempt from the in-flight limits, for one), as this user with a Role the
// admin binds to it, as kube's integration tests do; never as system:anonymous.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PolicyRule } from '../../apis/rbac/v1/types.js';
import { until } from './assertions.js';
import type { ControlPlane } from './harness.js';
import { HttpsClient } from './https.js';

/** The user of the token file: not in system:masters, only system:authenticated's bootstrap roles until bound. */
export const testUser = { name: 'tester', uid: 'tester-uid', token: 'tester-token' } as const;

/** Writes a --token-auth-file naming testUser and returns the flags that load it. */
export function testUserFlags(): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'rbac-user-')), 'tokens.csv');
  writeFileSync(file, `${testUser.token},${testUser.name},${testUser.uid}\n`);
  return ['--token-auth-file', file];
}

/** A raw HTTPS client presenting testUser's bearer token only (no client certificate). */
export function testUserClient(cp: ControlPlane, opts: { maxSockets?: number } = {}): HttpsClient {
  return new HttpsClient({ server: cp.url, caPEM: cp.credentials.caPEM, token: testUser.token }, opts);
}

const RBAC = '/apis/rbac.authorization.k8s.io/v1';

/** Grants testUser `rules` (see grantUsers). */
export function grantTestUser(admin: HttpsClient, name: string, rules: PolicyRule[], probe: Probe): Promise<void> {
  return grantUsers(admin, [testUser.name], name, rules, probe);
}

/** What a granted user must be allowed before a grant counts as seen (a SubjectAccessReview's resourceAttributes). */
export interface Probe {
  verb: string;
  group: string;
  resource: string;
  namespace?: string;
}

/**
 * Grants `users` `rules`: in `probe.namespace` a Role and a RoleBinding named `name`, without one
 * a ClusterRole and a ClusterRoleBinding, created by the admin. Then waits until the control
 * plane's authorizer, which reads the policy through informers, allows each user `probe`: a
 * SubjectAccessReview polled as kube's e2e framework does (WaitForNamedAuthorizationUpdate).
 */
export async function grantUsers(admin: HttpsClient, users: readonly string[], name: string, rules: PolicyRule[], probe: Probe): Promise<void> {
  const ns = probe.namespace;
  const [roleKind, prefix] = ns === undefined ? ['ClusterRole', RBAC] : ['Role', `${RBAC}/namespaces/${ns}`];
  const role = await admin.json('POST', `${prefix}/${roleKind.toLowerCase()}s`, { metadata: { name }, rules });
  assert.equal(role.status, 201, JSON.stringify(role.body));
  const binding = await admin.json('POST', `${prefix}/${roleKind.toLowerCase()}bindings`, {
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name },
    subjects: users.map((user) => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user })),
  });
  assert.equal(binding.status, 201, JSON.stringify(binding.body));
  for (const user of users) {
    const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user, groups: ['system:authenticated'], resourceAttributes: probe } };
    await until(`${user} may ${probe.verb} ${probe.resource}${ns === undefined ? '' : ` in ${ns}`}`, async () => {
      const r = await admin.json('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', review);
      assert.equal(r.status, 201, JSON.stringify(r.body));
      return (r.body['status'] as { allowed?: boolean } | undefined)?.allowed === true ? true : undefined;
    });
  }
}
