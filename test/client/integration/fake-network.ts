// The network between an informer and a fake clientset, so the acceptance scenarios that break
// connections to the real server run unchanged on the fake: drop() ends every open watch as a
// reset connection does (the iteration throws ECONNRESET), cutOff() also refuses every request
// (ECONNREFUSED, as from a server that is down) until reconnect().
import type { RESTClient, RESTRequest, Watch, WatchEvent } from '../../../runtime/client/index.js';

const netError = (code: 'ECONNRESET' | 'ECONNREFUSED'): Error => Object.assign(new Error(code === 'ECONNRESET' ? 'read ECONNRESET' : 'connect ECONNREFUSED'), { code });

/** A watch whose stream can be broken from outside. */
class BreakableWatch<T> implements Watch<T> {
  private broken = false;
  constructor(
    private readonly inner: Watch<T>,
    private readonly onEnd: () => void,
  ) {}

  break(): void {
    this.broken = true;
    this.inner.stop();
  }

  stop(): void {
    this.inner.stop();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<WatchEvent<T>> {
    try {
      for await (const e of this.inner) {
        if (this.broken) break;
        yield e;
      }
      if (this.broken) throw netError('ECONNRESET');
    } finally {
      this.onEnd();
    }
  }
}

export class FakeNetwork {
  private readonly open = new Set<BreakableWatch<unknown>>();
  private refusing = false;
  drops = 0;

  /** The informer's side of the network to `inner` (a FakeRESTClient). */
  client(inner: RESTClient): RESTClient {
    return {
      request: <R>(req: RESTRequest): Promise<R> => (this.refusing ? Promise.reject(netError('ECONNREFUSED')) : inner.request<R>(req)),
      watch: async <T>(req: Omit<RESTRequest, 'method' | 'body' | 'contentType'>): Promise<Watch<T>> => {
        if (this.refusing) throw netError('ECONNREFUSED');
        const w: BreakableWatch<T> = new BreakableWatch<T>(await inner.watch<T>(req), () => this.open.delete(w as BreakableWatch<unknown>));
        this.open.add(w as BreakableWatch<unknown>);
        return w;
      },
    };
  }

  drop(): void {
    if (this.open.size > 0) this.drops++;
    for (const w of this.open) w.break();
    this.open.clear();
  }

  async cutOff(): Promise<void> {
    this.refusing = true;
    this.drop();
  }

  async reconnect(): Promise<void> {
    this.refusing = false;
  }
}
