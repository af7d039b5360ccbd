import { newNotFound } from '../../apimachinery/errors/index.js';
import { DEFAULT_LEEWAY_SECONDS, validateTokenTimes, type KubernetesClaims, type PublicClaims, type Ref } from './claims.js';
import { credentialIDForJTI, type ServiceAccountInfo } from './util.js';

/**
 * kube's service-account token validator (pkg/serviceaccount/claims.go, validator.Validate): a
 * token whose signature and issuer are verified is still refused once the service account or
 * the object it is bound to is gone, replaced (another UID) or being deleted.
 */

/** The part of an object the validator reads. */
export interface ObjectIdentity {
  readonly uid: string;
  /** metadata.deletionTimestamp (RFC 3339), when the object is being deleted. */
  readonly deletionTimestamp?: string;
}

export type BoundObjectKind = 'Pod' | 'Secret' | 'Node';

/**
 * ServiceAccountTokenGetter: reads the objects a token names. Resolves undefined when the object
 * does not exist; rejects when the store could not tell (the token is then refused too).
 * Nodes are cluster-scoped: `namespace` is '' for them.
 */
export interface ServiceAccountTokenGetter {
  getServiceAccount(namespace: string, name: string): Promise<ObjectIdentity | undefined>;
  getBoundObject(kind: BoundObjectKind, namespace: string, name: string): Promise<ObjectIdentity | undefined>;
}

const INVALIDATED = 'service account token has been invalidated';

function deletedBefore(o: ObjectIdentity, cutoffMs: number): boolean {
  if (o.deletionTimestamp === undefined) return false;
  const t = Date.parse(o.deletionTimestamp);
  return !Number.isNaN(t) && t < cutoffMs;
}

/** A bound Secret, Pod or Node must still exist with the UID of the claim and not be deleted. */
async function checkBound(getter: ServiceAccountTokenGetter, kind: BoundObjectKind, namespace: string, r: Ref, cutoffMs: number): Promise<void> {
  let obj: ObjectIdentity | undefined;
  try {
    obj = await getter.getBoundObject(kind, kind === 'Node' ? '' : namespace, r.name);
  } catch {
    throw new Error(INVALIDATED);
  }
  if (obj === undefined) throw new Error(INVALIDATED);
  if (obj.uid !== r.uid) throw new Error(`${kind.toLowerCase()} UID (${obj.uid}) does not match service account ${kind.toLowerCase()} ref claim (${r.uid})`);
  if (deletedBefore(obj, cutoffMs)) throw new Error(INVALIDATED);
}

/**
 * Validate: times (with the leeway), then the service account (exists, same UID, not deleted
 * before now minus the leeway), then the bound Secret, Pod or Node. A node claim beside a pod
 * claim is information only (the pod's node when the token was issued); a node claim alone is a
 * binding to that node.
 */
export async function validateServiceAccountToken(getter: ServiceAccountTokenGetter, pub: PublicClaims, k: KubernetesClaims, nowMs: number): Promise<ServiceAccountInfo> {
  validateTokenTimes(pub, nowMs / 1000);
  const cutoffMs = nowMs - DEFAULT_LEEWAY_SECONDS * 1000;
  const { namespace, serviceaccount: sa } = k;
  const account = await getter.getServiceAccount(namespace, sa.name);
  if (account === undefined) throw newNotFound({ group: '', resource: 'serviceaccounts' }, sa.name);
  if (account.uid !== sa.uid) throw new Error(`service account UID (${account.uid}) does not match claim (${sa.uid})`);
  if (deletedBefore(account, cutoffMs)) throw new Error(`service account ${namespace}/${sa.name} has been deleted`);
  if (k.secret !== undefined) await checkBound(getter, 'Secret', namespace, k.secret, cutoffMs);
  if (k.pod !== undefined) await checkBound(getter, 'Pod', namespace, k.pod, cutoffMs);
  if (k.node !== undefined && k.pod === undefined) await checkBound(getter, 'Node', '', k.node, cutoffMs);
  const node = k.node === undefined ? {} : { nodeName: k.node.name, nodeUID: k.node.uid };
  const pod = k.pod === undefined ? {} : { podName: k.pod.name, podUID: k.pod.uid };
  return { namespace, name: sa.name, uid: sa.uid, ...pod, ...node, credentialID: credentialIDForJTI(pub.jti) };
}
