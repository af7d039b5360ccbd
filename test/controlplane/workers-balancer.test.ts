// The --workers primary's listener (runtime/controlplane/workers/balancer.ts) with real worker
// processes that play one part each (workers-balancer.child.ts): a connection handed to a
// worker that dies before answering is closed at once, where node:cluster's round-robin scheduler
// left it open until the client's timeout; a refused connection is served by another worker; a
// connection that arrives while no worker is in rotation waits for one, up to a timeout; once
// drained, the port refuses connections.
import assert from 'node:assert/strict';
import cluster, { type Worker } from 'node:cluster';
import { connect } from 'node:net';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConnectionBalancer } from '../../runtime/controlplane/workers/balancer.js';
import { isWorkerReady } from '../../runtime/controlplane/workers/messages.js';

/** Generous: the machine may be busy; a connection left open would take the client's whole timeout. */
const ANSWER_TIMEOUT_MS = 20_000;

cluster.setupPrimary({ exec: fileURLToPath(new URL('./workers-balancer.child.ts', import.meta.url)), execArgv: ['--import', 'tsx'], silent: false });
const forked: Worker[] = [];

function fork(behaviour: 'serve' | 'die' | 'refuse'): Promise<Worker> {
  const worker = cluster.fork({ BEHAVIOUR: behaviour });
  forked.push(worker);
  worker.on('error', () => {});
  return new Promise((resolve, reject) => {
    worker.on('message', (m: unknown) => isWorkerReady(m) && resolve(worker));
    worker.once('exit', (code) => reject(new Error(`${behaviour} worker exited with ${code} before it was ready`)));
  });
}

/** What a client connecting to `port` and saying hello reads before the connection ends: the answer, or how it ended. */
function exchange(port: number): Promise<{ answer: string; ended: 'end' | 'error'; error?: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer and no end within ${ANSWER_TIMEOUT_MS} ms`));
    }, ANSWER_TIMEOUT_MS);
    socket.on('connect', () => socket.write('hello\n'));
    socket.on('data', (d) => (answer += d.toString()));
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ answer, ended: 'end' });
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      resolve({ answer, ended: 'error', error: err.message });
    });
  });
}

describe('ConnectionBalancer', () => {
  after(() => {
    for (const w of forked) if (w.isConnected()) w.process.kill('SIGKILL');
  });

  it('a connection handed to a worker that dies before answering is closed at once; the next goes to a live worker', async () => {
    const balancer = new ConnectionBalancer();
    const port = await balancer.listen('127.0.0.1', 0);
    try {
      const [dying, serving] = await Promise.all([fork('die'), fork('serve')]);
      balancer.attach(dying);
      balancer.attach(serving);
      balancer.add(dying);
      const lost = await exchange(port);
      assert.equal(lost.answer, '', 'nothing was served on the connection the dead worker was handed');
      balancer.add(serving);
      assert.equal((await exchange(port)).answer, `served by ${serving.process.pid}\n`);
    } finally {
      balancer.closeNow();
    }
  });

  it('a refused connection is handed to another worker, which serves it', async () => {
    const balancer = new ConnectionBalancer();
    const port = await balancer.listen('127.0.0.1', 0);
    try {
      const [refusing, serving] = await Promise.all([fork('refuse'), fork('serve')]);
      balancer.attach(refusing);
      balancer.attach(serving);
      balancer.add(refusing);
      balancer.add(serving);
      // Round robin: half of them are handed to the refusing worker first.
      const answers = await Promise.all(Array.from({ length: 6 }, () => exchange(port)));
      assert.deepEqual(
        answers.map((a) => a.answer),
        answers.map(() => `served by ${serving.process.pid}\n`),
      );
    } finally {
      balancer.closeNow();
    }
  });

  it('a connection that arrives while no worker is in rotation waits for one', async () => {
    const balancer = new ConnectionBalancer();
    const port = await balancer.listen('127.0.0.1', 0);
    try {
      const serving = await fork('serve');
      balancer.attach(serving);
      const waiting = exchange(port);
      await new Promise((r) => setTimeout(r, 200));
      balancer.add(serving);
      assert.equal((await waiting).answer, `served by ${serving.process.pid}\n`);
    } finally {
      balancer.closeNow();
    }
  });

  it('a connection that waits longer than the waiting timeout for a worker is closed unserved', async () => {
    const balancer = new ConnectionBalancer(300);
    const port = await balancer.listen('127.0.0.1', 0);
    try {
      const started = Date.now();
      const waited = await exchange(port);
      assert.equal(waited.answer, '');
      assert.ok(Date.now() - started >= 250, `closed after ${Date.now() - started} ms, before its timeout`);
      // The listener still takes connections, and a worker that joins serves them.
      const serving = await fork('serve');
      balancer.attach(serving);
      balancer.add(serving);
      assert.equal((await exchange(port)).answer, `served by ${serving.process.pid}\n`);
    } finally {
      balancer.closeNow();
    }
  });

  it('once the last worker has left the rotation after closeWhenDrained, the port refuses connections', async () => {
    const balancer = new ConnectionBalancer();
    const port = await balancer.listen('127.0.0.1', 0);
    const serving = await fork('serve');
    balancer.attach(serving);
    balancer.add(serving);
    balancer.closeWhenDrained();
    assert.equal((await exchange(port)).answer, `served by ${serving.process.pid}\n`, 'a worker still in rotation takes connections');
    balancer.remove(serving);
    const refused = await exchange(port);
    assert.equal(refused.ended, 'error');
    assert.match(refused.error ?? '', /ECONNREFUSED/);
  });
});
