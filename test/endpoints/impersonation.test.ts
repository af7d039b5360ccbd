import assert from 'node:assert/strict';
import { createServer, request, type OutgoingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { adaptRequest, withFilters, type Filter } from '../../runtime/apimachinery/request/http.js';
import type { UserInfo } from '../../runtime/apimachinery/request/types.js';
import type { Attributes, AuthorizationResult, Authorizer } from '../../runtime/authorization/authorizer.js';
import { withAudit, type AuditEvent } from '../../runtime/endpoints/filters/audit.js';
import { withImpersonation } from '../../runtime/endpoints/filters/impersonation.js';
import { silentLogger } from '../../runtime/endpoints/filters/log.js';
import { until } from '../integration/assertions.js';

/**
 * A port of kube's TestImpersonationFilter (k8s.io/apiserver/pkg/endpoints/filters/impersonation):
 * the same authorizer and cases by name, over the filter behind a real HTTP server, plus the 400
 * and 403 wording, the headers removed, the audit event and extra keys that are Object's own names.
 */

const allow: AuthorizationResult = { decision: 'allow', reason: '' };

/** kube's impersonateAuthorizer. */
const impersonateAuthorizer: Authorizer = {
  async authorize(a: Attributes) {
    const user = a.user;
    const name = user?.name ?? '';
    const g = user?.groups ?? [];
    if (name === 'system:admin') return allow;
    if (name === 'tester') throw new Error('works on my machine');
    if (name === 'deny-me') return { decision: 'noOpinion', reason: 'denied' };
    const imp = a.verb === 'impersonate';
    if (g[0] === 'wheel' && imp && a.resource === 'users') return allow;
    if (g[0] === 'sa-impersonater' && imp && a.resource === 'serviceaccounts') return allow;
    if (g[0] === 'regular-impersonater' && imp && a.resource === 'users') return allow;
    if (g[1] === 'group-impersonater' && imp && a.resource === 'groups') return allow;
    if (g[1] === 'extra-setter-scopes' && imp && a.resource === 'userextras' && a.subresource === 'scopes') return allow;
    if (g[1] === 'escaped-scopes' || g[1] === 'almost-escaped-scopes') return allow;
    if (g[1] === 'extra-setter-particular-scopes' && imp && a.resource === 'userextras' && a.subresource === 'scopes' && a.name === 'scope-a' && a.apiGroup === 'authentication.k8s.io') return allow;
    if (g[1] === 'extra-setter-project' && imp && a.resource === 'userextras' && a.subresource === 'project' && a.apiGroup === 'authentication.k8s.io') return allow;
    if (g[0] === 'everything-impersonater' && imp) {
      if (a.resource === 'users' && a.apiGroup === '') return allow;
      if (a.resource === 'uids' && a.name === 'some-uid' && a.apiGroup === 'authentication.k8s.io') return allow;
      if (a.resource === 'groups' && a.apiGroup === '') return allow;
      if (a.resource === 'userextras' && a.subresource === 'scopes' && a.apiGroup === 'authentication.k8s.io') return allow;
    }
    return { decision: 'noOpinion', reason: 'deny by default' };
  },
};

interface Seen {
  user: UserInfo | undefined;
  headers: string[];
}

interface Case {
  name: string;
  user: UserInfo;
  impersonationUser?: string;
  impersonationGroups?: string[];
  impersonationUserExtras?: Record<string, string[]>;
  impersonationUid?: string;
  expectedUser: UserInfo;
  expectedCode: number;
}

function extra(entries: Record<string, string[]> = {}): Record<string, string[]> {
  return Object.assign(Object.create(null) as Record<string, string[]>, entries);
}

const cases: Case[] = [
  { name: 'not-impersonating', user: { name: 'tester', groups: [] }, expectedUser: { name: 'tester', groups: [] }, expectedCode: 200 },
  { name: 'impersonating-error', user: { name: 'tester', groups: [] }, impersonationUser: 'anyone', expectedUser: { name: 'tester', groups: [] }, expectedCode: 403 },
  { name: 'impersonating-group-without-user', user: { name: 'tester', groups: [] }, impersonationGroups: ['some-group'], expectedUser: { name: 'tester', groups: [] }, expectedCode: 400 },
  {
    name: 'impersonating-extra-without-user',
    user: { name: 'tester', groups: [] },
    impersonationUserExtras: { scopes: ['scope-a'] },
    expectedUser: { name: 'tester', groups: [] },
    expectedCode: 400,
  },
  { name: 'impersonating-uid-without-user', user: { name: 'tester', groups: [] }, impersonationUid: 'some-uid', expectedUser: { name: 'tester', groups: [] }, expectedCode: 400 },
  {
    name: 'disallowed-group',
    user: { name: 'dev', groups: ['wheel'] },
    impersonationUser: 'system:admin',
    impersonationGroups: ['some-group'],
    expectedUser: { name: 'dev', groups: ['wheel'] },
    expectedCode: 403,
  },
  {
    name: 'allowed-group',
    user: { name: 'dev', groups: ['wheel', 'group-impersonater'] },
    impersonationUser: 'system:admin',
    impersonationGroups: ['some-group'],
    expectedUser: { name: 'system:admin', groups: ['some-group', 'system:authenticated'], extra: extra() },
    expectedCode: 200,
  },
  {
    name: 'disallowed-userextra-1',
    user: { name: 'dev', groups: ['wheel'] },
    impersonationUser: 'system:admin',
    impersonationGroups: ['some-group'],
    impersonationUserExtras: { scopes: ['scope-a'] },
    expectedUser: { name: 'dev', groups: ['wheel'] },
    expectedCode: 403,
  },
  {
    name: 'disallowed-userextra-2',
    user: { name: 'dev', groups: ['wheel', 'extra-setter-project'] },
    impersonationUser: 'system:admin',
    impersonationGroups: ['some-group'],
    impersonationUserExtras: { scopes: ['scope-a'] },
    expectedUser: { name: 'dev', groups: ['wheel', 'extra-setter-project'] },
    expectedCode: 403,
  },
  {
    name: 'disallowed-userextra-3',
    user: { name: 'dev', groups: ['wheel', 'extra-setter-particular-scopes'] },
    impersonationUser: 'system:admin',
    impersonationGroups: ['some-group'],
    impersonationUserExtras: { scopes: ['scope-a', 'scope-b'] },
    expectedUser: { name: 'dev', groups: ['wheel', 'extra-setter-particular-scopes'] },
    expectedCode: 403,
  },
  {
    name: 'allowed-userextras',
    user: { name: 'dev', groups: ['wheel', 'extra-setter-scopes'] },
    impersonationUser: 'system:admin',
    impersonationUserExtras: { scopes: ['scope-a', 'scope-b'] },
    expectedUser: { name: 'system:admin', groups: ['system:authenticated'], extra: extra({ scopes: ['scope-a', 'scope-b'] }) },
    expectedCode: 200,
  },
  {
    name: 'percent-escaped-userextras',
    user: { name: 'dev', groups: ['wheel', 'escaped-scopes'] },
    impersonationUser: 'system:admin',
    impersonationUserExtras: { 'example.com%2fescaped%e1%9b%84scopes': ['scope-a', 'scope-b'] },
    expectedUser: { name: 'system:admin', groups: ['system:authenticated'], extra: extra({ 'example.com/escapedᛄscopes': ['scope-a', 'scope-b'] }) },
    expectedCode: 200,
  },
  {
    name: 'almost-percent-escaped-userextras',
    user: { name: 'dev', groups: ['wheel', 'almost-escaped-scopes'] },
    impersonationUser: 'system:admin',
    impersonationUserExtras: { 'almost%zzpercent%xxencoded': ['scope-a', 'scope-b'] },
    expectedUser: { name: 'system:admin', groups: ['system:authenticated'], extra: extra({ 'almost%zzpercent%xxencoded': ['scope-a', 'scope-b'] }) },
    expectedCode: 200,
  },
  {
    name: 'allowed-users-impersonation',
    user: { name: 'dev', groups: ['regular-impersonater'] },
    impersonationUser: 'tester',
    expectedUser: { name: 'tester', groups: ['system:authenticated'], extra: extra() },
    expectedCode: 200,
  },
  {
    name: 'disallowed-impersonating',
    user: { name: 'dev', groups: ['sa-impersonater'] },
    impersonationUser: 'tester',
    expectedUser: { name: 'dev', groups: ['sa-impersonater'] },
    expectedCode: 403,
  },
  {
    name: 'allowed-sa-impersonating',
    user: { name: 'dev', groups: ['sa-impersonater'], extra: {} },
    impersonationUser: 'system:serviceaccount:foo:default',
    expectedUser: { name: 'system:serviceaccount:foo:default', groups: ['system:serviceaccounts', 'system:serviceaccounts:foo', 'system:authenticated'], extra: extra() },
    expectedCode: 200,
  },
  {
    name: 'anonymous-username-prevents-adding-authenticated-group',
    user: { name: 'system:admin', groups: [] },
    impersonationUser: 'system:anonymous',
    expectedUser: { name: 'system:anonymous', groups: ['system:unauthenticated'], extra: extra() },
    expectedCode: 200,
  },
  {
    name: 'unauthenticated-group-prevents-adding-authenticated-group',
    user: { name: 'system:admin', groups: [] },
    impersonationUser: 'unknown',
    impersonationGroups: ['system:unauthenticated'],
    expectedUser: { name: 'unknown', groups: ['system:unauthenticated'], extra: extra() },
    expectedCode: 200,
  },
  {
    name: 'unauthenticated-group-prevents-double-adding-authenticated-group',
    user: { name: 'system:admin', groups: [] },
    impersonationUser: 'unknown',
    impersonationGroups: ['system:authenticated'],
    expectedUser: { name: 'unknown', groups: ['system:authenticated'], extra: extra() },
    expectedCode: 200,
  },
  {
    name: 'specified-authenticated-group-prevents-double-adding-authenticated-group',
    user: { name: 'dev', groups: ['wheel', 'group-impersonater'] },
    impersonationUser: 'system:admin',
    impersonationGroups: ['some-group', 'system:authenticated'],
    expectedUser: { name: 'system:admin', groups: ['some-group', 'system:authenticated'], extra: extra() },
    expectedCode: 200,
  },
  {
    name: 'anonymous-user-should-include-unauthenticated-group',
    user: { name: 'system:admin', groups: [] },
    impersonationUser: 'system:anonymous',
    expectedUser: { name: 'system:anonymous', groups: ['system:unauthenticated'], extra: extra() },
    expectedCode: 200,
  },
  {
    name: 'anonymous-user-prevents-double-adding-unauthenticated-group',
    user: { name: 'system:admin', groups: [] },
    impersonationUser: 'system:anonymous',
    impersonationGroups: ['system:unauthenticated'],
    expectedUser: { name: 'system:anonymous', groups: ['system:unauthenticated'], extra: extra() },
    expectedCode: 200,
  },
  {
    name: 'allowed-user-impersonation-with-uid',
    user: { name: 'dev', groups: ['everything-impersonater'] },
    impersonationUser: 'tester',
    impersonationUid: 'some-uid',
    expectedUser: { name: 'tester', uid: 'some-uid', groups: ['system:authenticated'], extra: extra() },
    expectedCode: 200,
  },
  {
    name: 'disallowed-user-impersonation-with-uid',
    user: { name: 'dev', groups: ['everything-impersonater'] },
    impersonationUser: 'tester',
    impersonationUid: 'disallowed-uid',
    expectedUser: { name: 'dev', groups: ['everything-impersonater'] },
    expectedCode: 403,
  },
  {
    name: 'allowed-impersonation-with-all-headers',
    user: { name: 'dev', groups: ['everything-impersonater'] },
    impersonationUser: 'tester',
    impersonationUid: 'some-uid',
    impersonationGroups: ['system:authenticated'],
    impersonationUserExtras: { scopes: ['scope-a', 'scope-b'] },
    expectedUser: { name: 'tester', uid: 'some-uid', groups: ['system:authenticated'], extra: extra({ scopes: ['scope-a', 'scope-b'] }) },
    expectedCode: 200,
  },
];

describe('impersonation filter (kube TestImpersonationFilter)', () => {
  let server: Server;
  let port = 0;
  /** The requestor of the next request, keyed by a header the test sets (requests run concurrently). */
  const requestors = new Map<string, UserInfo>();
  const seen = new Map<string, Seen>();
  const events: AuditEvent[] = [];

  before(async () => {
    const authenticate: Filter = (req, res, next) => {
      req.user = requestors.get(String(req.headers['x-test-case']));
      return next(req, res);
    };
    const handler = withFilters(
      [authenticate, withAudit({ sink: { processEvent: (e) => events.push(e) }, logger: silentLogger }), withImpersonation(impersonateAuthorizer, silentLogger)],
      async (req, res) => {
        seen.set(String(req.headers['x-test-case']), { user: req.user, headers: Object.keys(req.headers).filter((h) => h.startsWith('impersonate-')) });
        res.writeJSON(200, { ok: true });
      },
    );
    server = createServer((raw, response) => {
      const { req, res } = adaptRequest(raw, response);
      void handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function send(testCase: string, user: UserInfo, headers: OutgoingHttpHeaders): Promise<{ status: number; body: Record<string, unknown> }> {
    requestors.set(testCase, user);
    return new Promise((resolve, reject) => {
      const r = request({ host: '127.0.0.1', port, path: '/api/v1/pods', headers: { ...headers, 'x-test-case': testCase } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
      });
      r.on('error', reject);
      r.end();
    });
  }

  function headersOf(tc: Case): OutgoingHttpHeaders {
    const h: OutgoingHttpHeaders = {};
    if (tc.impersonationUser) h['Impersonate-User'] = tc.impersonationUser;
    if (tc.impersonationGroups) h['Impersonate-Group'] = tc.impersonationGroups;
    for (const [key, values] of Object.entries(tc.impersonationUserExtras ?? {})) h[`Impersonate-Extra-${key}`] = values;
    if (tc.impersonationUid) h['Impersonate-Uid'] = tc.impersonationUid;
    return h;
  }

  for (const tc of cases) {
    it(tc.name, async () => {
      const r = await send(tc.name, tc.user, headersOf(tc));
      assert.equal(r.status, tc.expectedCode, JSON.stringify(r.body));
      if (tc.expectedCode !== 200) return;
      const s = seen.get(tc.name);
      assert.deepEqual(s?.user, tc.expectedUser);
      assert.deepEqual(s?.headers, [], 'impersonation headers removed');
    });
  }

  it("words a refused user as kube's Forbidden (the real user, the verb impersonate, the reason)", async () => {
    const r = await send('forbidden-user', { name: 'deny-me', groups: [] }, { 'Impersonate-User': 'bob' });
    assert.equal(r.status, 403);
    assert.equal(r.body.reason, 'Forbidden');
    assert.equal(r.body.message, 'users "bob" is forbidden: User "deny-me" cannot impersonate resource "users" in API group "" at the cluster scope: denied');
    assert.deepEqual(r.body.details, { name: 'bob', kind: 'users' });
  });

  it('asks for a service account in its namespace and for an extra key as a subresource of authentication.k8s.io', async () => {
    const sa = await send('forbidden-sa', { name: 'alice', groups: [] }, { 'Impersonate-User': 'system:serviceaccount:ns1:builder' });
    assert.equal(sa.body.message, 'serviceaccounts "builder" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "ns1": deny by default');
    const ex = await send('forbidden-extra', { name: 'dev', groups: ['wheel'] }, { 'Impersonate-User': 'bob', 'Impersonate-Extra-Scopes': 'read' });
    assert.equal(
      ex.body.message,
      'userextras.authentication.k8s.io "read" is forbidden: User "dev" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope: deny by default',
    );
  });

  it('a user name that is not a valid service account name is a user (serviceaccount.SplitUsername)', async () => {
    const r = await send('sa-like-user', { name: 'dev', groups: ['regular-impersonater'] }, { 'Impersonate-User': 'system:serviceaccount:Bad_NS:x' });
    assert.equal(r.status, 200);
    assert.equal(seen.get('sa-like-user')?.user?.name, 'system:serviceaccount:Bad_NS:x');
  });

  it("words groups without a user as kube's 400 (Go's %v of the references)", async () => {
    const r = await send('bad-request', { name: 'tester', groups: [] }, { 'Impersonate-Group': ['g1', 'g2'], 'Impersonate-Uid': 'u1' });
    assert.equal(r.status, 400);
    assert.equal(r.body.reason, 'BadRequest');
    assert.equal(r.body.message, 'requested [{Group  g1    } {Group  g2    } {UID  u1  authentication.k8s.io/v1  }] without impersonating a user');
  });

  it('takes repeated Impersonate-Group headers one by one, even with commas in a value', async () => {
    const r = await send('commas', { name: 'system:admin', groups: [] }, { 'Impersonate-User': 'bob', 'Impersonate-Group': ['a, b', 'c'] });
    assert.equal(r.status, 200);
    assert.deepEqual(seen.get('commas')?.user?.groups, ['a, b', 'c', 'system:authenticated']);
  });

  it('extra keys named like Object members are data: __proto__, constructor, toString', async () => {
    const r = await send(
      'proto',
      { name: 'system:admin', groups: [] },
      { 'Impersonate-User': 'bob', 'Impersonate-Extra-__proto__': ['x', 'y'], 'Impersonate-Extra-Constructor': 'c', 'Impersonate-Extra-toString': 't' },
    );
    assert.equal(r.status, 200);
    const got = seen.get('proto')?.user;
    assert.deepEqual(got?.extra, extra({ ['__proto__']: ['x', 'y'], constructor: ['c'], tostring: ['t'] }));
    assert.ok(Object.hasOwn(got?.extra ?? {}, '__proto__'));
    assert.equal(({} as Record<string, unknown>).x, undefined, 'no prototype was touched');
  });

  it('the audit event names the authenticated user and the impersonated one', async () => {
    events.length = 0;
    const r = await send('audit', { name: 'system:admin', groups: ['system:masters'] }, { 'Impersonate-User': 'bob', 'Impersonate-Group': 'devs', 'Impersonate-Extra-Scopes': 's1' });
    assert.equal(r.status, 200);
    const complete = await until('the ResponseComplete event', () => events.find((e) => e.stage === 'ResponseComplete'));
    assert.equal(complete.user.username, 'system:admin');
    assert.deepEqual(complete.impersonatedUser, { username: 'bob', groups: ['devs', 'system:authenticated'], extra: extra({ scopes: ['s1'] }) });
  });

  it('a request without a user but with impersonation headers is an internal error', async () => {
    const r = await send('no-user', undefined as unknown as UserInfo, { 'Impersonate-User': 'bob' });
    assert.equal(r.status, 500);
    assert.equal(r.body.message, 'Internal error occurred: no user found for request');
  });
});
