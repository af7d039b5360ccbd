import type { LabelSelectorRequirement, ObjectMeta, TypeMeta } from '../../meta/v1/types.js';

/**
 * ExtraValue masks the value so protobuf can generate: a named list, which go-to-protobuf wraps
 * in a message `{ repeated string items = 1; }` while its JSON stays the plain array.
 */
export type ExtraValue = string[];

/** A field selector requirement: a key, an operator (In, NotIn, Exists, DoesNotExist) and values. */
export interface FieldSelectorRequirement {
  /**
   * The field selector key.
   *
   * @protobuf 1
   */
  key: string;
  /**
   * How the key relates to the values: In, NotIn, Exists or DoesNotExist.
   *
   * @protobuf 2
   */
  operator: string;
  /**
   * The values; non-empty for In and NotIn, empty for Exists and DoesNotExist.
   *
   * @listType atomic
   * @protobuf 3
   */
  values?: string[];
}

/** The field selector of a list or watch being authorized, raw or parsed. */
export interface FieldSelectorAttributes {
  /**
   * The serialized field selector, as a query parameter carries it.
   *
   * @protobuf 1
   */
  rawSelector?: string;
  /**
   * The parsed requirements; exclusive with rawSelector.
   *
   * @listType atomic
   * @protobuf 2
   */
  requirements?: FieldSelectorRequirement[];
}

/** The label selector of a list or watch being authorized, raw or parsed. */
export interface LabelSelectorAttributes {
  /**
   * The serialized label selector, as a query parameter carries it.
   *
   * @protobuf 1
   */
  rawSelector?: string;
  /**
   * The parsed requirements; exclusive with rawSelector.
   *
   * @listType atomic
   * @protobuf 2
   */
  requirements?: LabelSelectorRequirement[];
}

/** The attributes of a request for a resource, as the authorizer sees them. */
export interface ResourceAttributes {
  /**
   * The namespace of the action; '' for cluster-scoped resources, and for namespaced ones "all namespaces" (for list, watch and get alike).
   *
   * @protobuf 1
   */
  namespace?: string;
  /**
   * A kube verb (get, list, watch, create, update, patch, delete, deletecollection, …) or `*` for all.
   *
   * @protobuf 2
   */
  verb?: string;
  /**
   * The API group of the resource; `*` for all.
   *
   * @protobuf 3
   */
  group?: string;
  /**
   * The API version of the resource; `*` for all.
   *
   * @protobuf 4
   */
  version?: string;
  /**
   * The resource; `*` for all.
   *
   * @protobuf 5
   */
  resource?: string;
  /**
   * The subresource; '' for none, `*` for all.
   *
   * @protobuf 6
   */
  subresource?: string;
  /**
   * The name of the object acted on; '' for every object (list, create, …).
   *
   * @protobuf 7
   */
  name?: string;
  /**
   * The field selector the request carries, if any.
   *
   * @protobuf 8 pointer
   */
  fieldSelector?: FieldSelectorAttributes;
  /**
   * The label selector the request carries, if any.
   *
   * @protobuf 9 pointer
   */
  labelSelector?: LabelSelectorAttributes;
}

/** The attributes of a request for a non-resource URL, as the authorizer sees them. */
export interface NonResourceAttributes {
  /**
   * The URL path.
   *
   * @protobuf 1
   */
  path?: string;
  /**
   * The lower-cased HTTP method (get, post, put, …).
   *
   * @protobuf 2
   */
  verb?: string;
}

/**
 * The question a SubjectAccessReview or LocalSubjectAccessReview asks: exactly one of resourceAttributes and nonResourceAttributes, and the user asked about.
 */
export interface SubjectAccessReviewSpec {
  /**
   * The resource request asked about.
   *
   * @protobuf 1 pointer
   */
  resourceAttributes?: ResourceAttributes;
  /**
   * The non-resource request asked about.
   *
   * @protobuf 2 pointer
   */
  nonResourceAttributes?: NonResourceAttributes;
  /**
   * The user asked about. Either user or groups must be given.
   *
   * @protobuf 3
   */
  user?: string;
  /**
   * The groups of the user asked about.
   *
   * @listType atomic
   * @protobuf 4
   */
  groups?: string[];
  /**
   * The extra attributes of the user, as an authenticator gives them.
   *
   * @protobuf 5
   */
  extra?: Record<string, ExtraValue>;
  /**
   * The UID of the user asked about.
   *
   * @protobuf 6
   */
  uid?: string;
}

/** The question a SelfSubjectAccessReview asks about the requesting user: exactly one of the attributes. */
export interface SelfSubjectAccessReviewSpec {
  /**
   * The resource request asked about.
   *
   * @protobuf 1 pointer
   */
  resourceAttributes?: ResourceAttributes;
  /**
   * The non-resource request asked about.
   *
   * @protobuf 2 pointer
   */
  nonResourceAttributes?: NonResourceAttributes;
}

/** The answer of an access review. */
export interface SubjectAccessReviewStatus {
  /**
   * Whether the action is allowed.
   *
   * @protobuf 1
   */
  allowed: boolean;
  /**
   * Whether the action is explicitly denied (no other authorizer was asked). Not allowed and not denied means no authorizer had an opinion.
   *
   * @protobuf 4
   */
  denied?: boolean;
  /**
   * Why the action is allowed or denied.
   *
   * @protobuf 2
   */
  reason?: string;
  /**
   * An error met while evaluating, which may not have stopped the answer (RBAC could not read a role, but another rule allowed).
   *
   * @protobuf 3
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
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The question.
   *
   * @protobuf 2
   */
  spec: SubjectAccessReviewSpec;
  /**
   * The answer, filled in by the server.
   *
   * @protobuf 3
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
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The question.
   *
   * @protobuf 2
   */
  spec: SelfSubjectAccessReviewSpec;
  /**
   * The answer, filled in by the server.
   *
   * @protobuf 3
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
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The question; spec.resourceAttributes.namespace must be the review's namespace, and non-resource attributes are not allowed.
   *
   * @protobuf 2
   */
  spec: SubjectAccessReviewSpec;
  /**
   * The answer, filled in by the server.
   *
   * @protobuf 3
   */
  status?: SubjectAccessReviewStatus;
}

/** The namespace a SelfSubjectRulesReview asks about. */
export interface SelfSubjectRulesReviewSpec {
  /**
   * The namespace to list the rules of.
   *
   * @protobuf 1
   */
  namespace?: string;
}

/** A rule on resources, as a rules review lists it. */
export interface ResourceRule {
  /**
   * The verbs allowed; `*` for all.
   *
   * @listType atomic
   * @protobuf 1
   */
  verbs: string[];
  /**
   * The API groups; `*` for all.
   *
   * @listType atomic
   * @protobuf 2
   */
  apiGroups?: string[];
  /**
   * The resources (`<resource>/<subresource>` for subresources); `*` for all.
   *
   * @listType atomic
   * @protobuf 3
   */
  resources?: string[];
  /**
   * The names the rule is restricted to; empty for all.
   *
   * @listType atomic
   * @protobuf 4
   */
  resourceNames?: string[];
}

/** A rule on non-resource URLs, as a rules review lists it. */
export interface NonResourceRule {
  /**
   * The verbs allowed (get, post, …); `*` for all.
   *
   * @listType atomic
   * @protobuf 1
   */
  verbs: string[];
  /**
   * The URLs, with `*` as a final path segment for prefixes.
   *
   * @listType atomic
   * @protobuf 2
   */
  nonResourceURLs?: string[];
}

/** The rules a user has in a namespace, as far as the authorizer can list them. */
export interface SubjectRulesReviewStatus {
  // Null in both lists is Go's nil slice: the fields have no omitempty, so the request bodies
  // kubectl sends (JSON or protobuf) carry null, which must validate.
  /**
   * The rules on resources.
   *
   * @listType atomic
   * @protobuf 1
   */
  resourceRules: ResourceRule[] | null;
  /**
   * The rules on non-resource URLs.
   *
   * @listType atomic
   * @protobuf 2
   */
  nonResourceRules: NonResourceRule[] | null;
  /**
   * True when the list is not complete: an authorizer cannot list its rules (a webhook) or met an error.
   *
   * @protobuf 3
   */
  incomplete: boolean;
  /**
   * Errors met while listing; the rules listed still hold.
   *
   * @protobuf 4
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
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The question.
   *
   * @protobuf 2
   */
  spec: SelfSubjectRulesReviewSpec;
  /**
   * The answer, filled in by the server.
   *
   * @protobuf 3
   */
  status?: SubjectRulesReviewStatus;
}
