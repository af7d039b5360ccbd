// The informer acceptance scenarios of issue 5 (integration/informer-scenarios.ts, also run
// against the control plane) on the generated fake clientset: the same generated Clientset and
// SharedInformerFactory, the tracker in place of the server, a FakeNetwork in place of the
// TCP proxy (watches broken every 500 changes; connections refused while cut off), and the
// tracker's bounded history in place of compaction for the 410 → relist path.
import { describe, test } from 'node:test';
import { fakeEnv } from './integration/envs.js';
import { churn, LONG, relistAfterExpiry, syncThousand, watchFromResourceVersion } from './integration/informer-scenarios.js';

describe('informers over the generated fake clientset', () => {
  test('1,000 objects synced: hasSynced, lister equal to a list, initial adds', { timeout: LONG }, async () => {
    const env = fakeEnv();
    try {
      await syncThousand(env);
    } finally {
      await env.close();
    }
  });

  test('a typed watch from a resourceVersion gets the later changes in order', { timeout: LONG }, async () => {
    const env = fakeEnv();
    try {
      await watchFromResourceVersion(env);
    } finally {
      await env.close();
    }
  });

  test('10,000 changes in 4 namespaces, watches broken every 500 changes: cache and handler end equal to the tracker', { timeout: LONG }, async (t) => {
    const env = fakeEnv({ historyLimit: 1000, dropEvery: 500 });
    try {
      t.diagnostic(await churn(env, { writers: 16, perWriter: 625 }));
    } finally {
      await env.close();
    }
  });

  test('history overflow while cut off → 410 on the resumed watch → relist with tombstones, updates, adds', { timeout: LONG }, async (t) => {
    // 30 changes while cut off overflow a history of 20: a watch from before them is 410.
    const env = fakeEnv({ historyLimit: 20 });
    try {
      t.diagnostic(await relistAfterExpiry(env));
    } finally {
      await env.close();
    }
  });
});
