import { closeSync, constants, openSync, watch, writeSync, type FSWatcher } from 'node:fs';

/**
 * FeedNotifier is how the processes sharing one SQLite file wake each other after a commit, so
 * their change feeds read the new log rows at once instead of at the next poll. It only ever
 * says "look": the log is the truth, a lost or spurious notification costs a delay or one
 * cheap read, never an event. A supervisor that already has a channel to every worker (the
 * cluster primary's IPC) can provide its own.
 */
export interface FeedNotifier {
  /** Called after every commit of this process (once it is visible to readers) with its newest revision. */
  notify(revision: number): void;
  /** Calls onNotified whenever another process may have committed; returns the unsubscribe. */
  subscribe(onNotified: () => void): () => void;
}

/**
 * The default notifier needs no addresses nor registry: after each commit the writer overwrites
 * the 8 bytes of `<path>-notify` with its revision (page cache only, no fsync), and every
 * process watches that file (inotify on Linux, FSEvents/kqueue elsewhere). Not the WAL itself:
 * its writes land before the commit is visible (the wal-index is updated after the fsync,
 * through shared memory, which raises no file event), so a reader woken by them could find
 * nothing and sleep until the next poll. Our own commits wake us too; the feed then finds
 * nothing new after one read.
 */
export function fileNotifier(path: string): FeedNotifier {
  const file = `${path}-notify`;
  const buf = Buffer.alloc(8);
  let fd: number | undefined;
  return {
    notify(revision) {
      if (fd === undefined) return;
      buf.writeBigUInt64BE(BigInt(revision));
      try {
        writeSync(fd, buf, 0, 8, 0);
      } catch {
        // A failed wake-up only delays the others until their next poll.
      }
    },
    subscribe(onNotified) {
      let watcher: FSWatcher | undefined;
      try {
        fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o600);
        watcher = watch(file, { persistent: false }, () => onNotified());
        // A watch that fails later leaves the feed on its polling fallback.
        watcher.on('error', () => watcher?.close());
      } catch {
        watcher = undefined;
      }
      return () => {
        watcher?.close();
        if (fd !== undefined) closeSync(fd);
        fd = undefined;
      };
    },
  };
}
