import type { LocalSubjectAccessReview, SelfSubjectAccessReview, SubjectAccessReview, SubjectAccessReviewStatus } from '../../../apis/authorization/v1/types.js';
import { newBadRequest, newInvalid, type GroupKind } from '../../apimachinery/errors/index.js';
import type { Authorizer } from '../../apimachinery/request/authorizer.js';
import { deepCopyJSON } from '../../apimachinery/serializer/jsonvalue.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import type { KubeObject, RequestContext, ResourceStorage, ValidateObjectFunc } from '../../registry/rest.js';
import type { RESTAuthContext } from '../../registry/types.js';
import { authorizationAttributesFrom, buildEvaluationError, nonResourceAttributesFrom, resourceAttributesFrom, type ReviewAttributes } from './attributes.js';
import { createOnlyStorage, requireAuth, withStatus } from './create-only.js';
import { validateLocalSubjectAccessReview, validateSelfSubjectAccessReview, validateSubjectAccessReview } from './validation.js';

/**
 * pkg/registry/authorization/{subjectaccessreview,selfsubjectaccessreview,localsubjectaccessreview}:
 * each create asks the server's authorizer the review's question and answers the review with its
 * status filled in; nothing is stored, and a dry run answers the same.
 */

export const GROUP = 'authorization.k8s.io';

/**
 * The kind kube's Invalid errors name: the decoded object's, which is empty once converted to
 * the internal version, so the message reads `.authorization.k8s.io "" is invalid: …`.
 */
const INVALID_KIND: GroupKind = { group: GROUP, kind: '' };

/** SubjectAccessReview: may the user (and groups) the spec names do this? */
export function subjectAccessReviewStorage(auth: RESTAuthContext | undefined): ResourceStorage {
  return createOnlyStorage({ group: GROUP, resource: 'subjectaccessreviews' }, async (_ctx, obj, validate) => {
    const sar = obj as unknown as SubjectAccessReview;
    await admitValid(obj, validateSubjectAccessReview(sar), validate);
    const review = authorizationAttributesFrom(sar.spec ?? {});
    return answer(obj, await decide(requireAuth(auth, 'SubjectAccessReview').authorizer, review));
  });
}

/** SelfSubjectAccessReview: may I (the requesting user) do this? What `kubectl auth can-i` asks. */
export function selfSubjectAccessReviewStorage(auth: RESTAuthContext | undefined): ResourceStorage {
  return createOnlyStorage({ group: GROUP, resource: 'selfsubjectaccessreviews' }, async (ctx, obj, validate) => {
    const sar = obj as unknown as SelfSubjectAccessReview;
    await admitValid(obj, validateSelfSubjectAccessReview(sar), validate);
    const spec = sar.spec ?? {};
    const review = spec.resourceAttributes !== undefined ? resourceAttributesFrom(ctx.user, spec.resourceAttributes) : nonResourceAttributesFrom(ctx.user, spec.nonResourceAttributes ?? {});
    return answer(obj, await decide(requireAuth(auth, 'SelfSubjectAccessReview').authorizer, review));
  });
}

/** LocalSubjectAccessReview: a SubjectAccessReview confined to the namespace it is created in. */
export function localSubjectAccessReviewStorage(auth: RESTAuthContext | undefined): ResourceStorage {
  return createOnlyStorage({ group: GROUP, resource: 'localsubjectaccessreviews' }, async (ctx, obj, validate) => {
    const sar = obj as unknown as LocalSubjectAccessReview;
    const errs = validateLocalSubjectAccessReview(sar);
    if (errs.length > 0) throw newInvalid(INVALID_KIND, '', errs);
    checkRequestNamespace(ctx, sar.metadata?.namespace ?? '');
    await validate(deepCopyJSON(obj), undefined);
    const review = authorizationAttributesFrom(sar.spec ?? {});
    return answer(obj, await decide(requireAuth(auth, 'LocalSubjectAccessReview').authorizer, review));
  });
}

/** The URL's namespace is the review's (the handler put it there; anything else is a bad request). */
function checkRequestNamespace(ctx: RequestContext, namespace: string): void {
  if (ctx.namespace === '') throw newBadRequest(`namespace is required on this type: ${ctx.namespace}`);
  if (ctx.namespace !== namespace) throw newBadRequest(`spec.resourceAttributes.namespace must match namespace: ${ctx.namespace}`);
}

/** Validation (422) first, then validating admission on a copy, as kube's storages do. */
async function admitValid(obj: KubeObject, errs: readonly FieldError[], validate: ValidateObjectFunc): Promise<void> {
  if (errs.length > 0) throw newInvalid(INVALID_KIND, '', errs);
  await validate(deepCopyJSON(obj), undefined);
}

/**
 * The review's status from the authorizer's decision. An authorizer that could not decide
 * (rejected) has no opinion, and its error is the evaluation error, as kube's Authorize returns
 * NoOpinion with an error; the selectors' parse errors are added to it.
 */
export async function decide(authorizer: Authorizer, review: ReviewAttributes): Promise<SubjectAccessReviewStatus> {
  let decision = 'noOpinion';
  let reason = '';
  let evaluationError = '';
  try {
    ({ decision, reason } = await authorizer.authorize(review.attributes));
  } catch (err) {
    evaluationError = err instanceof Error ? err.message : String(err);
  }
  const status: SubjectAccessReviewStatus = { allowed: decision === 'allow' };
  if (decision === 'deny') status.denied = true;
  if (reason !== '') status.reason = reason;
  const error = buildEvaluationError(evaluationError, review);
  if (error !== '') status.evaluationError = error;
  return status;
}

function answer(obj: KubeObject, status: SubjectAccessReviewStatus): KubeObject {
  return withStatus(obj, status);
}
