/**
 * What an elector reports for monitoring (leaderelection.LeaderMetric): kube's
 * component-base turns these into the `leader_election_master_status` gauge
 * and the `leader_election_slowpath_total` counter, labelled by the lock name.
 */
export interface LeaderMetric {
  /** This process now leads the election `name`. */
  on(name: string): void;
  /** This process does not lead (also reported once when the elector is built). */
  off(name: string): void;
  /** A renewal had to read the lock first because the optimistic update failed. */
  slowpathExercised(name: string): void;
}

export const noopLeaderMetric: LeaderMetric = { on: () => {}, off: () => {}, slowpathExercised: () => {} };
