import { newSharedInformerFactoryCore, RateLimitingQueue, type SharedInformerFactoryCore } from '../client/index.js';

/**
 * What a controller with one work queue over shared informers starts and stops: the queue, and
 * the informer factory it takes its informers from — the caller's (kube-controller-manager's
 * shared informers, started and stopped by their owner), or one of its own, started and stopped
 * with the controller.
 */
export class QueueWorker<K> {
  readonly queue = new RateLimitingQueue<K>();
  readonly factory: SharedInformerFactoryCore;
  private readonly ownFactory: SharedInformerFactoryCore | undefined;
  private readonly stopping = new AbortController();
  private running: Promise<void> | undefined;

  constructor(shared: SharedInformerFactoryCore | undefined) {
    this.ownFactory = shared === undefined ? newSharedInformerFactoryCore() : undefined;
    this.factory = shared ?? (this.ownFactory as SharedInformerFactoryCore);
  }

  /** Starts the own informers (if any) and `run`, once. */
  start(run: (signal: AbortSignal) => Promise<void>): void {
    if (this.running !== undefined) return;
    this.ownFactory?.start();
    this.running = run(this.stopping.signal);
  }

  /** Ends `run` (a sync in progress finishes) and the own informers. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.queue.shutDown();
    await this.running;
    await this.ownFactory?.shutdown();
  }
}
