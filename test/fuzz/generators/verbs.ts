// Which request carries a corrupted body, and what kube answers when the body cannot be decoded:
// the Content-Type is checked first (415), then the body is read (413 over the limit), then
// decoded (400). Shared by every generator that breaks a body.
import { APPLY_REFUSALS, BAD_REQUEST, DELETE_OPTIONS_UNDECODABLE, METHOD_NOT_ALLOWED, UNSUPPORTED, type Expect, type StatusExpect } from '../cases.js';
import type { Rand } from '../prng.js';
import type { PatchType, Target, Verb } from '../targets.js';

export interface BodyVerb {
  verb: Extract<Verb, 'create' | 'update' | 'patch' | 'delete' | 'deletecollection'>;
  patchType?: PatchType;
  subresource?: 'status' | 'scale';
}

const PATCH_TYPES: readonly PatchType[] = ['json', 'merge', 'strategic', 'apply'];

/** A random request that carries a body on `t`: create, update, a patch of any type, delete; on the object or a subresource. */
export function pickBodyVerb(r: Rand, t: Target, verbs: readonly BodyVerb['verb'][] = ['create', 'update', 'patch', 'patch', 'delete', 'deletecollection']): BodyVerb {
  const verb = r.pick(verbs);
  const sub = (verb === 'update' || verb === 'patch') && t.subresources.length > 0 && r.chance(0.3) ? r.pick(t.subresources) : undefined;
  const patchType = verb === 'patch' ? r.pick(PATCH_TYPES) : undefined;
  return { verb, ...(patchType ? { patchType } : {}), ...(sub ? { subresource: sub } : {}) };
}

/**
 * What kube answers when the body is refused for `why` (default: it cannot be decoded): the verb
 * is checked first (deletecollection of a kind without it is 405), a strategic merge patch of a
 * custom resource is 415 before its body is read, and an apply patch may also answer what only
 * apply answers (APPLY_REFUSALS: these requests carry no fieldManager).
 */
export function bodyRefusal(t: Target, v: BodyVerb, why: readonly StatusExpect[] = [BAD_REQUEST]): Expect[] {
  if (v.verb === 'deletecollection' && !t.deleteCollection) return [METHOD_NOT_ALLOWED];
  if (v.verb === 'patch' && v.patchType === 'strategic' && !t.strategic) return [UNSUPPORTED];
  if (v.verb === 'patch' && v.patchType === 'apply') return [...why, ...APPLY_REFUSALS];
  // DeleteOptions a decoder refuses are not a 400 (DELETE_OPTIONS_UNDECODABLE).
  if (v.verb === 'delete' || v.verb === 'deletecollection') return why.map((w) => (w === BAD_REQUEST ? DELETE_OPTIONS_UNDECODABLE : w));
  return [...why];
}

/** The Content-Type a body of this request is sent with when it is JSON. */
export function jsonContentType(v: BodyVerb): string | undefined {
  return v.verb === 'patch' ? undefined : 'application/json';
}
