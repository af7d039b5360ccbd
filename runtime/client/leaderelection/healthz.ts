import type { LeaderHealthzSink } from './config.js';

interface Checkable {
  check(maxTolerableExpiredLease: number): Error | undefined;
}

/**
 * leaderelection.HealthzAdaptor: a health check (name and check, the shape
 * the server's /healthz takes) that fails while this process holds the lease
 * but has not renewed it for leaseDuration plus `timeout`, the state of a
 * leader wedged without exiting, which only a restart cures. Healthy before
 * an elector is tied to it, and while another process leads.
 */
export class LeaderHealthzAdaptor implements LeaderHealthzSink {
  readonly name = 'leaderElection';
  #le: Checkable | undefined;

  /** `timeout` (ms): how long past the lease's expiry a check still passes. */
  constructor(readonly timeout: number) {}

  setLeaderElection(le: Checkable): void {
    this.#le = le;
  }

  check(): Promise<void> {
    const err = this.#le?.check(this.timeout);
    return err === undefined ? Promise.resolve() : Promise.reject(err);
  }
}
