import { ResourceClient } from '../resource-client.js';
import type { ResourceDescriptor, RESTClient } from '../types.js';
import { type Lease, type LeaderElectionRecord, leaderElectionRecordToLeaseSpec, leaseSpecToLeaderElectionRecord, rawRecord } from './record.js';

/** coordination.k8s.io/v1 leases, the only lock kind client-go still offers. */
export const LEASES: ResourceDescriptor = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: 'Lease', namespaced: true };

/** The record read from a lock, and its JSON (what the elector compares between reads). */
export interface ObservedRecord {
  readonly record: LeaderElectionRecord;
  readonly raw: string;
}

/**
 * A lock the elector competes for (resourcelock.Interface). `update` writes
 * over the object last read or created, so a concurrent writer makes it fail
 * with 409 Conflict instead of being overwritten. Errors are the client's
 * (StatusError for the server's answers).
 */
export interface ResourceLock {
  get(signal?: AbortSignal): Promise<ObservedRecord>;
  create(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void>;
  update(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void>;
  /** Records `<identity> <message>` as a Normal LeaderElection event on the lock's object, when a recorder is configured. */
  recordEvent(message: string): void;
  identity(): string;
  /** `<namespace>/<name>`, for logs. */
  describe(): string;
}

/**
 * The part of client-go's record.EventRecorder the lock uses: declared here so
 * any recorder (the client's own, a test's fake) fits without an import.
 */
export interface EventRecorder {
  eventf(object: object, eventType: string, reason: string, messageFmt: string, ...args: unknown[]): void;
}

export interface ResourceLockConfig {
  /** Unique across everyone taking part in the election (usually hostname plus a random suffix). */
  readonly identity: string;
  readonly eventRecorder?: EventRecorder;
}

export interface LeaseLockOptions {
  readonly namespace: string;
  readonly name: string;
  readonly client: RESTClient;
  readonly lockConfig: ResourceLockConfig;
  /** Labels the holder sets on the Lease when it creates or updates it (resourcelock.NewWithLabels); other labels are kept. */
  readonly labels?: Readonly<Record<string, string>>;
}

/** A ResourceLock over a Lease's spec (resourcelock.LeaseLock). */
export class LeaseLock implements ResourceLock {
  readonly namespace: string;
  readonly name: string;
  readonly lockConfig: ResourceLockConfig;
  readonly #leases: ResourceClient<Lease>;
  readonly #labels: Readonly<Record<string, string>> | undefined;
  /** The Lease as last read or written: its resourceVersion is the precondition of the next update. */
  #lease: Lease | undefined;

  constructor(options: LeaseLockOptions) {
    this.namespace = options.namespace;
    this.name = options.name;
    this.lockConfig = options.lockConfig;
    this.#labels = options.labels;
    this.#leases = new ResourceClient<Lease>(options.client, LEASES, options.namespace);
  }

  async get(signal?: AbortSignal): Promise<ObservedRecord> {
    this.#lease = await this.#leases.get(this.name, { signal });
    const record = leaseSpecToLeaderElectionRecord(this.#lease.spec);
    return { record, raw: rawRecord(record) };
  }

  async create(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void> {
    const lease: Lease = {
      apiVersion: `${LEASES.group}/${LEASES.version}`,
      kind: LEASES.kind,
      metadata: { name: this.name, namespace: this.namespace, ...(this.#labels !== undefined ? { labels: { ...this.#labels } } : {}) },
      spec: leaderElectionRecordToLeaseSpec(record),
    };
    this.#lease = await this.#leases.create(lease, { signal });
  }

  async update(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void> {
    if (this.#lease === undefined) throw new Error('lease not initialized, call get or create first');
    const metadata = { ...this.#lease.metadata };
    if (this.#labels !== undefined) {
      // Entries, not assignment: a label key such as __proto__ stays data.
      metadata.labels = Object.fromEntries([...Object.entries(metadata.labels ?? {}), ...Object.entries(this.#labels)]);
    }
    this.#lease = await this.#leases.update({ ...this.#lease, metadata, spec: leaderElectionRecordToLeaseSpec(record) }, { signal });
  }

  recordEvent(message: string): void {
    const recorder = this.lockConfig.eventRecorder;
    if (recorder === undefined) return;
    const metadata = this.#lease?.metadata ?? { name: this.name, namespace: this.namespace };
    const subject: Lease = { apiVersion: `${LEASES.group}/${LEASES.version}`, kind: LEASES.kind, metadata };
    recorder.eventf(subject, 'Normal', 'LeaderElection', '%s', `${this.lockConfig.identity} ${message}`);
  }

  describe(): string {
    return `${this.namespace}/${this.name}`;
  }

  identity(): string {
    return this.lockConfig.identity;
  }
}
