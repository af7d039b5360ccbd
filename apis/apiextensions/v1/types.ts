import type { int32, ObjectMeta, Time, TypeMeta, Bytes } from '../../meta/v1/types.js';
import type { JSONSchemaProps } from './schema.js';

export type { FieldValueErrorReason, JSONSchemaProps, JSONSchemaURL, ValidationRule, ValidationRules } from './schema.js';

// Named Go types of the fields below, which typed decoding's errors print (`v1.ResourceScope`).
// Line comments: a JSDoc comment would become the description of every field that has none.

// Whether a CustomResourceDefinition's resources are cluster-scoped or namespaced.
export type ResourceScope = string;

// How custom resources are converted between versions: `None` or `Webhook`.
export type ConversionStrategyType = string;

// The type of a CustomResourceDefinition condition, such as `Established`.
export type CustomResourceDefinitionConditionType = string;

// The status of a condition: `True`, `False` or `Unknown`.
export type ConditionStatus = string;

/**
 * A CustomResourceDefinition makes the API server serve a new resource,
 * named `<plural>.<group>`.
 *
 * @genclient
 * @nonNamespaced
 * @resource path=customresourcedefinitions singular=customresourcedefinition shortName=crd;crds categories=api-extensions
 * @subresource status
 * @printcolumn name="Created At" type=date jsonPath=.metadata.creationTimestamp description="CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
 */
export interface CustomResourceDefinition extends TypeMeta {
  metadata?: ObjectMeta;
  spec: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
}

/** How the custom resources are named, scoped, versioned and converted. */
export interface CustomResourceDefinitionSpec {
  /**
   * The API group of the custom resources.
   *
   * @minLength 1
   * @immutable
   */
  group: string;
  names: CustomResourceDefinitionNames;
  /** @enum Cluster;Namespaced */
  scope: ResourceScope;
  /**
   * The versions served; exactly one has storage=true.
   *
   * @minItems 1
   * @listType atomic
   */
  versions: CustomResourceDefinitionVersion[];
  conversion?: CustomResourceConversion;
  /** Deprecated: only false is accepted in apiextensions.k8s.io/v1. */
  preserveUnknownFields?: boolean;
}

/**
 * The names of a CRD's resources: requested in spec.names (plural and kind required), granted
 * in status.acceptedNames, where a name not accepted yet is empty.
 */
export interface CustomResourceDefinitionNames {
  plural: string;
  singular?: string;
  /** @listType atomic */
  shortNames?: string[];
  kind: string;
  listKind?: string;
  /** @listType atomic */
  categories?: string[];
}

export interface CustomResourceDefinitionVersion {
  /** @minLength 1 */
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: CustomResourceValidation;
  subresources?: CustomResourceSubresources;
  /** @listType atomic */
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  /** @listType atomic */
  selectableFields?: SelectableField[];
}

export interface CustomResourceValidation {
  openAPIV3Schema?: JSONSchemaProps;
}

export interface CustomResourceSubresources {
  /** Presence enables /status; the content is always empty. */
  status?: CustomResourceSubresourceStatus;
  scale?: CustomResourceSubresourceScale;
}

/** An empty object: its presence switches the status subresource on. */
export interface CustomResourceSubresourceStatus {}

export interface CustomResourceSubresourceScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CustomResourceColumnDefinition {
  name: string;
  /** @enum integer;number;string;boolean;date */
  type: string;
  format?: string;
  description?: string;
  /** @minimum 0 */
  priority?: int32;
  jsonPath: string;
}

export interface SelectableField {
  jsonPath: string;
}

export interface CustomResourceConversion {
  /** @enum None;Webhook */
  strategy: ConversionStrategyType;
  webhook?: WebhookConversion;
}

export interface WebhookConversion {
  clientConfig?: WebhookClientConfig;
  /**
   * ConversionReview versions the webhook accepts, in order of preference.
   *
   * @listType atomic
   */
  conversionReviewVersions: string[];
}

/** How to reach a webhook: exactly one of url and service. */
export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  caBundle?: Bytes;
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  /**
   * @default 443
   * @minimum 1
   * @maximum 65535
   */
  port?: int32;
}

export interface CustomResourceDefinitionStatus {
  /**
   * null on a new CRD (Go's nil slice: the field has no omitempty) until a controller sets the first condition.
   *
   * @listType map
   * @listMapKey type
   */
  conditions?: CustomResourceDefinitionCondition[] | null;
  acceptedNames?: CustomResourceDefinitionNames;
  /** @listType atomic */
  storedVersions?: string[];
}

export interface CustomResourceDefinitionCondition {
  /** @enum Established;NamesAccepted;NonStructuralSchema;Terminating;KubernetesAPIApprovalPolicyConformant */
  type: CustomResourceDefinitionConditionType;
  /** @enum True;False;Unknown */
  status: ConditionStatus;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

/** ConversionReview is sent to and answered by conversion webhooks. */
export interface ConversionReview extends TypeMeta {
  request?: ConversionRequest;
  response?: ConversionResponse;
}

export interface ConversionRequest {
  uid: string;
  desiredAPIVersion: string;
  /**
   * @listType atomic
   * @preserveUnknownFields
   */
  objects: unknown[];
}

export interface ConversionResponse {
  uid: string;
  /**
   * @listType atomic
   * @preserveUnknownFields
   */
  convertedObjects: unknown[];
  result: ConversionResult;
}

/** The Status of a conversion: Success or Failure with a message. */
export interface ConversionResult {
  status?: string;
  message?: string;
}
