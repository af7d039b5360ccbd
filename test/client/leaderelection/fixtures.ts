// Shared pieces of the leader election tests: a fake clientset serving Leases, reactors as
// client-go's tests register them, a FakeRecorder and a lock record builder.
import { newNotFound } from '../../../runtime/apimachinery/errors/index.js';
import { silentLogger } from '../../../runtime/client/cache/log.js';
import { FakeRESTClient, ObjectTracker, type Action, type ActionVerb, type Reaction } from '../../../runtime/client/fake/index.js';
import {
  EMPTY_RECORD,
  type EventRecorder,
  type LeaderElectionConfig,
  type LeaderElectionRecord,
  type Lease,
  leaderElectionRecordToLeaseSpec,
  LEASES,
  LeaseLock,
} from '../../../runtime/client/leaderelection/index.js';

export const logger = silentLogger;

/** A fake clientset whose tracker serves coordination.k8s.io/v1 leases (the server's semantics: resourceVersion, 404, 409). */
export function leaseClient(): FakeRESTClient {
  return new FakeRESTClient(new ObjectTracker({ resources: [{ descriptor: LEASES }] }));
}

export interface Reactor {
  readonly verb: ActionVerb;
  readonly reaction: (action: Action) => Reaction | Promise<Reaction>;
}

/**
 * A fake clientset answering only from `reactors` (tried in the order given, as client-go's
 * AddReactor appends); any other action fails the test, as the catch-all reactor of
 * leaderelection_test.go does.
 */
export function reactorClient(reactors: readonly Reactor[], unreachable: (a: Action) => void): FakeRESTClient {
  const fake = leaseClient();
  fake.prependReactor('*', '*', (a) => {
    unreachable(a);
    return { handled: true, error: new Error('unreachable action') };
  });
  for (const r of [...reactors].reverse()) fake.prependReactor(r.verb, 'leases', r.reaction);
  return fake;
}

/** A record with client-go's zero values except the fields given. */
export function record(fields: Partial<LeaderElectionRecord> = {}): LeaderElectionRecord {
  return { ...EMPTY_RECORD, ...fields };
}

/** createLockObject: a Lease named by the action, its spec from `rec` (empty without one). */
export function lockObject(action: Action, rec?: LeaderElectionRecord): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { namespace: action.namespace, name: action.name, resourceVersion: '1' },
    spec: rec === undefined ? {} : leaderElectionRecordToLeaseSpec(rec),
  };
}

export function notFound(action: Action): Reaction {
  return { handled: true, error: newNotFound({ group: 'coordination.k8s.io', resource: 'leases' }, action.name) };
}

/** The object a create or update sent, as the server would return it. */
export function echo(action: Action): Reaction {
  return { handled: true, object: 'object' in action ? action.object : undefined };
}

/** record.FakeRecorder: each event as "<type> <reason> <message>". */
export class FakeRecorder implements EventRecorder {
  readonly events: string[] = [];
  eventf(_object: object, eventType: string, reason: string, messageFmt: string, ...args: unknown[]): void {
    let i = 0;
    const message = messageFmt.replace(/%[sv]/g, () => String(args[i++]));
    this.events.push(`${eventType} ${reason} ${message}`);
  }
}

export function lock(client: FakeRESTClient, identity = 'baz', eventRecorder?: EventRecorder): LeaseLock {
  return new LeaseLock({ namespace: 'foo', name: 'bar', client, lockConfig: { identity, ...(eventRecorder !== undefined ? { eventRecorder } : {}) } });
}

/** A valid config around `lock` (the Go tests build the struct without validation; durations here pass it). */
export function config(overrides: Partial<LeaderElectionConfig> & Pick<LeaderElectionConfig, 'lock'>): LeaderElectionConfig {
  return {
    leaseDuration: 10_000,
    renewDeadline: 5_000,
    retryPeriod: 2_000,
    callbacks: { onStartedLeading: () => {}, onStoppedLeading: () => {} },
    logger,
    ...overrides,
  };
}
