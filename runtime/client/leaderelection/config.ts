import type { Logger } from '../cache/log.js';
import type { Clock } from './clock.js';
import type { ResourceLock } from './lease-lock.js';
import type { LeaderMetric } from './metrics.js';

/** How much a retry period is stretched at most while acquiring (wait.Jitter's factor): retries land in [retryPeriod, 2.2 × retryPeriod). */
export const JITTER_FACTOR = 1.2;

/**
 * What happens as leadership changes (leaderelection.LeaderCallbacks). They
 * are not awaited: the elector keeps renewing while they run, and an error
 * they throw or reject with is logged.
 */
export interface LeaderCallbacks {
  /** This process became the leader; `signal` aborts when it stops leading (lost lease or cancelled run). */
  readonly onStartedLeading: (signal: AbortSignal) => void | Promise<void>;
  /** Called whenever run returns, also when it never led. */
  readonly onStoppedLeading: () => void;
  /** A leader other than the last one reported was observed (the first one included; '' when the lock was released). */
  readonly onNewLeader?: (identity: string) => void;
}

/** The healthz adaptor's view of an elector, so the two can be tied in either order. */
export interface LeaderHealthzSink {
  setLeaderElection(le: { check(maxTolerableExpiredLease: number): Error | undefined }): void;
}

/**
 * leaderelection.LeaderElectionConfig. Durations are milliseconds. Core
 * components use 15 s / 10 s / 2 s. A candidate waits a full leaseDuration
 * without seeing the record change before taking over, measured on its own
 * clock, so leaseDuration / renewDeadline is the clock-rate skew tolerated.
 */
export interface LeaderElectionConfig {
  readonly lock: ResourceLock;
  /** How long candidates wait, from their last observation of a change, before forcing acquisition. */
  readonly leaseDuration: number;
  /** How long the leader keeps retrying a renewal before it gives up leading. */
  readonly renewDeadline: number;
  /** The wait between tries, both while acquiring (jittered) and while renewing. */
  readonly retryPeriod: number;
  readonly callbacks: LeaderCallbacks;
  /** The health check tied to this elector by runOrDie. */
  readonly watchDog?: LeaderHealthzSink;
  /**
   * Release the lease (empty holder, 1 s duration) when the run's signal
   * aborts, so a successor need not wait out the lease. Only safe when
   * everything the lease guards has stopped by then.
   */
  readonly releaseOnCancel?: boolean;
  /** The lock's name in logs and metrics. */
  readonly name?: string;
  /** Coordinated leader election (alpha): only renews a lease the coordinated election controller granted. */
  readonly coordinated?: boolean;
  readonly clock?: Clock;
  readonly logger?: Logger;
  readonly metrics?: LeaderMetric;
}

/** The error newLeaderElector throws for an invalid config, with client-go's message. */
export class LeaderElectionConfigError extends Error {
  override readonly name = 'LeaderElectionConfigError';
}

/** NewLeaderElector's checks, in its order and with its messages. */
export function validateLeaderElectionConfig(c: LeaderElectionConfig): void {
  const fail = (message: string): never => {
    throw new LeaderElectionConfigError(message);
  };
  if (c.leaseDuration <= c.renewDeadline) fail('leaseDuration must be greater than renewDeadline');
  if (c.renewDeadline <= JITTER_FACTOR * c.retryPeriod) fail('renewDeadline must be greater than retryPeriod*JitterFactor');
  if (!(c.leaseDuration > 0)) fail('leaseDuration must be greater than zero');
  if (!(c.renewDeadline > 0)) fail('renewDeadline must be greater than zero');
  if (!(c.retryPeriod > 0)) fail('retryPeriod must be greater than zero');
  if (typeof c.callbacks?.onStartedLeading !== 'function') fail('OnStartedLeading callback must not be nil');
  if (typeof c.callbacks?.onStoppedLeading !== 'function') fail('OnStoppedLeading callback must not be nil');
  if (c.lock === undefined || c.lock === null) fail('Lock must not be nil.');
  if (c.lock.identity() === '') fail('Lock identity is empty');
}
