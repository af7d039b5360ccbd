import type { int32, ObjectMeta, TypeMeta } from '../../meta/v1/types.js';

/** The scale of a resource: desired and observed replica counts, read and written through its `/scale` subresource. */
export interface Scale extends TypeMeta {
  /** The scaled object's metadata (name, namespace, uid, resourceVersion). */
  metadata?: ObjectMeta;
  /** The desired scale. */
  spec?: ScaleSpec;
  /** The observed scale; read-only. */
  status?: ScaleStatus;
}

/** The desired scale of a resource. */
export interface ScaleSpec {
  /**
   * The desired number of instances.
   *
   * @default 0
   * @minimum 0
   */
  replicas?: int32;
}

/** The observed scale of a resource. */
export interface ScaleStatus {
  /** The number of instances actually observed. */
  replicas: int32;
  /** The label selector of the instances counted, in query-parameter syntax (as `kubectl get -l` takes it). */
  selector?: string;
}
