import type { NonResourceRule, ResourceRule, SelfSubjectRulesReview, SubjectRulesReviewStatus } from '../../../apis/authorization/v1/types.js';
import { newBadRequest } from '../../apimachinery/errors/index.js';
import type { RulesReview } from '../../apimachinery/request/authorizer.js';
import type { UserInfo } from '../../apimachinery/request/types.js';
import { deepCopyJSON } from '../../apimachinery/serializer/jsonvalue.js';
import type { KubeObject, ResourceStorage } from '../../registry/rest.js';
import type { RESTAuthContext } from '../../registry/types.js';
import { GROUP } from './access-reviews.js';
import { answerMetadata, createOnlyStorage, requireAuth } from './create-only.js';

/**
 * pkg/registry/authorization/selfsubjectrulesreview: what the requesting user may do in the
 * namespace the spec names (`kubectl auth can-i --list`), from the server's rule resolver. The
 * answer is a new review: the request's spec and metadata are not echoed (kube answers
 * `spec: {}`), and nothing is stored.
 */
export function selfSubjectRulesReviewStorage(auth: RESTAuthContext | undefined): ResourceStorage {
  return createOnlyStorage({ group: GROUP, resource: 'selfsubjectrulesreviews' }, async (ctx, obj, validate) => {
    const namespace = (obj as unknown as SelfSubjectRulesReview).spec?.namespace ?? '';
    if (namespace === '') throw newBadRequest('no namespace on request');
    await validate(deepCopyJSON(obj), undefined);
    const rules = await rulesFor(requireAuth(auth, 'SelfSubjectRulesReview'), ctx.user, namespace);
    return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: answerMetadata(undefined), spec: {}, status: rulesReviewStatus(rules) } as unknown as KubeObject;
  });
}

/** A resolver that fails outright lists nothing: the answer says so (incomplete, with the error) instead of failing the request. */
async function rulesFor(auth: RESTAuthContext, user: UserInfo, namespace: string): Promise<RulesReview> {
  try {
    return await auth.ruleResolver.rulesFor(user, namespace);
  } catch (err) {
    return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: err instanceof Error ? err.message : String(err) };
  }
}

/** The status as kube encodes it: both rule lists and `incomplete` always, the rules' empty lists omitted. */
export function rulesReviewStatus(rules: RulesReview): SubjectRulesReviewStatus {
  const status: SubjectRulesReviewStatus = {
    resourceRules: rules.resourceRules.map(resourceRule),
    nonResourceRules: rules.nonResourceRules.map(nonResourceRule),
    incomplete: rules.incomplete,
  };
  if (rules.evaluationError !== '') status.evaluationError = rules.evaluationError;
  return status;
}

function resourceRule(r: ResourceRule): ResourceRule {
  return { verbs: [...r.verbs], ...nonEmpty('apiGroups', r.apiGroups), ...nonEmpty('resources', r.resources), ...nonEmpty('resourceNames', r.resourceNames) };
}

function nonResourceRule(r: NonResourceRule): NonResourceRule {
  return { verbs: [...r.verbs], ...nonEmpty('nonResourceURLs', r.nonResourceURLs) };
}

function nonEmpty<K extends string>(key: K, list: readonly string[] | undefined): Partial<Record<K, string[]>> {
  return list === undefined || list.length === 0 ? {} : ({ [key]: [...list] } as Record<K, string[]>);
}
