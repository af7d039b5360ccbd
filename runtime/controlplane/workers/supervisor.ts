import cluster, { type Worker } from 'node:cluster';
import { ConnectionBalancer } from './balancer.js';
import { isWorkerDraining, isWorkerReady, WORKER_INDEX_ENV, WORKER_PORT_ENV, type WorkerReady } from './messages.js';

/** The first restart of a worker that died waits this long; each further one twice as long. */
const INITIAL_RESTART_DELAY_MS = 500;
/** The longest wait between restarts of a worker that keeps dying. */
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that ran this long before it died starts over from the initial delay. */
const RESET_BACKOFF_AFTER_MS = 60_000;
/** How long the workers of a failed start get to exit on SIGTERM before they are killed. */
const FAILED_START_GRACE_MS = 10_000;

export interface SupervisorOptions {
  readonly workers: number;
  /** The file every worker runs, and its arguments (the command's flags). */
  readonly exec: string;
  readonly args: readonly string[];
  /** The secure port's address, which the primary listens on: --bind-address, --secure-port (0: a free port). */
  readonly listen: { readonly host: string; readonly port: number };
  /** One line for the log (stderr), kube's severity letter first. */
  readonly log: (line: string) => void;
}

interface Slot {
  readonly index: number;
  worker: Worker | undefined;
  exited: Promise<{ code: number | null; signal: string | null }> | undefined;
  forkedAt: number;
  /** Restarts since the worker last ran RESET_BACKOFF_AFTER_MS: the exponent of the next delay. */
  failures: number;
  restartTimer: NodeJS.Timeout | undefined;
}

/**
 * The --workers primary (node:cluster): forks one control plane per index, all behind the same
 * secure port (the primary listens and hands connections to the workers: ConnectionBalancer),
 * restarts a worker that dies after the start with a bounded exponential backoff, and on stop
 * forwards SIGTERM to every worker and waits for each one's graceful shutdown.
 */
export class Supervisor {
  private readonly slots: Slot[];
  private stopping = false;
  private started = false;
  private readyCount = 0;
  private first: WorkerReady | undefined;
  private onAllReady: (r: WorkerReady) => void = () => {};
  private onStartFailed: (err: Error) => void = () => {};
  private readonly balancer = new ConnectionBalancer();
  /** The bound secure port, which every worker (restarted ones too) serves as its own. */
  private port = 0;

  constructor(private readonly o: SupervisorOptions) {
    this.slots = Array.from({ length: o.workers }, (_, index) => ({ index, worker: undefined, exited: undefined, forkedAt: 0, failures: 0, restartTimer: undefined }));
  }

  /** Listens, forks every worker; resolves with the first one's ready message once all are serving. */
  async start(): Promise<WorkerReady> {
    this.port = await this.balancer.listen(this.o.listen.host, this.o.listen.port);
    cluster.setupPrimary({ exec: this.o.exec, args: [...this.o.args], silent: false });
    const allReady = new Promise<WorkerReady>((resolve, reject) => {
      this.onAllReady = resolve;
      this.onStartFailed = reject;
    });
    for (const slot of this.slots) this.fork(slot);
    try {
      return await allReady;
    } catch (err) {
      // A worker that cannot start means the command cannot: the others are stopped as well.
      this.stopping = true;
      this.balancer.closeNow();
      await this.signalAll('SIGTERM', FAILED_START_GRACE_MS);
      throw err;
    }
  }

  /** SIGTERM to every worker (no more restarts); resolves once all exited, rejects if one failed its shutdown. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.balancer.closeWhenDrained();
    const failed = await this.signalAll('SIGTERM', undefined);
    this.balancer.closeNow();
    if (failed.length > 0) throw new Error(failed.join('; '));
  }

  private fork(slot: Slot): void {
    const worker = cluster.fork({ [WORKER_INDEX_ENV]: String(slot.index), [WORKER_PORT_ENV]: String(this.port) });
    slot.worker = worker;
    this.balancer.attach(worker);
    // A restart says when its worker exists (the start's workers are reported ready together).
    if (this.started) this.o.log(`I worker ${slot.index} (pid ${worker.process.pid}) started`);
    slot.forkedAt = Date.now();
    slot.exited = new Promise((resolve) => worker.once('exit', (code, signal) => resolve({ code, signal })));
    // An IPC error (the channel closed under a dying worker) is followed by its exit, handled below.
    worker.on('error', () => {});
    let ready = false;
    worker.on('message', (m: unknown) => {
      if (isWorkerDraining(m)) this.balancer.remove(worker);
      if (ready || !isWorkerReady(m)) return;
      ready = true;
      this.o.log(`I worker ${slot.index} (pid ${worker.process.pid}) ready on ${m.url}`);
      this.balancer.add(worker);
      this.ready(m);
    });
    worker.once('exit', (code, signal) => this.exited(slot, worker, ready, code, signal));
  }

  private ready(m: WorkerReady): void {
    if (this.started) return;
    this.first ??= m;
    if (++this.readyCount === this.slots.length) {
      this.started = true;
      this.onAllReady(this.first);
    }
  }

  private exited(slot: Slot, worker: Worker, wasReady: boolean, code: number | null, signal: string | null): void {
    if (slot.worker === worker) slot.worker = undefined;
    if (this.stopping) return;
    const how = signal !== null ? `signal ${signal}` : `exit code ${code}`;
    if (!this.started) {
      this.onStartFailed(new Error(`worker ${slot.index} (pid ${worker.process.pid}) exited before it was ready (${how})`));
      return;
    }
    if (Date.now() - slot.forkedAt >= RESET_BACKOFF_AFTER_MS) slot.failures = 0;
    const delay = Math.min(MAX_RESTART_DELAY_MS, INITIAL_RESTART_DELAY_MS * 2 ** slot.failures);
    slot.failures++;
    this.o.log(`W worker ${slot.index} (pid ${worker.process.pid}) exited unexpectedly (${how}${wasReady ? '' : ', before it was ready'}); restarting it in ${goDuration(delay)}`);
    slot.restartTimer = setTimeout(() => {
      slot.restartTimer = undefined;
      if (!this.stopping) this.fork(slot);
    }, delay);
  }

  /** Sends `signal` to every live worker; waits for all (SIGKILL after graceMs if given); returns why any failed. */
  private async signalAll(signal: NodeJS.Signals, graceMs: number | undefined): Promise<string[]> {
    const failed: string[] = [];
    await Promise.all(
      this.slots.map(async (slot) => {
        clearTimeout(slot.restartTimer);
        slot.restartTimer = undefined;
        const worker = slot.worker;
        if (worker === undefined || slot.exited === undefined) return;
        worker.process.kill(signal);
        const kill = graceMs === undefined ? undefined : setTimeout(() => worker.process.kill('SIGKILL'), graceMs);
        const { code, signal: by } = await slot.exited;
        clearTimeout(kill);
        // Ended by the SIGTERM itself: a worker still starting has no handler yet, and nothing to drain.
        if (code !== 0 && by !== signal) failed.push(`worker ${slot.index} (pid ${worker.process.pid}) ${by !== null ? `ended by signal ${by}` : `exited with code ${code}`}`);
      }),
    );
    return failed;
  }
}

/** A whole number of milliseconds as Go prints a duration (500ms, 1s, 30s). */
function goDuration(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${ms / 1000}s`;
}
