import { watch, type FSWatcher } from 'node:fs';

/**
 * FeedNotifier is how the processes sharing one SQLite file wake each other after a commit, so
 * their change feeds read the new log rows at once instead of at the next poll. It only ever
 * says "look": the log is the truth, a lost or spurious notification costs a delay or one
 * cheap read, never an event. A supervisor that already has a channel to every worker (the
 * cluster primary's IPC) can provide its own.
 */
export interface FeedNotifier {
  /** Called after every commit of this process with its newest revision. */
  notify(revision: number): void;
  /** Calls onNotified whenever another process may have committed; returns the unsubscribe. */
  subscribe(onNotified: () => void): () => void;
}

/**
 * The default notifier needs no addresses nor registry: every commit appends to the file's
 * write-ahead log, so watching `<path>-wal` (inotify on Linux, FSEvents/kqueue elsewhere) wakes
 * every process that has the file open, whoever wrote. Our own commits wake us too; the feed
 * finds nothing new and stops after one read. SQLite keeps the WAL file while any connection
 * is open (it is truncated, never removed), so the watch outlives checkpoints.
 */
export function walNotifier(path: string): FeedNotifier {
  return {
    notify() {
      // The WAL append is the notification.
    },
    subscribe(onNotified) {
      let watcher: FSWatcher | undefined;
      try {
        watcher = watch(`${path}-wal`, { persistent: false }, () => onNotified());
        // A watch that fails later leaves the feed on its polling fallback.
        watcher.on('error', () => watcher?.close());
      } catch {
        watcher = undefined;
      }
      return () => watcher?.close();
    },
  };
}
