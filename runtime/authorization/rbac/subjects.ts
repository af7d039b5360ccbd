import type { Subject } from '../../../apis/rbac/v1/types.js';
import type { UserInfo } from '../../apimachinery/request/types.js';

/**
 * Which users a binding's subjects name, as kube's appliesTo / appliesToUser
 * (pkg/registry/rbac/validation/rule.go): a User subject is the user of exactly that name, a
 * Group subject every user in that group, a ServiceAccount subject the user
 * `system:serviceaccount:<namespace>:<name>`. There are no wildcards (a User named `*` is a user
 * named `*`), and `system:serviceaccounts` / `system:serviceaccounts:<ns>` are ordinary groups.
 */

export const UserKind = 'User';
export const GroupKind = 'Group';
export const ServiceAccountKind = 'ServiceAccount';

const serviceAccountUsernamePrefix = 'system:serviceaccount:';

/** serviceaccount.MakeUsername. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${serviceAccountUsernamePrefix}${namespace}:${name}`;
}

/**
 * The namespace a ServiceAccount subject names: its own, else the binding's (a RoleBinding may
 * name a service account of its namespace unqualified); '' when neither (never applies).
 */
function serviceAccountNamespace(subject: Subject, bindingNamespace: string): string {
  return subject.namespace !== undefined && subject.namespace !== '' ? subject.namespace : bindingNamespace;
}

export function appliesToUser(user: UserInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case UserKind:
      return user.name === subject.name;
    case GroupKind:
      return user.groups.includes(subject.name);
    case ServiceAccountKind: {
      const ns = serviceAccountNamespace(subject, namespace);
      // serviceaccount.MatchesUsername compares prefix, namespace, ':' and name in turn: the same as
      // comparing the whole user name.
      return ns !== '' && user.name === serviceAccountUsername(ns, subject.name);
    }
    default:
      return false;
  }
}

/** appliesTo: the index of the first subject that names the user, or -1 when none does. */
export function appliesTo(user: UserInfo, subjects: readonly Subject[] | undefined, namespace: string): number {
  return (subjects ?? []).findIndex((s) => appliesToUser(user, s, namespace));
}

/**
 * Where the index finds a subject: under the user name it matches (service accounts by their
 * user name) or under its group. Undefined for a subject that can match no user (an unknown
 * kind, a service account with no namespace in a ClusterRoleBinding).
 */
export function subjectKey(subject: Subject, bindingNamespace: string): { readonly group: boolean; readonly name: string } | undefined {
  switch (subject.kind) {
    case UserKind:
      return { group: false, name: subject.name };
    case GroupKind:
      return { group: true, name: subject.name };
    case ServiceAccountKind: {
      const ns = serviceAccountNamespace(subject, bindingNamespace);
      return ns === '' ? undefined : { group: false, name: serviceAccountUsername(ns, subject.name) };
    }
    default:
      return undefined;
  }
}

/** describeSubject: `User "alice"`, `Group "g"`, `ServiceAccount "name/namespace"`. */
export function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === ServiceAccountKind) {
    return `${subject.kind} ${JSON.stringify(`${subject.name}/${serviceAccountNamespace(subject, bindingNamespace)}`)}`;
  }
  return `${subject.kind} ${JSON.stringify(subject.name)}`;
}
