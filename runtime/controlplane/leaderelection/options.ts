import { JITTER_FACTOR } from '../../client/leaderelection/index.js';
import { boolFlag, durationFlag, OptionsError, type FlagSpecs } from '../../server/options/flags.js';

/**
 * kube-controller-manager's leader election flags (component-base's LeaderElectionConfiguration
 * and its BindFlags), on the control plane's command line: the controllers kube runs in
 * kube-controller-manager run only in the replica that holds the Lease they name.
 */
export interface LeaderElectionOptions {
  /** --leader-elect: campaign before running the controllers (default true). */
  leaderElect?: boolean;
  /** --leader-elect-lease-duration in ms (default 15 s). */
  leaseDurationMs?: number;
  /** --leader-elect-renew-deadline in ms (default 10 s). */
  renewDeadlineMs?: number;
  /** --leader-elect-retry-period in ms (default 2 s). */
  retryPeriodMs?: number;
  /** --leader-elect-resource-lock: only `leases` (kube removed the others). */
  resourceLock?: string;
  /** --leader-elect-resource-name (default kube-controller-manager). */
  resourceName?: string;
  /** --leader-elect-resource-namespace (default kube-system). */
  resourceNamespace?: string;
  /**
   * Not a flag: appended to the election identity so that processes sharing one data dir (the
   * workers of one server) are told apart; see ./identity.ts.
   */
  identitySuffix?: string;
}

export interface CompletedLeaderElectionOptions {
  readonly leaderElect: boolean;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  readonly resourceLock: 'leases';
  readonly resourceName: string;
  readonly resourceNamespace: string;
  readonly identitySuffix: string;
}

/** kube-controller-manager's defaults (component-base RecommendedDefaultLeaderElectionConfiguration). */
export const LEADER_ELECTION_DEFAULTS = {
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
  resourceLock: 'leases',
  resourceName: 'kube-controller-manager',
  resourceNamespace: 'kube-system',
} as const;

export const LEADER_ELECTION_FLAGS = {
  'leader-elect': { type: 'string' },
  'leader-elect-lease-duration': { type: 'string' },
  'leader-elect-renew-deadline': { type: 'string' },
  'leader-elect-retry-period': { type: 'string' },
  'leader-elect-resource-lock': { type: 'string' },
  'leader-elect-resource-name': { type: 'string' },
  'leader-elect-resource-namespace': { type: 'string' },
} as const satisfies FlagSpecs;

export const LEADER_ELECTION_USAGE = `  --leader-elect=false            Run kube-controller-manager's controllers (garbage collector, namespace, service accounts,
                                  root CA publisher, ClusterRole aggregation) without first taking the Lease that makes
                                  them run in one replica only. Default true.
  --leader-elect-lease-duration D  How long other replicas wait, after the leader last renewed, before taking over. Default 15s.
  --leader-elect-renew-deadline D  How long the leader retries a renewal before it stops its controllers. Default 10s.
  --leader-elect-retry-period D   The wait between tries to acquire or renew the Lease. Default 2s.
  --leader-elect-resource-lock leases  The lock's kind (kube supports only leases). Default leases.
  --leader-elect-resource-name NAME  The Lease's name. Default kube-controller-manager.
  --leader-elect-resource-namespace NS  The Lease's namespace. Default kube-system.
`;

/** `--leader-elect` alone means true, as a Go boolean flag (the parser takes it as a string flag). */
export function normalizeLeaderElectFlag(argv: readonly string[]): string[] {
  return argv.map((a) => (a === '--leader-elect' ? '--leader-elect=true' : a));
}

/** The options given on the command line (absent flags stay absent). */
export function leaderElectionOptionsFromFlags(values: Partial<Record<keyof typeof LEADER_ELECTION_FLAGS, string>>): LeaderElectionOptions {
  const o: LeaderElectionOptions = {};
  const elect = boolFlag('leader-elect', values['leader-elect']);
  if (elect !== undefined) o.leaderElect = elect;
  const lease = durationFlag('leader-elect-lease-duration', values['leader-elect-lease-duration']);
  if (lease !== undefined) o.leaseDurationMs = lease;
  const renew = durationFlag('leader-elect-renew-deadline', values['leader-elect-renew-deadline']);
  if (renew !== undefined) o.renewDeadlineMs = renew;
  const retry = durationFlag('leader-elect-retry-period', values['leader-elect-retry-period']);
  if (retry !== undefined) o.retryPeriodMs = retry;
  if (values['leader-elect-resource-lock'] !== undefined) o.resourceLock = values['leader-elect-resource-lock'];
  if (values['leader-elect-resource-name'] !== undefined) o.resourceName = values['leader-elect-resource-name'];
  if (values['leader-elect-resource-namespace'] !== undefined) o.resourceNamespace = values['leader-elect-resource-namespace'];
  return o;
}

/**
 * Defaults, then component-base's ValidateLeaderElectionConfiguration (only when electing), then
 * the elector's own checks (client-go's NewLeaderElector, which kube would hit only at run time,
 * as a panic): an invalid combination is refused on the command line instead.
 */
export function completeLeaderElectionOptions(o: LeaderElectionOptions): CompletedLeaderElectionOptions {
  const c = {
    leaderElect: o.leaderElect ?? true,
    leaseDurationMs: o.leaseDurationMs ?? LEADER_ELECTION_DEFAULTS.leaseDurationMs,
    renewDeadlineMs: o.renewDeadlineMs ?? LEADER_ELECTION_DEFAULTS.renewDeadlineMs,
    retryPeriodMs: o.retryPeriodMs ?? LEADER_ELECTION_DEFAULTS.retryPeriodMs,
    resourceLock: o.resourceLock ?? LEADER_ELECTION_DEFAULTS.resourceLock,
    resourceName: o.resourceName ?? LEADER_ELECTION_DEFAULTS.resourceName,
    resourceNamespace: o.resourceNamespace ?? LEADER_ELECTION_DEFAULTS.resourceNamespace,
    identitySuffix: o.identitySuffix ?? '',
  };
  if (!c.leaderElect) return { ...c, resourceLock: 'leases' };
  const invalid = (flag: string, value: string, why: string): never => {
    throw new OptionsError(`--${flag}: Invalid value: ${JSON.stringify(value)}: ${why}`);
  };
  const seconds = (ms: number): string => `${ms / 1000}s`;
  if (c.leaseDurationMs <= 0) invalid('leader-elect-lease-duration', seconds(c.leaseDurationMs), 'must be greater than zero');
  if (c.renewDeadlineMs <= 0) invalid('leader-elect-renew-deadline', seconds(c.renewDeadlineMs), 'must be greater than zero');
  if (c.retryPeriodMs <= 0) invalid('leader-elect-retry-period', seconds(c.retryPeriodMs), 'must be greater than zero');
  if (c.leaseDurationMs <= c.renewDeadlineMs) invalid('leader-elect-lease-duration', seconds(c.renewDeadlineMs), 'LeaseDuration must be greater than RenewDeadline');
  if (c.resourceLock === '') invalid('leader-elect-resource-lock', c.resourceLock, 'resourceLock is required');
  if (c.resourceLock !== 'leases') invalid('leader-elect-resource-lock', c.resourceLock, 'only "leases" is supported');
  if (c.resourceName === '') invalid('leader-elect-resource-name', c.resourceName, 'resourceName is required');
  if (c.resourceNamespace === '') invalid('leader-elect-resource-namespace', c.resourceNamespace, 'resourceNamespace is required');
  // client-go's NewLeaderElector check, with its message.
  if (c.renewDeadlineMs <= JITTER_FACTOR * c.retryPeriodMs) throw new OptionsError('leader election: renewDeadline must be greater than retryPeriod*JitterFactor');
  return { ...c, resourceLock: 'leases' };
}
