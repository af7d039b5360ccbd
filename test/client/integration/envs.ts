// The two environments of the informer acceptance scenarios: the control plane (a subprocess)
// with the informer behind a TCP proxy, and the generated fake clientset with the informer
// behind a FakeNetwork.
import { Clientset } from '../../../generated/clientset/index.js';
import { newFakeClientset } from '../../../generated/clientset/fake/index.js';
import type { HTTPRESTClient } from '../../../runtime/client/index.js';
import type { ControlPlane } from '../../integration/harness.js';
import { FakeNetwork } from './fake-network.js';
import { adminClient, CountingRESTClient } from './informer-harness.js';
import type { InformerEnv } from './informer-scenarios.js';
import { TcpProxy } from './tcp-proxy.js';

export type ClosableEnv = InformerEnv & { close(): Promise<void> };

/** The control plane; the informer's connections go through a proxy dropped every 2 s during churn. */
export async function serverEnv(cp: ControlPlane): Promise<ClosableEnv> {
  const writer = adminClient(cp.kubeconfigPath);
  const cs = new Clientset(writer);
  const proxy = await TcpProxy.start(cp.port);
  const clients: HTTPRESTClient[] = [writer];
  return {
    cs,
    informerTransport: () => {
      const rest = adminClient(cp.kubeconfigPath, { host: proxy.url, options: { backoff: { initialMs: 100, maxMs: 1000 } } });
      clients.push(rest);
      return new CountingRESTClient(rest);
    },
    drop: () => proxy.dropAll(),
    cutOff: () => proxy.pause(),
    reconnect: () => proxy.resume(),
    startDropping: () => {
      const base = proxy.drops;
      const stop = proxy.dropEvery(2000);
      return { afterChange: () => {}, stop, drops: () => proxy.drops - base };
    },
    createNamespace: async (name) => {
      await cs.coreV1().namespaces().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    },
    close: async () => {
      for (const c of clients) c.close();
      await proxy.close();
    },
  };
}

/**
 * The generated fake clientset (`historyLimit`: changes its tracker keeps for watches from an
 * older resourceVersion); during churn the informer's watches break every `dropEvery` changes.
 */
export function fakeEnv(o: { historyLimit?: number; dropEvery?: number } = {}): ClosableEnv {
  const cs = newFakeClientset(o.historyLimit === undefined ? {} : { historyLimit: o.historyLimit });
  const network = new FakeNetwork();
  const every = o.dropEvery ?? 500;
  return {
    cs,
    informerTransport: () => new CountingRESTClient(network.client(cs.fake)),
    drop: () => network.drop(),
    cutOff: () => network.cutOff(),
    reconnect: () => network.reconnect(),
    startDropping: () => {
      const base = network.drops;
      let on = true;
      return {
        afterChange: async (n) => {
          if (on && n % every === 0) network.drop();
          // The fake answers in microtasks: give the informer's loops a turn, as a server's I/O would.
          await new Promise((r) => setImmediate(r));
        },
        stop: () => {
          on = false;
        },
        drops: () => network.drops - base,
      };
    },
    createNamespace: async (name) => {
      await cs.coreV1().namespaces().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    },
    close: async () => {
      await network.reconnect();
    },
  };
}
