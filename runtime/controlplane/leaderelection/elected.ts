import { leaderelection, record, type RESTClient } from '../../client/index.js';
import type { Logger } from '../../client/cache/index.js';

/** One term's controllers: built when this process starts leading, stopped when it stops. */
export interface ElectedTerm {
  /** Stops every controller of the term; resolves once none of them writes any more. */
  stop(): Promise<void>;
}

export interface ElectedControllersOptions {
  /** The Lease's namespace and name; the name is also the election's in logs and metrics. */
  readonly namespace: string;
  readonly name: string;
  readonly identity: string;
  /** How the Lease and the leader election events are read and written. */
  readonly client: RESTClient;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
  /** The events' source component (`kube-controller-manager`). */
  readonly component: string;
  readonly metrics?: leaderelection.LeaderMetric;
  readonly logger?: Logger;
  /**
   * Builds and starts a fresh set of controllers (controllers and their informers are not
   * restartable: every term gets new ones). Returns at once.
   */
  readonly startTerm: () => ElectedTerm;
}

/**
 * Controllers that must run in one replica at a time, under a Lease (client-go's LeaderElector).
 * While it leads, this process runs one term of controllers; it renews the Lease meanwhile.
 *
 * Losing the Lease (no renewal within the renew deadline): kube-controller-manager exits
 * (klog.Fatalf "leaderelection lost") and its restart campaigns again. Here the controllers share
 * the process with the API server, which must keep serving, so the term's controllers are
 * stopped (awaited, so nothing of this term writes any more) and the process campaigns again,
 * as a restarted kube-controller-manager would, with fresh controllers for its next term.
 *
 * stop(): the controllers stop first while the Lease is still held and renewed, then the
 * election ends and the Lease is released (client-go's ReleaseOnCancel), so another replica
 * takes over at once and never runs while this one still writes. The release is done here
 * rather than by the elector's releaseOnCancel, which would also release after a failed renewal,
 * while the term's controllers may still be running.
 */
export class ElectedControllers {
  readonly #o: ElectedControllersOptions;
  readonly #log: Logger;
  readonly #campaign = new AbortController();
  readonly #events: record.EventBroadcaster;
  readonly #lock: leaderelection.LeaseLock;
  #stopping = false;
  #loop: Promise<void> | undefined;
  #elector: leaderelection.LeaderElector | undefined;
  #term: ElectedTerm | undefined;
  #ending: Promise<void> = Promise.resolve();
  #stopped: Promise<void> | undefined;

  constructor(o: ElectedControllersOptions) {
    this.#o = o;
    this.#log = o.logger ?? { error: (m, d) => process.stderr.write(`${o.name}: ${m} ${JSON.stringify(d ?? {})}\n`), info: () => {} };
    this.#events = record.newBroadcaster();
    this.#events.startRecordingToSink(new record.RESTEventSink(o.client));
    this.#lock = new leaderelection.LeaseLock({
      namespace: o.namespace,
      name: o.name,
      client: o.client,
      lockConfig: { identity: o.identity, eventRecorder: this.#events.newRecorder({ component: o.component }) },
    });
  }

  /** Starts campaigning; returns at once. */
  start(): void {
    if (this.#stopping) return;
    this.#loop ??= this.#run();
  }

  /** Whether this process leads now (its last observation of the Lease names it). */
  isLeader(): boolean {
    return this.#elector?.isLeader() ?? false;
  }

  /**
   * The health check's verdict (client-go's LeaderElector.Check, for LeaderHealthzAdaptor): an
   * error while this process holds the Lease but has not renewed it for the lease duration plus
   * `maxTolerableExpiredLeaseMs`, a wedged leader only a restart cures.
   */
  check(maxTolerableExpiredLeaseMs: number): Error | undefined {
    return this.#elector?.check(maxTolerableExpiredLeaseMs);
  }

  /** Stops the controllers, then the election, then releases the Lease. Idempotent. */
  stop(): Promise<void> {
    return (this.#stopped ??= (async () => {
      this.#stopping = true;
      await this.#endTerm();
      this.#campaign.abort();
      await this.#loop;
      try {
        if (this.#elector?.isLeader() === true) await this.#elector.release();
      } finally {
        this.#events.shutdown();
      }
    })());
  }

  async #run(): Promise<void> {
    const signal = this.#campaign.signal;
    while (!signal.aborted) {
      const elector = new leaderelection.LeaderElector({
        lock: this.#lock,
        name: this.#o.name,
        leaseDuration: this.#o.leaseDurationMs,
        renewDeadline: this.#o.renewDeadlineMs,
        retryPeriod: this.#o.retryPeriodMs,
        ...(this.#o.metrics !== undefined ? { metrics: this.#o.metrics } : {}),
        logger: this.#log,
        callbacks: {
          onStartedLeading: (leading) => {
            if (this.#stopping) return;
            this.#term = this.#o.startTerm();
            leading.addEventListener('abort', () => void this.#endTerm(), { once: true });
          },
          onStoppedLeading: () => {},
        },
      });
      this.#elector = elector;
      try {
        await elector.run(signal);
      } catch (err) {
        this.#log.error('leader election failed', { lock: this.#lock.describe(), err });
      }
      await this.#endTerm();
      if (!signal.aborted) this.#log.error('leaderelection lost; controllers stopped, campaigning again', { lock: this.#lock.describe(), identity: this.#o.identity });
    }
  }

  /** Stops the running term, if any; every caller waits for the same stop. */
  #endTerm(): Promise<void> {
    const term = this.#term;
    this.#term = undefined;
    if (term !== undefined) {
      this.#ending = term.stop().catch((err: unknown) => this.#log.error('stopping the controllers failed', { lock: this.#lock.describe(), err }));
    }
    return this.#ending;
  }
}
