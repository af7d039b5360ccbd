import { randomUUID } from 'node:crypto';
import { newBadRequest, newInvalid } from '../../apimachinery/errors/index.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import type { ObjectMeta } from '../../apimachinery/object.js';
import type { KubeObject, RequestContext } from '../rest.js';
import { formatTime, type ResourceInfo } from './context.js';
import { generateName, type RandomIntFunc } from './names.js';
import { dnsSubdomainName, metaOf, validateObjectMetaCreate } from './objectMeta.js';

/** Whether the server has to pick the name (generateName set, name empty). */
export function needsNameGeneration(obj: KubeObject): boolean {
  const meta = obj.metadata;
  return typeof meta?.generateName === 'string' && meta.generateName !== '' && (meta.name === undefined || meta.name === '');
}

/** FillObjectMetaSystemFields plus name generation: uid, creationTimestamp and the generated name. */
export function fillSystemFields(obj: KubeObject, now: () => Date, random: RandomIntFunc): void {
  const meta = metaOf(obj);
  meta.uid = randomUUID();
  meta.creationTimestamp = formatTime(now());
  if (needsNameGeneration(obj)) meta.name = generateName(meta.generateName as string, random);
}

/**
 * EnsureObjectNamespaceMatchesRequestNamespace: an empty object namespace takes the request's;
 * cluster-scoped objects (expected '') lose theirs; any other mismatch is a 400.
 */
export function ensureNamespace(expected: string, meta: ObjectMeta): void {
  const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
  if (ns === expected) return;
  if (ns === '') meta.namespace = expected;
  else if (expected === '') delete meta.namespace;
  else throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
}

/**
 * rest.BeforeCreate: namespace from the request, deletion fields cleared, generation 1, status
 * dropped when a status subresource owns it, then the strategy's preparation, validation (422
 * with the ObjectMeta errors first), warnings and canonicalization. Mutates obj.
 */
export function beforeCreate(info: ResourceInfo, ctx: Pick<RequestContext, 'namespace' | 'warn'>, obj: KubeObject): void {
  prepareCreate(info, ctx, obj);
  finishCreate(info, ctx, obj, info.strategy.validate?.(obj) ?? []);
}

/** The first half of beforeCreate, up to and including the strategy's preparation. */
export function prepareCreate(info: ResourceInfo, ctx: Pick<RequestContext, 'namespace'>, obj: KubeObject): void {
  const meta = metaOf(obj);
  ensureNamespace(info.namespaced ? ctx.namespace : '', meta);
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  meta.generation = 1;
  if (info.hasStatus) delete obj.status;
  info.strategy.prepareForCreate?.(obj);
}

/**
 * The second half of beforeCreate: the ObjectMeta errors and `strategyErrors` (the strategy's
 * validation of the prepared object, which the caller may have run in another version) as one
 * 422, then warnings and canonicalization.
 */
export function finishCreate(info: ResourceInfo, ctx: Pick<RequestContext, 'warn'>, obj: KubeObject, strategyErrors: readonly FieldError[]): void {
  const strategy = info.strategy;
  const errs = [...validateObjectMetaCreate(metaOf(obj), info.namespaced, (n) => (strategy.validateName ?? dnsSubdomainName)(n)), ...strategyErrors];
  if (errs.length > 0) throw newInvalid(info.groupKind, String(metaOf(obj).name ?? ''), errs);
  for (const w of strategy.warningsOnCreate?.(obj) ?? []) ctx.warn(w);
  strategy.canonicalize?.(obj);
}
