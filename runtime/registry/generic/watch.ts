import { statusForError, type WatchEvent, type Watcher } from '../../storage/index.js';
import type { KubeObject } from '../rest.js';

/**
 * A storage watcher whose ADDED/MODIFIED/DELETED objects are converted to the hub version as
 * they are received (cached per shared object, so every watcher of the watch cache converts
 * an event once). BOOKMARK and ERROR events pass through unchanged.
 */
export class HubWatcher implements Watcher<KubeObject> {
  constructor(
    private readonly inner: Watcher<KubeObject>,
    private readonly toHub: (stored: KubeObject) => KubeObject,
  ) {}

  get stopped(): boolean {
    return this.inner.stopped;
  }

  async receive(opts?: { signal?: AbortSignal }): Promise<WatchEvent<KubeObject> | undefined> {
    const ev = await this.inner.receive(opts);
    return ev === undefined ? undefined : this.convert(ev);
  }

  stop(): void {
    this.inner.stop();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent<KubeObject>> {
    for (;;) {
      const ev = await this.receive();
      if (ev === undefined) return;
      yield ev;
    }
  }

  private convert(ev: WatchEvent<KubeObject>): WatchEvent<KubeObject> {
    switch (ev.type) {
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED':
        try {
          return { type: ev.type, object: this.toHub(ev.object) };
        } catch (e) {
          // An object that does not convert ends this watch with a 500, never the process.
          this.inner.stop();
          return { type: 'ERROR', object: statusForError(e) };
        }
      default:
        return ev;
    }
  }
}
