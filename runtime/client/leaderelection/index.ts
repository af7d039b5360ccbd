// Leader election over a coordination.k8s.io/v1 Lease (client-go's tools/leaderelection and its resourcelock).
export { LeaderElector, newLeaderElector, runOrDie } from './elector.js';
export { JITTER_FACTOR, LeaderElectionConfigError, validateLeaderElectionConfig, type LeaderCallbacks, type LeaderElectionConfig, type LeaderHealthzSink } from './config.js';
export { LeaseLock, LEASES, type EventRecorder, type LeaseLockOptions, type ObservedRecord, type ResourceLock, type ResourceLockConfig } from './lease-lock.js';
export { EMPTY_RECORD, leaderElectionRecordToLeaseSpec, leaseSpecToLeaderElectionRecord, rawRecord, type Lease, type LeaseSpec, type LeaderElectionRecord } from './record.js';
export { LeaderHealthzAdaptor } from './healthz.js';
export { noopLeaderMetric, type LeaderMetric } from './metrics.js';
export { FakeClock, realClock, type Clock } from './clock.js';
export { microTimeFromMillis } from './time.js';
