// Graceful shutdown of the control plane command under load: SIGTERM, ten times over, while 16
// clients create objects as fast as they are answered and watches stream. After each restart on
// the same data (SQLite file or etcd prefix) the objects stored must be exactly the ones
// acknowledged with 201: a create the server read is answered, never reset after its commit,
// and one it never read is never stored. Every watch must end with the chunked stream's
// terminator (the client sees a normal end, not a reset or a premature close).
import assert from 'node:assert/strict';
import { Agent, request as httpsRequest } from 'node:https';
import { describe, it } from 'node:test';
import { backends, ControlPlane, etcdUnavailable, type Credentials } from '../integration/harness.js';

const CYCLES = 10;
const CLIENTS = 16;
const WATCHES = 3;
/** Creates acknowledged in a cycle before SIGTERM is sent (the load goes on while it drains). */
const ACKS_BEFORE_SIGTERM = 48;

type CreateOutcome = { kind: 'acknowledged' } | { kind: 'refused'; status: number } | { kind: 'no answer'; error: string };

interface Cycle {
  acknowledged: Set<string>;
  refused: Map<string, number>;
  unanswered: Map<string, string>;
}

function agentFor(creds: Credentials): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1, ca: creds.caPEM, cert: creds.certPEM, key: creds.keyPEM });
}

function create(creds: Credentials, agent: Agent, name: string, cycle: number): Promise<CreateOutcome> {
  const u = new URL(creds.server);
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name, labels: { cycle: String(cycle) } } });
  return new Promise((resolve) => {
    const req = httpsRequest(
      {
        host: u.hostname,
        port: u.port,
        method: 'POST',
        path: '/api/v1/namespaces/default/endpoints',
        agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 201 ? { kind: 'acknowledged' } : { kind: 'refused', status: res.statusCode ?? 0 }));
        res.on('error', (err) => resolve({ kind: 'no answer', error: `${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}` }));
      },
    );
    req.setTimeout(120_000, () => req.destroy(new Error('no answer within 120 s')));
    req.on('error', (err) => resolve({ kind: 'no answer', error: `${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}` }));
    req.end(body);
  });
}

/** One client: creates one object after the other on its kept-alive connection until the server stops answering. */
async function client(creds: Credentials, id: number, cycle: number, into: Cycle, onAck: () => void): Promise<void> {
  const agent = agentFor(creds);
  try {
    for (let n = 0; ; n++) {
      const name = `c${cycle}-w${id}-${n}`;
      const outcome = await create(creds, agent, name, cycle);
      if (outcome.kind === 'acknowledged') {
        into.acknowledged.add(name);
        onAck();
        continue;
      }
      if (outcome.kind === 'refused') into.refused.set(name, outcome.status);
      else into.unanswered.set(name, outcome.error);
      return;
    }
  } finally {
    agent.destroy();
  }
}

/** How a watch stream ended: `complete` only when the terminating chunk arrived. */
interface WatchEnd {
  status: number;
  complete: boolean;
  error: string | undefined;
}

/** Opens a watch on its own connection; resolves once the server answered its headers. */
function watch(creds: Credentials): Promise<{ ended: Promise<WatchEnd> }> {
  const u = new URL(creds.server);
  return new Promise((resolveStarted, reject) => {
    const req = httpsRequest({ host: u.hostname, port: u.port, path: '/api/v1/namespaces/default/endpoints?watch=true', agent: agentFor(creds) }, (res) => {
      let error: string | undefined;
      const ended = new Promise<WatchEnd>((resolve) => {
        res.on('error', (err) => (error = `${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}`));
        res.on('close', () => resolve({ status: res.statusCode ?? 0, complete: res.complete, error }));
        res.resume();
      });
      resolveStarted({ ended });
    });
    req.on('error', reject);
    req.end();
  });
}

async function storedNames(cp: ControlPlane, agent: Agent, cycle: number): Promise<Set<string>> {
  const u = new URL(cp.url);
  const text = await new Promise<string>((resolve, reject) => {
    const req = httpsRequest({ host: u.hostname, port: u.port, path: `/api/v1/namespaces/default/endpoints?labelSelector=cycle%3D${cycle}`, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`list: ${res.statusCode} ${body}`))));
    });
    req.on('error', reject);
    req.end();
  });
  const list = JSON.parse(text) as { items: Array<{ metadata: { name: string } }> };
  return new Set(list.items.map((i) => i.metadata.name));
}

for (const backend of backends) {
  const skip = backend === 'etcd3' ? etcdUnavailable() : undefined;
  describe(`graceful shutdown under load on ${backend}`, { skip: skip ?? false }, () => {
    it(`${CYCLES} SIGTERMs under ${CLIENTS} creating clients: stored == acknowledged, watches end cleanly`, { timeout: 600_000 }, async () => {
      let cp = await ControlPlane.start({ backend });
      const cycles: Cycle[] = [];
      try {
        for (let cycle = 0; cycle < CYCLES; cycle++) {
          const creds = cp.credentials;
          const watches = await Promise.all(Array.from({ length: WATCHES }, () => watch(creds)));
          const result: Cycle = { acknowledged: new Set(), refused: new Map(), unanswered: new Map() };
          cycles.push(result);
          let acks = 0;
          let sigterm: () => void = () => undefined;
          const enoughAcks = new Promise<void>((resolve) => (sigterm = resolve));
          const load = Promise.all(Array.from({ length: CLIENTS }, (_, id) => client(creds, id, cycle, result, () => ++acks >= ACKS_BEFORE_SIGTERM && sigterm())));
          await Promise.race([enoughAcks, load]);
          const stopping = cp;
          const status = await cp.terminate();
          await load;
          assert.deepEqual(status, { code: 0, signal: null }, `cycle ${cycle}: exit status\n${cp.log().slice(-3000)}`);
          const watchEnds = await Promise.all(watches.map((w) => w.ended));
          for (const [i, end] of watchEnds.entries()) {
            assert.deepEqual(end, { status: 200, complete: true, error: undefined }, `cycle ${cycle}: watch ${i} did not end with the chunk terminator`);
          }

          // Already exited: restart only starts the next process on the same data dir and etcd prefix.
          cp = await cp.restart();
          const listAgent = agentFor(cp.credentials);
          const stored = await storedNames(cp, listAgent, cycle).catch((err: Error) => assert.fail(`cycle ${cycle}: ${err.message}\n--- server log ---\n${cp.log().slice(-3000)}`));
          listAgent.destroy();
          const lost = [...stored].filter((n) => !result.acknowledged.has(n)).map((n) => `${n} (${result.unanswered.get(n) ?? `refused ${result.refused.get(n)}`})`);
          const missing = [...result.acknowledged].filter((n) => !stored.has(n));
          assert.deepEqual(missing, [], `cycle ${cycle}: acknowledged but not stored`);
          assert.deepEqual(lost, [], `cycle ${cycle}: stored but the client got no 201 (the answer to a committed create was lost)\n--- server log ---\n${stopping.log().slice(-3000)}`);
          assert.ok(result.acknowledged.size >= ACKS_BEFORE_SIGTERM, `cycle ${cycle}: only ${result.acknowledged.size} creates acknowledged`);
        }
      } finally {
        await cp.stop();
      }
      const unanswered = cycles.reduce((n, c) => n + c.unanswered.size, 0);
      const refused = cycles.reduce((n, c) => n + c.refused.size, 0);
      const acknowledged = cycles.reduce((n, c) => n + c.acknowledged.size, 0);
      console.log(
        `# ${backend}: ${CYCLES} SIGTERMs, ${acknowledged} creates acknowledged and stored, ${refused} refused with a status, ${unanswered} never read by the server (connection refused or reset before the request was read)`,
      );
    });
  });
}
