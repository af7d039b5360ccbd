import type { FieldSelectorRequirement, NonResourceAttributes, ResourceAttributes, SubjectAccessReviewSpec } from '../../../apis/authorization/v1/types.js';
import type { LabelSelectorRequirement } from '../../../apis/meta/v1/types.js';
import { aggregateMessage } from '../../apimachinery/errors/aggregate.js';
import * as fields from '../../apimachinery/fields/index.js';
import * as labels from '../../apimachinery/labels/index.js';
import type { Attributes } from '../../apimachinery/request/authorizer.js';
import type { UserInfo } from '../../apimachinery/request/types.js';

/**
 * pkg/registry/authorization/util: the authorizer attributes an access review asks about. Kube's
 * AttributesRecord also carries the selectors of the reviewed list or watch, parsed, with the
 * parse error beside what could be parsed: the authorizer vocabulary here has no selectors, so
 * they travel beside the attributes, and only their parse errors reach the review's answer
 * (BuildEvaluationError).
 */

/** What could be parsed of a selector (undefined: none given), and why the rest could not. */
export interface ParsedSelector<R> {
  readonly requirements: readonly R[];
  readonly error?: string;
}

export interface ReviewAttributes {
  readonly attributes: Attributes;
  readonly fieldSelector?: ParsedSelector<fields.Requirement>;
  readonly labelSelector?: ParsedSelector<labels.Requirement>;
}

/** ResourceAttributesFrom: the review's resource attributes for `user`; an empty version matches every version (`*`). */
export function resourceAttributesFrom(user: UserInfo, ra: ResourceAttributes): ReviewAttributes {
  const attributes: Attributes = {
    user,
    verb: ra.verb ?? '',
    isResourceRequest: true,
    path: '',
    namespace: ra.namespace ?? '',
    apiGroup: ra.group ?? '',
    apiVersion: ra.version === undefined || ra.version === '' ? '*' : ra.version,
    resource: ra.resource ?? '',
    subresource: ra.subresource ?? '',
    name: ra.name ?? '',
  };
  const fieldSelector = ra.fieldSelector === undefined ? undefined : parseFieldSelector(ra.fieldSelector.rawSelector ?? '', ra.fieldSelector.requirements ?? []);
  const labelSelector = ra.labelSelector === undefined ? undefined : parseLabelSelector(ra.labelSelector.rawSelector ?? '', ra.labelSelector.requirements ?? []);
  return { attributes, ...(fieldSelector === undefined ? {} : { fieldSelector }), ...(labelSelector === undefined ? {} : { labelSelector }) };
}

/** NonResourceAttributesFrom: the path and verb for `user`. */
export function nonResourceAttributesFrom(user: UserInfo, nra: NonResourceAttributes): ReviewAttributes {
  return {
    attributes: { user, verb: nra.verb ?? '', isResourceRequest: false, path: nra.path ?? '', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' },
  };
}

/** AuthorizationAttributesFrom: the user the spec names (user, groups, uid, extra) and its resource or non-resource attributes. */
export function authorizationAttributesFrom(spec: SubjectAccessReviewSpec): ReviewAttributes {
  const user: UserInfo = {
    name: spec.user ?? '',
    groups: spec.groups ?? [],
    ...(spec.uid === undefined ? {} : { uid: spec.uid }),
    ...(spec.extra === undefined ? {} : { extra: spec.extra }),
  };
  if (spec.resourceAttributes !== undefined) return resourceAttributesFrom(user, spec.resourceAttributes);
  return nonResourceAttributesFrom(user, spec.nonResourceAttributes ?? {});
}

/**
 * BuildEvaluationError: the authorizer's error, then a note for each selector that could not be
 * parsed (partly or at all), joined with `; `; '' when there is nothing to say.
 */
export function buildEvaluationError(evaluationError: string, review: ReviewAttributes): string {
  const out: string[] = evaluationError === '' ? [] : [evaluationError];
  for (const [name, parsed] of [
    ['fieldSelector', review.fieldSelector],
    ['labelSelector', review.labelSelector],
  ] as const) {
    if (parsed?.error === undefined) continue;
    out.push(`spec.resourceAttributes.${name} ${parsed.requirements.length > 0 ? 'partially ignored' : 'ignored'} due to parse error`);
  }
  return out.join('; ');
}

/**
 * A raw field selector parses whole or not at all; structured requirements (which win when both
 * are given) are taken one by one: an unusable one is dropped with its error and the rest kept,
 * which only broadens what is authorized (requirements are ANDed).
 */
function parseFieldSelector(raw: string, reqs: readonly FieldSelectorRequirement[]): ParsedSelector<fields.Requirement> {
  let parsed: ParsedSelector<fields.Requirement> = { requirements: [] };
  if (raw !== '') parsed = attempt(() => fields.parseSelector(raw).requirements());
  if (reqs.length === 0) return parsed;
  const out: fields.Requirement[] = [];
  const errs: string[] = [];
  for (const r of reqs) {
    const values = r.values ?? [];
    if (values.length > 1) {
      errs.push('fieldSelectors do not yet support multiple values');
      continue;
    }
    const operator = FIELD_OPERATORS.get(r.operator);
    if (operator === undefined) {
      errs.push(r.operator === 'Exists' || r.operator === 'DoesNotExist' ? `fieldSelectors do not yet support ${r.operator}` : `${JSON.stringify(r.operator)} is not a valid field selector operator`);
    } else if (values.length !== 1) {
      errs.push(`fieldSelectors ${operator === '=' ? 'in' : 'not in'} must have one value`);
    } else {
      out.push({ field: r.key, operator, value: values[0] ?? '' });
    }
  }
  return withErrors(out, errs);
}

/** In and NotIn as the equality terms a parsed field selector has. */
const FIELD_OPERATORS: ReadonlyMap<string, fields.Operator> = new Map([
  ['In', '='],
  ['NotIn', '!='],
]);

const LABEL_OPERATORS: ReadonlyMap<string, labels.Operator> = new Map([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
]);

/** As parseFieldSelector, for labels: each structured requirement must make a valid labels.Requirement. */
function parseLabelSelector(raw: string, reqs: readonly LabelSelectorRequirement[]): ParsedSelector<labels.Requirement> {
  let parsed: ParsedSelector<labels.Requirement> = { requirements: [] };
  if (raw !== '') parsed = attempt(() => labels.parseToRequirements(raw));
  if (reqs.length === 0) return parsed;
  const out: labels.Requirement[] = [];
  const errs: unknown[] = [];
  for (const r of reqs) {
    const operator = LABEL_OPERATORS.get(String(r.operator));
    if (operator === undefined) {
      errs.push(`${JSON.stringify(r.operator)} is not a valid label selector operator`);
      continue;
    }
    try {
      out.push(labels.Requirement.create(r.key, operator, r.values ?? []));
    } catch (err) {
      errs.push(err);
    }
  }
  return withErrors(out, errs);
}

function attempt<R>(parse: () => readonly R[]): ParsedSelector<R> {
  try {
    return { requirements: parse() };
  } catch (err) {
    return { requirements: [], error: err instanceof Error ? err.message : String(err) };
  }
}

function withErrors<R>(requirements: readonly R[], errs: readonly unknown[]): ParsedSelector<R> {
  return errs.length === 0 ? { requirements } : { requirements, error: aggregateMessage(errs) };
}
