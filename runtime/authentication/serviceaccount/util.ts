import type { UserInfo } from '../../apimachinery/request/types.js';

/**
 * Service-account user names, groups and extra keys (k8s.io/apiserver/pkg/authentication/serviceaccount):
 * what a verified token says about who sent a request.
 */

export const SERVICE_ACCOUNT_USERNAME_PREFIX = 'system:serviceaccount:';
export const SERVICE_ACCOUNT_GROUP_PREFIX = 'system:serviceaccounts:';
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';

/** user.CredentialIDKey: the JTI of the token, so audit events can be traced back to its issuance. */
export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';
export const POD_NAME_KEY = 'authentication.kubernetes.io/pod-name';
export const POD_UID_KEY = 'authentication.kubernetes.io/pod-uid';
export const NODE_NAME_KEY = 'authentication.kubernetes.io/node-name';
export const NODE_UID_KEY = 'authentication.kubernetes.io/node-uid';

/** MakeUsername: `system:serviceaccount:<namespace>:<name>`. */
export function makeUsername(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_USERNAME_PREFIX}${namespace}:${name}`;
}

/** MakeGroupNames: every service account is in `system:serviceaccounts` and `system:serviceaccounts:<namespace>`. */
export function makeGroupNames(namespace: string): string[] {
  return [ALL_SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNT_GROUP_PREFIX}${namespace}`];
}

/** CredentialIDForJTI: `JTI=<jti>`, or '' for a token without one. */
export function credentialIDForJTI(jti: string): string {
  return jti === '' ? '' : `JTI=${jti}`;
}

/** ServiceAccountInfo: what the validator learnt from a token and the objects it names. */
export interface ServiceAccountInfo {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly podName?: string;
  readonly podUID?: string;
  readonly nodeName?: string;
  readonly nodeUID?: string;
  readonly credentialID?: string;
}

/**
 * ServiceAccountInfo.UserInfo: the pod's name and UID only together, the node's UID only with its
 * name, the credential ID when the token had a JTI.
 */
export function serviceAccountUserInfo(sa: ServiceAccountInfo): UserInfo {
  const extra: Record<string, string[]> = {};
  if (sa.podName && sa.podUID) {
    extra[POD_NAME_KEY] = [sa.podName];
    extra[POD_UID_KEY] = [sa.podUID];
  }
  if (sa.credentialID) extra[CREDENTIAL_ID_KEY] = [sa.credentialID];
  if (sa.nodeName) {
    extra[NODE_NAME_KEY] = [sa.nodeName];
    if (sa.nodeUID) extra[NODE_UID_KEY] = [sa.nodeUID];
  }
  const user = { name: makeUsername(sa.namespace, sa.name), uid: sa.uid, groups: makeGroupNames(sa.namespace) };
  return Object.keys(extra).length === 0 ? user : { ...user, extra };
}
