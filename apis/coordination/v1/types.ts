import type { int32, MicroTime, ObjectMeta, TypeMeta } from '../../meta/v1/types.js';

/** The strategy for picking a leader in coordinated leader election, such as `OldestEmulationVersion`. */
export type CoordinatedLeaseStrategy = string;

/**
 * A lease: who holds it, since when and for how long. Leader election takes a Lease that was not renewed within its duration.
 *
 * @genclient
 * @resource path=leases singular=lease
 * @printcolumn name=Holder type=string jsonPath=.spec.holderIdentity description="holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field."
 * @printcolumn name=Age type=date jsonPath=.metadata.creationTimestamp
 */
export interface Lease extends TypeMeta {
  /** @protobuf 1 */
  metadata?: ObjectMeta;
  /**
   * The specification of the Lease.
   *
   * @protobuf 2
   */
  spec?: LeaseSpec;
}

/** The specification of a Lease. */
export interface LeaseSpec {
  /**
   * The identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.
   *
   * @protobuf 1 pointer
   */
  holderIdentity?: string;
  /**
   * How long candidates for the lease wait to force acquire it, measured against the last observed renewTime.
   *
   * @protobuf 2 pointer
   */
  leaseDurationSeconds?: int32;
  /**
   * When the current lease was acquired.
   *
   * @protobuf 3 pointer
   */
  acquireTime?: MicroTime;
  /**
   * When the current holder last updated the lease.
   *
   * @protobuf 4 pointer
   */
  renewTime?: MicroTime;
  /**
   * The number of transitions of the lease between holders.
   *
   * @protobuf 5 pointer
   */
  leaseTransitions?: int32;
  /**
   * The strategy for picking the leader in coordinated leader election; none when absent. (Alpha) Using this field requires the CoordinatedLeaderElection feature gate, which is off: it is dropped on write.
   *
   * @protobuf 6 pointer
   */
  strategy?: CoordinatedLeaseStrategy;
  /**
   * Signals to the holder that the lease has a more optimal holder and should be given up; only with strategy. (Alpha) Requires the CoordinatedLeaderElection feature gate, which is off: it is dropped on write.
   *
   * @protobuf 7 pointer
   */
  preferredHolder?: string;
}
