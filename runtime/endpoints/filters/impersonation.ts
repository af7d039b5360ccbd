import type { IncomingMessage } from 'node:http';
import { newBadRequest, newInternalError } from '../../apimachinery/errors/index.js';
import type { Filter } from '../../apimachinery/request/http.js';
import type { UserInfo } from '../../apimachinery/request/types.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../apimachinery/validation/names.js';
import { deleteHeaders, unescapeExtraKey } from '../../authentication/requestheader.js';
import { makeGroupNames, makeUsername, SERVICE_ACCOUNT_USERNAME_PREFIX } from '../../authentication/serviceaccount/util.js';
import type { Attributes, Authorizer } from '../../authorization/authorizer.js';
import { logImpersonatedUser } from './audit.js';
import { forbiddenError } from './authorization.js';
import type { Logger } from './log.js';

/**
 * WithImpersonation (k8s.io/apiserver/pkg/endpoints/filters/impersonation): a user may act as
 * another by sending Impersonate-User (and Impersonate-Group, repeated, Impersonate-Uid,
 * Impersonate-Extra-<key>), each value allowed by the authorizer to the REAL user as the verb
 * `impersonate`. Runs after authentication and before authorization, which then judges the
 * impersonated user.
 */

const USER_HEADER = 'impersonate-user';
const GROUP_HEADER = 'impersonate-group';
const UID_HEADER = 'impersonate-uid';
const EXTRA_HEADER_PREFIX = 'impersonate-extra-';

const ALL_AUTHENTICATED = 'system:authenticated';
const ALL_UNAUTHENTICATED = 'system:unauthenticated';
const ANONYMOUS = 'system:anonymous';
const AUTHENTICATION_GROUP = 'authentication.k8s.io';

/** One thing to impersonate, as kube's v1.ObjectReference of buildImpersonationRequests. */
interface ImpersonationRequest {
  readonly kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  readonly namespace: string;
  readonly name: string;
  /** `authentication.k8s.io/v1` for UserExtra and UID, '' otherwise. */
  readonly apiVersion: string;
  /** The extra key of a UserExtra (kube carries it in FieldPath). */
  readonly fieldPath: string;
}

export function withImpersonation(authorizer: Authorizer, logger: Logger): Filter {
  return async (req, res, next) => {
    const headers = headerValues(req.raw);
    const requests = buildImpersonationRequests(headers);
    if (requests instanceof Error) {
      res.writeError(requests);
      return;
    }
    if (requests.length === 0) return next(req, res);
    const requestor = req.user;
    if (requestor === undefined) {
      res.writeError(newInternalError(new Error('no user found for request')));
      return;
    }
    // Impersonate-Group given: those groups are the authority (system:authenticated included or not).
    const groupsSpecified = (headers.get(GROUP_HEADER) ?? []).length > 0;
    let username = '';
    let uid = '';
    let groups: string[] = [];
    // Keys are the client's data: no prototype, so `__proto__` is a key like any other.
    const extra = Object.create(null) as Record<string, string[]>;
    for (const r of requests) {
      const attributes = actingAsAttributes(requestor, r);
      switch (r.kind) {
        case 'ServiceAccount':
          username = makeUsername(r.namespace, r.name);
          if (!groupsSpecified) groups = makeGroupNames(r.namespace);
          break;
        case 'User':
          username = r.name;
          break;
        case 'Group':
          groups.push(r.name);
          break;
        case 'UserExtra':
          (extra[r.fieldPath] ??= []).push(r.name);
          break;
        case 'UID':
          uid = r.name;
          break;
      }
      let allowed = false;
      let reason = '';
      try {
        const result = await authorizer.authorize(attributes);
        allowed = result.decision === 'allow';
        reason = result.reason;
      } catch (err) {
        // kube answers an authorizer error as a denial without a reason.
        logger.info('impersonation authorizer failed', { URI: req.raw.url, err });
      }
      if (!allowed) {
        res.writeError(forbiddenError(attributes, reason));
        return;
      }
    }
    const impersonated: UserInfo = { name: username, ...(uid !== '' ? { uid } : {}), groups: withAllGroup(username, groups), extra };
    req.user = impersonated;
    logImpersonatedUser(req, requestor, impersonated);
    deleteHeaders(req.raw, isImpersonationHeader);
    return next(req, res);
  };
}

/**
 * kube adds system:authenticated to a non-anonymous user unless the groups already hold it or
 * system:unauthenticated, and system:unauthenticated to system:anonymous unless present.
 */
function withAllGroup(username: string, groups: readonly string[]): string[] {
  if (username === ANONYMOUS) return groups.includes(ALL_UNAUTHENTICATED) ? [...groups] : [...groups, ALL_UNAUTHENTICATED];
  return groups.includes(ALL_AUTHENTICATED) || groups.includes(ALL_UNAUTHENTICATED) ? [...groups] : [...groups, ALL_AUTHENTICATED];
}

function actingAsAttributes(user: UserInfo, r: ImpersonationRequest): Attributes {
  const [group, version] = r.apiVersion === '' ? ['', ''] : [AUTHENTICATION_GROUP, 'v1'];
  const resource = { ServiceAccount: 'serviceaccounts', User: 'users', Group: 'groups', UserExtra: 'userextras', UID: 'uids' }[r.kind];
  return {
    user,
    verb: 'impersonate',
    isResourceRequest: true,
    path: '',
    namespace: r.namespace,
    apiGroup: group,
    apiVersion: version,
    resource,
    subresource: r.kind === 'UserExtra' ? r.fieldPath : '',
    name: r.name,
  };
}

/**
 * buildImpersonationRequests: the user (a service account when the name is one), each group,
 * each extra value, the UID. Groups, extra or a UID without a user are a 400, worded as kube's
 * (Go's %v of the references).
 */
function buildImpersonationRequests(headers: ReadonlyMap<string, readonly string[]>): ImpersonationRequest[] | Error {
  const requests: ImpersonationRequest[] = [];
  const ref = (kind: ImpersonationRequest['kind'], name: string, more: Partial<ImpersonationRequest> = {}): ImpersonationRequest => ({
    kind,
    namespace: '',
    name,
    apiVersion: '',
    fieldPath: '',
    ...more,
  });
  const user = headers.get(USER_HEADER)?.[0] ?? '';
  if (user !== '') {
    const sa = splitServiceAccountUsername(user);
    requests.push(sa === undefined ? ref('User', user) : ref('ServiceAccount', sa.name, { namespace: sa.namespace }));
  }
  const groups = headers.get(GROUP_HEADER) ?? [];
  for (const g of groups) requests.push(ref('Group', g));
  let hasExtra = false;
  for (const [name, values] of headers) {
    if (!name.startsWith(EXTRA_HEADER_PREFIX)) continue;
    hasExtra = true;
    const key = unescapeExtraKey(name.slice(EXTRA_HEADER_PREFIX.length));
    for (const v of values) requests.push(ref('UserExtra', v, { apiVersion: `${AUTHENTICATION_GROUP}/v1`, fieldPath: key }));
  }
  const uid = headers.get(UID_HEADER)?.[0] ?? '';
  if (uid !== '') requests.push(ref('UID', uid, { apiVersion: `${AUTHENTICATION_GROUP}/v1` }));
  if ((groups.length > 0 || hasExtra || uid !== '') && user === '') {
    return newBadRequest(`requested [${requests.map(goObjectReference).join(' ')}] without impersonating a user`);
  }
  return requests;
}

/** Go's %v of a v1.ObjectReference: {Kind Namespace Name UID APIVersion ResourceVersion FieldPath}. */
function goObjectReference(r: ImpersonationRequest): string {
  return `{${[r.kind, r.namespace, r.name, '', r.apiVersion, '', r.fieldPath].join(' ')}}`;
}

/** serviceaccount.SplitUsername: `system:serviceaccount:<ns>:<name>` with a valid namespace and name, else undefined. */
function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_USERNAME_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_USERNAME_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace = '', name = ''] = parts;
  if (isDNS1123Label(namespace).length > 0 || isDNS1123Subdomain(name).length > 0) return undefined;
  return { namespace, name };
}

function isImpersonationHeader(lowerName: string): boolean {
  return lowerName === USER_HEADER || lowerName === GROUP_HEADER || lowerName === UID_HEADER || lowerName.startsWith(EXTRA_HEADER_PREFIX);
}

/**
 * Every value of every header by lower-cased name, in the order sent, from rawHeaders: node joins
 * repeated unknown headers with ", " in `headers` (a group may contain one), and HTTP/2 requests
 * have no headersDistinct.
 */
function headerValues(raw: IncomingMessage): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const rawHeaders = raw.rawHeaders;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] ?? '').toLowerCase();
    if (!isImpersonationHeader(name)) continue;
    const list = out.get(name);
    const value = rawHeaders[i + 1] ?? '';
    if (list === undefined) out.set(name, [value]);
    else list.push(value);
  }
  return out;
}
