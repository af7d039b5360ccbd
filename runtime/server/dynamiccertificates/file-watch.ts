import { watch, type FSWatcher } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../../endpoints/filters/log.js';

/** kube's FileRefreshDuration: a file is read again at least this often, whatever its watch says. */
export const FILE_REFRESH_MS = 60_000;
/** Events come in bursts (a write, a rename, the key after the certificate): one load after the burst. */
const DEBOUNCE_MS = 50;
/** A failed load is retried sooner than the next refresh, doubling up to it (the rate-limited requeue of kube's queue). */
const FIRST_RETRY_MS = 200;

export interface FileWatchOptions {
  /** Read again at least this often; default a minute. */
  readonly resyncMs?: number;
  readonly logger: Logger;
}

/**
 * The watch loop of kube's dynamic file contents: `load` runs after any event in the directory of
 * one of `files` and every `resyncMs`; a load that throws is logged (kube's `key failed with : <err>`) and
 * retried with backoff, the content it guards staying as it was.
 *
 * The directories are watched, not the files: tools replace a file by writing a temporary one and
 * renaming it over the old (kubectl, editors, Secret volume projections), and a watch on the old
 * inode would see nothing after that. fsnotify re-adds its watch on a rename for the same reason.
 */
export class FileWatch {
  private watchers: FSWatcher[] = [];
  private resync: NodeJS.Timeout | undefined;
  private pending: NodeJS.Timeout | undefined;
  private pendingAt = 0;
  private retryMs = 0;
  private running = false;

  constructor(
    readonly name: string,
    private readonly files: readonly string[],
    private readonly load: () => void,
    private readonly o: FileWatchOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.o.logger.info('Starting controller', { name: this.name });
    this.watchDirectories();
    this.resync = setInterval(() => {
      // A directory that could not be watched (gone for a while) is tried again with each refresh.
      if (this.watchers.length === 0) this.watchDirectories();
      this.schedule(0);
    }, this.o.resyncMs ?? FILE_REFRESH_MS);
    this.resync.unref();
    // A change between the first load and the watch must not wait for the refresh.
    this.schedule(0);
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.resync);
    clearTimeout(this.pending);
    this.closeWatchers();
    this.o.logger.info('Shutting down controller', { name: this.name });
  }

  private watchDirectories(): void {
    try {
      for (const dir of new Set(this.files.map((f) => dirname(f)))) {
        // Any entry of the directory, not only the files' names: a Secret or ConfigMap volume
        // changes its files by swapping the `..data` symlink they point through. A load that
        // finds the same bytes changes nothing.
        const w = watch(dir, { persistent: false }, () => this.schedule(DEBOUNCE_MS));
        w.on('error', (err) => {
          this.o.logger.error('Failed to watch file, will retry later', { name: this.name, err });
          this.closeWatchers();
        });
        this.watchers.push(w);
      }
    } catch (err) {
      this.o.logger.error('Failed to watch file, will retry later', { name: this.name, err });
      this.closeWatchers();
    }
  }

  private closeWatchers(): void {
    for (const w of this.watchers) w.close();
    this.watchers = [];
  }

  /** One load `delayMs` from now, or sooner when one is already due sooner (the queue holds one key). */
  private schedule(delayMs: number): void {
    if (!this.running) return;
    const at = performance.now() + delayMs;
    if (this.pending !== undefined) {
      if (this.pendingAt <= at) return;
      clearTimeout(this.pending);
    }
    this.pendingAt = at;
    this.pending = setTimeout(() => {
      this.pending = undefined;
      this.sync();
    }, delayMs);
    this.pending.unref();
  }

  private sync(): void {
    if (!this.running) return;
    try {
      this.load();
      this.retryMs = 0;
    } catch (err) {
      this.o.logger.error(`key failed with : ${err instanceof Error ? err.message : String(err)}`, { name: this.name });
      this.retryMs = Math.min(this.retryMs === 0 ? FIRST_RETRY_MS : this.retryMs * 2, this.o.resyncMs ?? FILE_REFRESH_MS);
      this.schedule(this.retryMs);
    }
  }
}
