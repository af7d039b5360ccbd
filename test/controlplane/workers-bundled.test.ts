// --workers 2 as `npm start` runs it (hack/start.mjs: the esbuild bundle, whose process.argv[1]
// names the source entry): the workers are forked from the bundle, serve, and a terminal's
// SIGINT to the primary drains them all and exits 0 (the workers ignore SIGINT themselves: it
// is the primary's to forward). No kube test ports this.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ControlPlane } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { eventually } from './leader-election-helpers.js';

describe('--workers 2 from the npm start bundle', () => {
  let cp: ControlPlane;
  before(async () => {
    cp = await ControlPlane.start({ backend: 'sqlite', bundled: true, extraArgs: ['--workers', '2'], readyTimeoutMs: 180_000 });
  });
  after(async () => {
    await cp?.stop();
  });

  test('both workers serve; SIGINT to the primary drains them and exits 0', async () => {
    assert.match(cp.log(), /ready in \d+ ms \(2 workers\)/);
    const pids = [...cp.log().matchAll(/^I worker \d+ \(pid (\d+)\) ready on /gm)].map((m) => Number(m[1]));
    assert.equal(new Set(pids).size, 2, cp.log());
    const client = new HttpsClient(cp.credentials);
    try {
      assert.equal((await client.json('GET', '/api/v1/namespaces/default')).status, 200);
    } finally {
      client.close();
    }
    process.kill(cp.pid, 'SIGINT');
    const status = await eventually('the primary to exit', async () => cp.exited(), 60_000);
    assert.deepEqual(status, { code: 0, signal: null }, cp.log().slice(-3000));
    for (const pid of pids) assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `worker ${pid} exited`);
  });
});
