import type { Bytes, int32, ObjectMeta, Time, TypeMeta } from '../../meta/v1/types.js';

/**
 * A reference to the Service in front of an aggregated API server.
 */
export interface ServiceReference {
  /** The Service's namespace. */
  namespace?: string;
  /** The Service's name. */
  name?: string;
  /**
   * The Service port the server listens on; 443 when unset.
   *
   * @default 443
   */
  port?: int32;
}

/**
 * Where a group version is served and how to talk to that server (HTTPS only, though verification can be disabled).
 */
export interface APIServiceSpec {
  /** The Service in front of the server. When unset the group version is served locally, by the next handler in this server's chain. */
  service?: ServiceReference;
  /**
   * The API group the server hosts; empty only for the legacy core group (version v1).
   */
  group?: string;
  /**
   * The API version the server hosts, such as `v1`; a DNS-1035 label.
   */
  version?: string;
  /** Skip verifying the server's TLS certificate. Strongly discouraged: set caBundle instead. */
  insecureSkipTLSVerify?: boolean;
  /** PEM-encoded CA certificates that sign the server's serving certificate; the system trust roots when unset. */
  caBundle?: Bytes;
  /**
   * The least priority the whole group should have; groups sort highest first, then by name. Kubernetes' own groups use about 18000.
   */
  groupPriorityMinimum: int32;
  /**
   * The order of this version within its group, highest first; equal priorities fall back to Kubernetes version ordering (v10, v2, v1, v11beta2, v3beta1, v12alpha1, foo1).
   */
  versionPriority: int32;
}

// Strings, as kube-aggregator declares them (no enum in its OpenAPI): the status validation
// words an unknown status its own way, and the condition types are open-ended.
/** Whether a condition holds: True, False or Unknown. */
export type ConditionStatus = string;

/** The type of an APIService condition; `Available` means the server exists and answers. */
export type APIServiceConditionType = string;

/** The state of an APIService at one point in time. */
export interface APIServiceCondition {
  /** The condition's type. */
  type: APIServiceConditionType;
  /** Whether the condition holds. */
  status: ConditionStatus;
  /** When the status last changed. */
  lastTransitionTime?: Time | null;
  /** A one-word CamelCase reason for the last transition. */
  reason?: string;
  /** A human-readable message about the last transition. */
  message?: string;
}

/** The observed state of an APIService. */
export interface APIServiceStatus {
  /**
   * The current conditions, one per type.
   *
   * @listType map
   * @listMapKey type
   * @patchStrategy merge
   * @patchMergeKey type
   */
  conditions?: APIServiceCondition[];
}

/**
 * An APIService names the server that handles one group version. Its name must be `<version>.<group>`.
 *
 * @genclient
 * @nonNamespaced
 * @resource path=apiservices singular=apiservice categories=api-extensions
 * @subresource status
 * @printcolumn name=Service type=string jsonPath=.spec.service.name description="The Service (namespace/name) that hosts this API, or Local when this server serves it."
 * @printcolumn name=Available type=string jsonPath=.status.conditions[?(@.type=="Available")].status description="Whether this API is available, with the reason when it is not."
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 */
export interface APIService extends TypeMeta {
  metadata?: ObjectMeta;
  /** Where the group version is served and how to reach it. */
  spec?: APIServiceSpec;
  /** The observed state of the APIService. */
  status?: APIServiceStatus;
}
