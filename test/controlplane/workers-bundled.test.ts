// --workers 2 as `npm start` runs it (hack/start.mjs: the esbuild bundle, whose process.argv[1]
// names the source entry): the workers are forked from the bundle, serve, and a terminal's
// SIGINT to the primary drains them all and exits 0 (the workers ignore SIGINT themselves: it
// is the primary's to forward). Killing every worker at once with -9: the primary restarts them on
// the port the first ones got (with --secure-port 0 the shared socket closed with the last
// worker). No kube test ports this.
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

  /** The pid and url of the latest ready line of each worker index. */
  const workers = (): Map<string, { pid: number; url: string }> =>
    new Map([...cp.log().matchAll(/^I worker (\d+) \(pid (\d+)\) ready on (\S+)$/gm)].map((m) => [m[1]!, { pid: Number(m[2]), url: m[3]! }]));

  const answers = async (): Promise<void> => {
    const client = new HttpsClient(cp.credentials);
    try {
      assert.equal((await client.json('GET', '/api/v1/namespaces/default')).status, 200);
    } finally {
      client.close();
    }
  };

  test('both workers serve from the bundle', async () => {
    assert.match(cp.log(), /ready in \d+ ms \(2 workers\)/);
    assert.equal(new Set([...workers().values()].map((w) => w.pid)).size, 2, cp.log());
    await answers();
  });

  test('every worker killed with -9: both restarted on the same port', async () => {
    const before = workers();
    for (const w of before.values()) process.kill(w.pid, 'SIGKILL');
    const after = await eventually(
      'both workers ready again',
      async () => {
        const now = workers();
        return [...now.entries()].every(([i, w]) => w.pid !== before.get(i)?.pid) && now.size === 2 ? now : undefined;
      },
      180_000,
    );
    for (const w of after.values()) assert.equal(w.url, cp.url);
    await answers();
  });

  test('SIGINT to the primary drains the workers and exits 0', async () => {
    const pids = [...workers().values()].map((w) => w.pid);
    process.kill(cp.pid, 'SIGINT');
    const status = await eventually('the primary to exit', async () => cp.exited(), 60_000);
    assert.deepEqual(status, { code: 0, signal: null }, cp.log().slice(-3000));
    for (const pid of pids) assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `worker ${pid} exited`);
  });
});

describe('--workers 2: a second signal', () => {
  let cp: ControlPlane;
  before(async () => {
    // A drain that lasts (workers keep serving 60 s after SIGTERM) leaves time for the second signal.
    cp = await ControlPlane.start({ backend: 'sqlite', bundled: true, extraArgs: ['--workers', '2', '--shutdown-delay-duration', '60s'], readyTimeoutMs: 180_000 });
  });
  after(async () => {
    await cp?.stop();
  });

  test('exits the primary 1 at once, and the workers with it', async () => {
    const pids = [...cp.log().matchAll(/^I worker \d+ \(pid (\d+)\) ready on /gm)].map((m) => Number(m[1]));
    assert.equal(pids.length, 2, cp.log());
    process.kill(cp.pid, 'SIGTERM');
    // Two signals sent at once may be delivered as one: the second follows the first's log line.
    // Not anchored to a line's start: a worker's line written around the primary's would hide it.
    await eventually('the drain to start', async () => {
      if (/kube-ts-apiserver: SIGTERM received/.test(cp.log())) return true;
      const exited = cp.exited();
      if (exited !== undefined) throw new Error(`the primary exited (${JSON.stringify(exited)}) without logging the signal`);
      return undefined;
    }).catch((err: unknown) => assert.fail(`${String(err)}; the command's output: ${cp.log().slice(-4000)}`));
    process.kill(cp.pid, 'SIGTERM');
    const status = await eventually('the primary to exit', async () => cp.exited(), 60_000);
    assert.deepEqual(status, { code: 1, signal: null }, cp.log().slice(-3000));
    // A worker whose primary is gone exits (node:cluster: the IPC channel closed).
    for (const pid of pids) {
      await eventually(
        `worker ${pid} to exit`,
        async () => {
          try {
            process.kill(pid, 0);
            return undefined;
          } catch {
            return true;
          }
        },
        30_000,
      );
    }
  });
});

describe('--workers 2: SIGTERM while a worker restarts', () => {
  let cp: ControlPlane;
  before(async () => {
    cp = await ControlPlane.start({ backend: 'sqlite', bundled: true, extraArgs: ['--workers', '2'], readyTimeoutMs: 180_000 });
  });
  after(async () => {
    await cp?.stop();
  });

  test('the starting worker, which has nothing to drain, ends by the signal and the primary still exits 0', async () => {
    const victim = Number(/^I worker 0 \(pid (\d+)\) ready on /m.exec(cp.log())?.[1]);
    process.kill(victim, 'SIGKILL');
    await eventually('the restart to be scheduled', async () => (/^W worker 0 \(pid \d+\) exited unexpectedly/m.test(cp.log()) ? true : undefined));
    // After the first restart delay (500 ms) the new worker is forked; the signal follows at once,
    // long before it could have loaded its modules and served.
    await eventually('the new worker to be forked', async () => (/^I worker 0 \(pid \d+\) started$/m.test(cp.log()) ? true : undefined));
    assert.doesNotMatch(
      cp
        .log()
        .split(/^W worker 0 /m)
        .at(-1) ?? '',
      /^I worker 0 \(pid \d+\) ready on /m,
      'still starting',
    );
    const status = await cp.terminate();
    assert.deepEqual(status, { code: 0, signal: null }, cp.log().slice(-3000));
  });
});
