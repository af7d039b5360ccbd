import type { LabelSelectorRequirement, ObjectMeta, TypeMeta } from '../../meta/v1/types.js';

/** A field selector requirement: a key, an operator (In, NotIn, Exists, DoesNotExist) and values. */
export interface FieldSelectorRequirement {
  /**
   * The field selector key.
   */
  key: string;
  /**
   * How the key relates to the values: In, NotIn, Exists or DoesNotExist.
   */
  operator: string;
  /**
   * The values; non-empty for In and NotIn, empty for Exists and DoesNotExist.
   *
   * @listType atomic
   */
  values?: string[];
}

/** The field selector of a list or watch being authorized, raw or parsed. */
export interface FieldSelectorAttributes {
  /**
   * The serialized field selector, as a query parameter carries it.
   */
  rawSelector?: string;
  /**
   * The parsed requirements; exclusive with rawSelector.
   *
   * @listType atomic
   */
  requirements?: FieldSelectorRequirement[];
}

/** The label selector of a list or watch being authorized, raw or parsed. */
export interface LabelSelectorAttributes {
  /**
   * The serialized label selector, as a query parameter carries it.
   */
  rawSelector?: string;
  /**
   * The parsed requirements; exclusive with rawSelector.
   *
   * @listType atomic
   */
  requirements?: LabelSelectorRequirement[];
}

/** The attributes of a request for a resource, as the authorizer sees them. */
export interface ResourceAttributes {
  /**
   * The namespace of the action; '' for cluster-scoped resources, and for namespaced ones "all namespaces" (for list, watch and get alike).
   */
  namespace?: string;
  /**
   * A kube verb (get, list, watch, create, update, patch, delete, deletecollection, …) or `*` for all.
   */
  verb?: string;
  /**
   * The API group of the resource; `*` for all.
   */
  group?: string;
  /**
   * The API version of the resource; `*` for all.
   */
  version?: string;
  /**
   * The resource; `*` for all.
   */
  resource?: string;
  /**
   * The subresource; '' for none, `*` for all.
   */
  subresource?: string;
  /**
   * The name of the object acted on; '' for every object (list, create, …).
   */
  name?: string;
  /**
   * The field selector the request carries, if any.
   */
  fieldSelector?: FieldSelectorAttributes;
  /**
   * The label selector the request carries, if any.
   */
  labelSelector?: LabelSelectorAttributes;
}

/** The attributes of a request for a non-resource URL, as the authorizer sees them. */
export interface NonResourceAttributes {
  /**
   * The URL path.
   */
  path?: string;
  /**
   * The lower-cased HTTP method (get, post, put, …).
   */
  verb?: string;
}

/**
 * The question a SubjectAccessReview or LocalSubjectAccessReview asks: exactly one of resourceAttributes and nonResourceAttributes, and the user asked about.
 */
export interface SubjectAccessReviewSpec {
  /**
   * The resource request asked about.
   */
  resourceAttributes?: ResourceAttributes;
  /**
   * The non-resource request asked about.
   */
  nonResourceAttributes?: NonResourceAttributes;
  /**
   * The user asked about. Either user or groups must be given.
   */
  user?: string;
  /**
   * The groups of the user asked about.
   *
   * @listType atomic
   */
  groups?: string[];
  /**
   * The extra attributes of the user, as an authenticator gives them.
   */
  extra?: Record<string, string[]>;
  /**
   * The UID of the user asked about.
   */
  uid?: string;
}

/** The question a SelfSubjectAccessReview asks about the requesting user: exactly one of the attributes. */
export interface SelfSubjectAccessReviewSpec {
  /**
   * The resource request asked about.
   */
  resourceAttributes?: ResourceAttributes;
  /**
   * The non-resource request asked about.
   */
  nonResourceAttributes?: NonResourceAttributes;
}

/** The answer of an access review. */
export interface SubjectAccessReviewStatus {
  /**
   * Whether the action is allowed.
   */
  allowed: boolean;
  /**
   * Whether the action is explicitly denied (no other authorizer was asked). Not allowed and not denied means no authorizer had an opinion.
   */
  denied?: boolean;
  /**
   * Why the action is allowed or denied.
   */
  reason?: string;
  /**
   * An error met while evaluating, which may not have stopped the answer (RBAC could not read a role, but another rule allowed).
   */
  evaluationError?: string;
}

/**
 * Asks whether a user (and groups) may perform an action. The webhook authorizer sends this kind too.
 *
 * @genclient
 * @nonNamespaced
 * @onlyVerbs create
 * @resource path=subjectaccessreviews singular=subjectaccessreview
 */
export interface SubjectAccessReview extends TypeMeta {
  metadata?: ObjectMeta;
  /**
   * The question.
   */
  spec: SubjectAccessReviewSpec;
  /**
   * The answer, filled in by the server.
   */
  status?: SubjectAccessReviewStatus;
}

/**
 * Asks whether the requesting user may perform an action (`kubectl auth can-i`).
 *
 * @genclient
 * @nonNamespaced
 * @onlyVerbs create
 * @resource path=selfsubjectaccessreviews singular=selfsubjectaccessreview
 */
export interface SelfSubjectAccessReview extends TypeMeta {
  metadata?: ObjectMeta;
  /**
   * The question.
   */
  spec: SelfSubjectAccessReviewSpec;
  /**
   * The answer, filled in by the server.
   */
  status?: SubjectAccessReviewStatus;
}

/**
 * Asks whether a user may perform an action in one namespace: what a namespace administrator may ask about its namespace.
 *
 * @genclient
 * @onlyVerbs create
 * @resource path=localsubjectaccessreviews singular=localsubjectaccessreview
 */
export interface LocalSubjectAccessReview extends TypeMeta {
  metadata?: ObjectMeta;
  /**
   * The question; spec.resourceAttributes.namespace must be the review's namespace, and non-resource attributes are not allowed.
   */
  spec: SubjectAccessReviewSpec;
  /**
   * The answer, filled in by the server.
   */
  status?: SubjectAccessReviewStatus;
}

/** The namespace a SelfSubjectRulesReview asks about. */
export interface SelfSubjectRulesReviewSpec {
  /**
   * The namespace to list the rules of.
   */
  namespace?: string;
}

/** A rule on resources, as a rules review lists it. */
export interface ResourceRule {
  /**
   * The verbs allowed; `*` for all.
   *
   * @listType atomic
   */
  verbs: string[];
  /**
   * The API groups; `*` for all.
   *
   * @listType atomic
   */
  apiGroups?: string[];
  /**
   * The resources (`<resource>/<subresource>` for subresources); `*` for all.
   *
   * @listType atomic
   */
  resources?: string[];
  /**
   * The names the rule is restricted to; empty for all.
   *
   * @listType atomic
   */
  resourceNames?: string[];
}

/** A rule on non-resource URLs, as a rules review lists it. */
export interface NonResourceRule {
  /**
   * The verbs allowed (get, post, …); `*` for all.
   *
   * @listType atomic
   */
  verbs: string[];
  /**
   * The URLs, with `*` as a final path segment for prefixes.
   *
   * @listType atomic
   */
  nonResourceURLs?: string[];
}

/** The rules a user has in a namespace, as far as the authorizer can list them. */
export interface SubjectRulesReviewStatus {
  /**
   * The rules on resources.
   *
   * @listType atomic
   */
  resourceRules: ResourceRule[];
  /**
   * The rules on non-resource URLs.
   *
   * @listType atomic
   */
  nonResourceRules: NonResourceRule[];
  /**
   * True when the list is not complete: an authorizer cannot list its rules (a webhook) or met an error.
   */
  incomplete: boolean;
  /**
   * Errors met while listing; the rules listed still hold.
   */
  evaluationError?: string;
}

/**
 * Lists what the requesting user may do in a namespace (`kubectl auth can-i --list`). Not an answer to use for authorization decisions: it may be incomplete.
 *
 * @genclient
 * @nonNamespaced
 * @onlyVerbs create
 * @resource path=selfsubjectrulesreviews singular=selfsubjectrulesreview
 */
export interface SelfSubjectRulesReview extends TypeMeta {
  metadata?: ObjectMeta;
  /**
   * The question.
   */
  spec: SelfSubjectRulesReviewSpec;
  /**
   * The answer, filled in by the server.
   */
  status?: SubjectRulesReviewStatus;
}
