// Acceptance of the informers (issue 5): a compaction that expires the informer's
// resourceVersion makes it relist, with the handler told exactly what changed meanwhile. The
// control plane runs with kube's --etcd-compaction-interval=1s (on etcd its compactor keeps one
// interval of history; on SQLite each round drops the history before the current revision), so
// the watch cache answers the informer's resumed watch with 410 Expired once the storage
// compacted past it. The informer is cut off by a proxy that refuses connections meanwhile.
import { after, before, test } from 'node:test';
import { describeBackends } from '../integration/harness.js';
import { type ClosableEnv, serverEnv } from './integration/envs.js';
import { relistAfterExpiry } from './integration/informer-scenarios.js';

describeBackends(
  'informer relist after compaction',
  (get) => {
    let env: ClosableEnv;
    before(async () => {
      env = await serverEnv(get());
    });
    after(() => env.close());

    test('410 on the resumed watch → relist: adds, updates and DeletedFinalStateUnknown deletes for what changed while cut off', { timeout: 10 * 60_000 }, async (t) => {
      t.diagnostic(await relistAfterExpiry(env));
    });
  },
  { extraArgs: ['--etcd-compaction-interval=1s'] },
);
