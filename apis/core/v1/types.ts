/**
 * The core (legacy, group "") types an API server needs for itself,
 * transliterated from k8s.io/api/core/v1: Namespace, Service and Endpoints
 * (one file each), ServiceAccount, ConfigMap, Secret and Event, and the types they share. Validation that Kubernetes
 * performs in code is expressed as markers and CEL rules where a rule is
 * natural; the rest (IP syntax, allocation of cluster IPs and node ports)
 * belongs to the strategies. This module re-exports the whole package.
 */
export type * from './namespace.js';
export type * from './service.js';
export type * from './endpoints.js';
export type * from './serviceaccount.js';
export type * from './configmap.js';
export type * from './secret.js';
export type * from './event.js';

import type { UID } from '../../meta/v1/types.js';

/** Whether a condition holds: True, False or Unknown. */
export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** A network protocol of a port. */
export type Protocol = 'SCTP' | 'TCP' | 'UDP';

/**
 * A reference to an object, or to part of one through fieldPath. New APIs should define a reference type of their own instead.
 *
 * @structType atomic
 */
export interface ObjectReference {
  /**
   * Kind of the referent.
   *
   * @protobuf 1
   */
  kind?: string;
  /**
   * Namespace of the referent.
   *
   * @protobuf 2
   */
  namespace?: string;
  /**
   * Name of the referent.
   *
   * @protobuf 3
   */
  name?: string;
  /**
   * UID of the referent.
   *
   * @protobuf 4
   */
  uid?: UID;
  /**
   * API version of the referent.
   *
   * @protobuf 5
   */
  apiVersion?: string;
  /**
   * The resourceVersion of the referent this reference was made to, if any.
   *
   * @protobuf 6
   */
  resourceVersion?: string;
  /**
   * A field path into the referent when the reference is to part of it, such as `spec.containers{name}` or `spec.containers[2]`.
   *
   * @protobuf 7
   */
  fieldPath?: string;
}
