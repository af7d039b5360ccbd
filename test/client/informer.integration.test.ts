// Acceptance of the informers (issue 5) against the real control plane (a subprocess, as users
// run it) on SQLite and on etcd, through the generated Clientset and SharedInformerFactory over
// the HTTP REST client: 1,000 objects synced; a typed watch from a resourceVersion; 10,000
// mixed changes in several namespaces while a proxy between informer and server drops every
// connection every 2 s, ending with the cache equal to the server's state and the handler's
// add/update/delete calls adding up to it. The scenarios are in integration/informer-scenarios.ts
// (informer-fake.integration.test.ts runs them on the fake clientset).
import { after, before, test } from 'node:test';
import { describeBackends } from '../integration/harness.js';
import { type ClosableEnv, serverEnv } from './integration/envs.js';
import { churn, LONG, syncThousand, watchFromResourceVersion } from './integration/informer-scenarios.js';

describeBackends('informers against the control plane', (get) => {
  let env: ClosableEnv;
  before(async () => {
    env = await serverEnv(get());
  });
  after(() => env.close());

  test('1,000 objects synced: hasSynced, lister equal to a server list, initial adds', { timeout: LONG }, () => syncThousand(env));

  test('a typed watch from a resourceVersion gets the later changes in order', { timeout: LONG }, () => watchFromResourceVersion(env));

  test('10,000 changes in 4 namespaces, connections dropped every 2 s: cache and handler end equal to the server', { timeout: 15 * 60_000 }, async (t) => {
    t.diagnostic(await churn(env, { writers: 16, perWriter: 625 }));
  });
});
