import type { int32, ObjectMeta, TypeMeta } from '../../meta/v1/types.js';

/** The scale of a resource: desired and observed replica counts, read and written through its `/scale` subresource. */
export interface Scale extends TypeMeta {
  /**
   * The scaled object's metadata (name, namespace, uid, resourceVersion).
   *
   * @protobuf 1
   */
  metadata?: ObjectMeta;
  /**
   * The desired scale.
   *
   * @protobuf 2
   */
  spec?: ScaleSpec;
  /**
   * The observed scale; read-only.
   *
   * @protobuf 3
   */
  status?: ScaleStatus;
}

/** The desired scale of a resource. */
export interface ScaleSpec {
  /**
   * The desired number of instances.
   *
   * @default 0
   * @minimum 0
   * @protobuf 1
   */
  replicas?: int32;
}

/** The observed scale of a resource. */
export interface ScaleStatus {
  /**
   * The number of instances actually observed.
   *
   * @protobuf 1
   */
  replicas: int32;
  /**
   * The label selector of the instances counted, in query-parameter syntax (as `kubectl get -l` takes it).
   *
   * @protobuf 2
   */
  selector?: string;
}
