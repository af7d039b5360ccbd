/**
 * Version v1 of rbac.authorization.k8s.io, transliterated from k8s.io/api/rbac/v1: the roles
 * and bindings the RBAC authorizer reads. Who may create or change them is decided by the
 * group's REST storage (escalation prevention), not by these types.
 *
 * @groupName rbac.authorization.k8s.io
 * @storageVersion
 * @hub
 * @openapiModelPackage io.k8s.api.rbac.v1
 */
export {};
