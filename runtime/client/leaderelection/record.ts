import { normalizeMicroTime, secondsTimeJSON } from './time.js';

/**
 * The state of an election as the elector reads and writes it
 * (resourcelock.LeaderElectionRecord). An empty holderIdentity means nobody
 * holds the lock and anyone may take it: the leader writes that when it
 * steps down. Times are MicroTime strings, undefined for Go's zero time.
 */
export interface LeaderElectionRecord {
  readonly holderIdentity: string;
  readonly leaseDurationSeconds: number;
  readonly acquireTime: string | undefined;
  readonly renewTime: string | undefined;
  readonly leaderTransitions: number;
  /** coordination.k8s.io's CoordinatedLeaseStrategy ('OldestEmulationVersion'); '' when unset. */
  readonly strategy: string;
  /** Set by the coordinated election to ask the holder to step down; '' when unset. */
  readonly preferredHolder: string;
}

/** The record of a lock nobody ever wrote (Go's zero value). */
export const EMPTY_RECORD: LeaderElectionRecord = {
  holderIdentity: '',
  leaseDurationSeconds: 0,
  acquireTime: undefined,
  renewTime: undefined,
  leaderTransitions: 0,
  strategy: '',
  preferredHolder: '',
};

/**
 * The part of a coordination.k8s.io/v1 Lease the lock reads and writes,
 * declared here because the client layer does not import apis/.
 */
export interface LeaseSpec {
  holderIdentity?: string | null;
  leaseDurationSeconds?: number | null;
  acquireTime?: string | null;
  renewTime?: string | null;
  leaseTransitions?: number | null;
  strategy?: string | null;
  preferredHolder?: string | null;
}

export interface Lease {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    [field: string]: unknown;
  };
  spec?: LeaseSpec;
}

/** LeaseSpecToLeaderElectionRecord: absent fields read as zero values. */
export function leaseSpecToLeaderElectionRecord(spec: LeaseSpec | undefined): LeaderElectionRecord {
  const s = spec ?? {};
  return {
    holderIdentity: s.holderIdentity ?? '',
    leaseDurationSeconds: s.leaseDurationSeconds ?? 0,
    acquireTime: normalizeMicroTime(s.acquireTime),
    renewTime: normalizeMicroTime(s.renewTime),
    leaderTransitions: s.leaseTransitions ?? 0,
    strategy: s.strategy ?? '',
    preferredHolder: s.preferredHolder ?? '',
  };
}

/**
 * LeaderElectionRecordToLeaseSpec: holder, duration, times and transitions
 * are always written (an empty holder and zero times included, as client-go
 * sends them); strategy and preferredHolder only when set.
 */
export function leaderElectionRecordToLeaseSpec(r: LeaderElectionRecord): LeaseSpec {
  const spec: LeaseSpec = {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: r.acquireTime ?? null,
    renewTime: r.renewTime ?? null,
    leaseTransitions: r.leaderTransitions,
  };
  if (r.preferredHolder !== '') spec.preferredHolder = r.preferredHolder;
  if (r.strategy !== '') spec.strategy = r.strategy;
  return spec;
}

/**
 * The record as client-go marshals it to JSON (field order, whole-second
 * times). The elector compares these bytes to notice another client's
 * renewal: a change of them restarts the local expiry clock.
 */
export function rawRecord(r: LeaderElectionRecord): string {
  return JSON.stringify({
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: secondsTimeJSON(r.acquireTime),
    renewTime: secondsTimeJSON(r.renewTime),
    leaderTransitions: r.leaderTransitions,
    strategy: r.strategy,
    preferredHolder: r.preferredHolder,
  });
}
