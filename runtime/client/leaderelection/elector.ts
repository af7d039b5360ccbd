import { isConflict, isNotFound } from '../../apimachinery/errors/index.js';
import { type Logger, stderrLogger } from '../cache/log.js';
import { type Clock, realClock } from './clock.js';
import { JITTER_FACTOR, type LeaderElectionConfig, validateLeaderElectionConfig } from './config.js';
import type { ObservedRecord } from './lease-lock.js';
import { type LeaderMetric, noopLeaderMetric } from './metrics.js';
import { EMPTY_RECORD, type LeaderElectionRecord, rawRecord } from './record.js';
import { microTimeFromMillis } from './time.js';
import { jitter, pollUntilTimeout, withTimeout } from './wait.js';

/**
 * A participant in a leader election (leaderelection.LeaderElector). It acts
 * only on times it measured itself: a holder's lease counts as expired when
 * the record has not changed for the lease duration on this process's clock,
 * whatever renewTime the record says, so clock skew between nodes does not
 * matter, only their rate. It does not fence: two processes may briefly both
 * believe they lead.
 */
export class LeaderElector {
  readonly config: LeaderElectionConfig;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #metrics: LeaderMetric;
  #observedRecord: LeaderElectionRecord = EMPTY_RECORD;
  #observedRawRecord = '';
  /** When this process last saw the record change (or wrote it); -Infinity before it ever did (Go's zero time). */
  #observedTime = Number.NEGATIVE_INFINITY;
  /** The holder last passed to onNewLeader; may lag the observed one until maybeReportTransition runs. */
  #reportedLeader = '';

  /** NewLeaderElector: throws LeaderElectionConfigError with client-go's message for an invalid config. */
  constructor(config: LeaderElectionConfig) {
    validateLeaderElectionConfig(config);
    this.config = config;
    this.#clock = config.clock ?? realClock;
    this.#log = config.logger ?? stderrLogger;
    this.#metrics = config.metrics ?? noopLeaderMetric;
    this.#metrics.off(this.#name());
  }

  /**
   * Campaigns until it leads, then renews until it fails to within
   * renewDeadline or `signal` aborts; resolves then (after releasing the
   * lease when releaseOnCancel is set). onStoppedLeading runs on every return.
   */
  async run(signal: AbortSignal): Promise<void> {
    try {
      if (!(await this.#acquire(signal))) return;
      const leading = new AbortController();
      const onAbort = (): void => leading.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) leading.abort();
      try {
        this.#callback('OnStartedLeading', () => this.config.callbacks.onStartedLeading(leading.signal));
        await this.#renew(leading.signal);
      } finally {
        signal.removeEventListener('abort', onAbort);
        leading.abort();
      }
    } finally {
      this.#callback('OnStoppedLeading', () => this.config.callbacks.onStoppedLeading());
    }
  }

  /** The identity of the last observed leader; '' before any was observed. For monitoring and logs only. */
  getLeader(): string {
    return this.#observedRecord.holderIdentity;
  }

  /** Whether the last observed leader is this process. */
  isLeader(): boolean {
    return this.#observedRecord.holderIdentity === this.config.lock.identity();
  }

  /**
   * The health check's verdict: an error when this process holds the lease
   * but has not renewed it for leaseDuration + `maxTolerableExpiredLease` (ms),
   * as a leader stuck without exiting would.
   */
  check(maxTolerableExpiredLease: number): Error | undefined {
    if (!this.isLeader()) return undefined;
    if (this.#clock.now() - this.#observedTime > this.config.leaseDuration + maxTolerableExpiredLease) {
      return new Error(`failed election to renew leadership on lease ${this.#name()}`);
    }
    return undefined;
  }

  /**
   * Seeds what this elector last saw (record, its JSON, when), as if it had
   * read it then. For tests that start from a given observation, and for
   * callers that restore one.
   */
  observe(record: LeaderElectionRecord, time: number, raw: string = rawRecord(record)): void {
    this.#observedRecord = record;
    this.#observedRawRecord = raw;
    this.#observedTime = time;
  }

  /** The record last observed or written. */
  observedRecord(): LeaderElectionRecord {
    return this.#observedRecord;
  }

  async #acquire(signal: AbortSignal): Promise<boolean> {
    const lock = this.config.lock.describe();
    this.#log.info('Attempting to acquire leader lease...', { lock });
    while (!signal.aborted) {
      const succeeded = await this.#try(signal);
      this.maybeReportTransition();
      if (succeeded) {
        this.config.lock.recordEvent('became leader');
        this.#metrics.on(this.#name());
        this.#log.info('Successfully acquired lease', { lock });
        return true;
      }
      await this.#clock.sleep(jitter(this.config.retryPeriod, JITTER_FACTOR), signal);
    }
    return false;
  }

  async #renew(leading: AbortSignal): Promise<void> {
    const { retryPeriod, renewDeadline } = this.config;
    try {
      while (!leading.aborted) {
        const err = await pollUntilTimeout(this.#clock, retryPeriod, renewDeadline, leading, (s) => this.#try(s));
        this.maybeReportTransition();
        if (err !== undefined) {
          this.#metrics.off(this.#name());
          this.#log.info('Failed to renew lease', { lock: this.config.lock.describe(), err });
          break;
        }
        await this.#clock.sleep(retryPeriod, leading);
      }
      if (this.config.releaseOnCancel === true) await this.release();
    } finally {
      this.config.lock.recordEvent('stopped leading');
    }
  }

  #try(signal: AbortSignal): Promise<boolean> {
    return this.config.coordinated === true ? this.tryCoordinatedRenew(signal) : this.tryAcquireOrRenew(signal);
  }

  /**
   * One attempt to take or keep the lease: a leader within its lease first
   * updates optimistically over the object it last wrote; otherwise (or when
   * that fails) the lock is read, created when absent, and taken when it is
   * free or its holder has not renewed for the lease duration on this clock.
   * Never throws: failures are logged and return false.
   */
  async tryAcquireOrRenew(signal?: AbortSignal): Promise<boolean> {
    const lock = this.config.lock;
    const now = this.#clock.now();
    const stamp = microTimeFromMillis(now);
    const fresh = this.#ownRecord(stamp);

    if (this.isLeader() && this.#isLeaseValid(now)) {
      const renewed = { ...fresh, acquireTime: this.#observedRecord.acquireTime, leaderTransitions: this.#observedRecord.leaderTransitions };
      try {
        await lock.update(renewed, signal);
        this.#setObservedRecord(renewed);
        return true;
      } catch {
        // Someone else wrote the lease since (or the call failed): read it and decide anew.
      }
    }

    const old = await this.#getOrCreate(fresh, signal);
    if (old === true || old === false) return old;
    this.#noteObservation(old);
    if (old.record.holderIdentity !== '' && this.#isLeaseValid(now) && !this.isLeader()) return false;

    let next: LeaderElectionRecord;
    if (this.isLeader()) {
      next = { ...fresh, acquireTime: old.record.acquireTime, leaderTransitions: old.record.leaderTransitions };
      this.#metrics.slowpathExercised(this.#name());
    } else {
      next = { ...fresh, leaderTransitions: old.record.leaderTransitions + 1 };
    }
    return this.#write(next, 'Failed to update lease', signal);
  }

  /**
   * The coordinated election's renewal (tryCoordinatedRenew): never takes a
   * lease, only renews one the election controller made this process hold,
   * and lets it lapse once a preferredHolder marks the end of its term.
   */
  async tryCoordinatedRenew(signal?: AbortSignal): Promise<boolean> {
    const lock = this.config.lock;
    const now = this.#clock.now();
    const fresh = this.#ownRecord(microTimeFromMillis(now));
    let old: ObservedRecord;
    try {
      old = await lock.get(signal);
    } catch (err) {
      if (isNotFound(err)) this.#log.info('Lease lock not found', { lock: lock.describe(), err });
      else this.#log.error('Error retrieving lease lock', { lock: lock.describe(), err });
      return false;
    }
    this.#noteObservation(old);
    const hasExpired = this.#observedTime + old.record.leaseDurationSeconds * 1000 < now;
    if (hasExpired) {
      this.#log.info('Lease has expired', { lock: lock.describe() });
      return false;
    }
    if (!this.isLeader() || old.record.preferredHolder !== '') return false;
    this.#metrics.slowpathExercised(this.#name());
    const next = { ...fresh, acquireTime: old.record.acquireTime, leaderTransitions: old.record.leaderTransitions, strategy: old.record.strategy };
    return this.#write(next, 'Failed to update lock', signal);
  }

  /**
   * Steps down: writes an empty holder with a one-second lease (so peers
   * on older clients that skip empty holders still take over quickly), within
   * renewDeadline, retrying on conflict with a renewal still in flight.
   * True when the lease was released or was not ours.
   */
  async release(): Promise<boolean> {
    const scope = withTimeout(this.#clock, this.config.renewDeadline, undefined);
    try {
      return await this.#tryRelease(scope.signal);
    } finally {
      scope.stop();
    }
  }

  async #tryRelease(signal: AbortSignal): Promise<boolean> {
    const lock = this.config.lock;
    for (;;) {
      let old: ObservedRecord;
      try {
        old = await lock.get(signal);
      } catch (err) {
        if (isNotFound(err)) this.#log.info('lease lock not found', { lock: lock.describe() });
        else this.#log.error('error retrieving resource lock', { lock: lock.describe(), err });
        return false;
      }
      if (!this.isLeader()) return true;
      const stamp = microTimeFromMillis(this.#clock.now());
      const released: LeaderElectionRecord = { ...EMPTY_RECORD, leaderTransitions: old.record.leaderTransitions, leaseDurationSeconds: 1, renewTime: stamp, acquireTime: stamp };
      try {
        await lock.update(released, signal);
      } catch (err) {
        if (isConflict(err) && !signal.aborted) continue;
        this.#log.error('Failed to release lease', { lock: lock.describe(), err });
        return false;
      }
      this.#setObservedRecord(released);
      return true;
    }
  }

  /** Reports a leader change to onNewLeader once per change. */
  maybeReportTransition(): void {
    const holder = this.#observedRecord.holderIdentity;
    if (holder === this.#reportedLeader) return;
    this.#reportedLeader = holder;
    const onNewLeader = this.config.callbacks.onNewLeader;
    if (onNewLeader !== undefined) this.#callback('OnNewLeader', () => onNewLeader(holder));
  }

  /** The lock read, or when absent the result of creating it with `fresh` (true: created and now held). */
  async #getOrCreate(fresh: LeaderElectionRecord, signal: AbortSignal | undefined): Promise<ObservedRecord | boolean> {
    const lock = this.config.lock;
    try {
      return await lock.get(signal);
    } catch (err) {
      if (!isNotFound(err)) {
        this.#log.error('Error retrieving lease lock', { lock: lock.describe(), err });
        return false;
      }
    }
    try {
      await lock.create(fresh, signal);
    } catch (err) {
      this.#log.error('Error initially creating lease lock', { lock: lock.describe(), err });
      return false;
    }
    this.#setObservedRecord(fresh);
    return true;
  }

  async #write(next: LeaderElectionRecord, failure: string, signal: AbortSignal | undefined): Promise<boolean> {
    try {
      await this.config.lock.update(next, signal);
    } catch (err) {
      this.#log.error(failure, { lock: this.config.lock.describe(), err });
      return false;
    }
    this.#setObservedRecord(next);
    return true;
  }

  #ownRecord(stamp: string): LeaderElectionRecord {
    return {
      ...EMPTY_RECORD,
      holderIdentity: this.config.lock.identity(),
      leaseDurationSeconds: Math.trunc(this.config.leaseDuration / 1000),
      renewTime: stamp,
      acquireTime: stamp,
    };
  }

  /** A record that differs from the last one read restarts the expiry clock: someone wrote it. */
  #noteObservation(o: ObservedRecord): void {
    if (o.raw === this.#observedRawRecord) return;
    this.#setObservedRecord(o.record);
    this.#observedRawRecord = o.raw;
  }

  #isLeaseValid(now: number): boolean {
    return this.#observedTime + this.#observedRecord.leaseDurationSeconds * 1000 > now;
  }

  #setObservedRecord(r: LeaderElectionRecord): void {
    this.#observedRecord = r;
    this.#observedTime = this.#clock.now();
  }

  #name(): string {
    return this.config.name ?? '';
  }

  #callback(name: string, fn: () => unknown): void {
    const report = (err: unknown): void => this.#log.error(`leader election ${name} callback failed`, { lock: this.config.lock.describe(), err });
    try {
      const result = fn();
      if (result instanceof Promise) result.catch(report);
    } catch (err) {
      report(err);
    }
  }
}

/** NewLeaderElector. */
export function newLeaderElector(config: LeaderElectionConfig): LeaderElector {
  return new LeaderElector(config);
}

/** RunOrDie: builds the elector (throwing for an invalid config), ties the watchdog to it, runs it. */
export async function runOrDie(signal: AbortSignal, config: LeaderElectionConfig): Promise<void> {
  const le = new LeaderElector(config);
  config.watchDog?.setLeaderElection(le);
  await le.run(signal);
}
