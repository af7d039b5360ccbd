import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Etcd3 } from 'etcd3';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Makes sure an `etcd` binary is on PATH, installing Debian's etcd-server via hack/install-etcd. */
export function ensureEtcdInstalled(): void {
  if (spawnSync('sh', ['-c', 'command -v etcd'], { stdio: 'ignore' }).status === 0) return;
  const r = spawnSync(join(repoRoot, 'hack/install-etcd'), { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('hack/install-etcd failed');
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => res(port));
    });
  });
}

export interface EtcdMemberSpec {
  name: string;
  clientPort: number;
  peerPort: number;
  dataDir: string;
}

/** All etcd processes started by this test process, killed on exit even if a test fails. */
const started = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of started) p.kill('SIGKILL');
});

/**
 * One etcd member this test process started (loopback, free ports, temp data dir). Only this
 * process is ever signalled: stop(), kill(), pause() and restart() act on its own pid.
 */
export class EtcdMember {
  private proc: ChildProcess | undefined;
  readonly endpoint: string;

  constructor(
    readonly spec: EtcdMemberSpec,
    private readonly initialCluster: string,
    /** More etcd flags (e.g. `--max-request-bytes=…` to provoke a server error). */
    private readonly extraArgs: readonly string[] = [],
  ) {
    this.endpoint = `http://127.0.0.1:${spec.clientPort}`;
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** True once the process this member started has exited (not merely stopped by SIGSTOP). */
  exited(): boolean {
    const p = this.proc;
    return p !== undefined && (p.exitCode !== null || p.signalCode !== null);
  }

  lastStderr(): string {
    return (this.proc as (ChildProcess & { lastStderr?: () => string }) | undefined)?.lastStderr?.() ?? '';
  }

  start(state: 'new' | 'existing' = 'new'): void {
    const { name, clientPort, peerPort, dataDir } = this.spec;
    const args = [
      `--name=${name}`,
      `--data-dir=${dataDir}`,
      `--listen-client-urls=http://127.0.0.1:${clientPort}`,
      `--advertise-client-urls=http://127.0.0.1:${clientPort}`,
      `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-cluster=${this.initialCluster}`,
      `--initial-cluster-state=${state}`,
      '--initial-cluster-token=storage-tests',
      '--experimental-watch-progress-notify-interval=1s',
      '--logger=zap',
      '--log-level=error',
      '--heartbeat-interval=50',
      '--election-timeout=500',
      ...this.extraArgs,
    ];
    const proc = spawn('etcd', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    proc.once('exit', () => started.delete(proc));
    (proc as ChildProcess & { lastStderr: () => string }).lastStderr = () => stderr;
    started.add(proc);
    this.proc = proc;
  }

  /** SIGTERM and wait for exit. */
  async stop(): Promise<void> {
    await this.signalAndWait('SIGTERM');
  }

  /** kill -9 and wait for exit. */
  async kill(): Promise<void> {
    await this.signalAndWait('SIGKILL');
  }

  pause(): void {
    this.proc?.kill('SIGSTOP');
  }

  /**
   * Starts this member again on its data dir (after stop() or kill()): etcd rejoins the cluster
   * from its write-ahead log; --initial-cluster-state is ignored once the data dir exists.
   */
  restart(): void {
    if (this.proc !== undefined && !this.exited()) throw new Error(`etcd member ${this.spec.name} is still running`);
    this.start('existing');
  }

  /** This member's raft id (hex, as etcd prints it) and the id of the leader it follows, read from its own endpoint. */
  async status(timeoutMs = 2000): Promise<{ memberId: string; leaderId: string }> {
    const c = new Etcd3({ hosts: this.endpoint });
    try {
      const s = await c.maintenance.status({ deadline: Date.now() + timeoutMs });
      return { memberId: BigInt(s.header.member_id).toString(16), leaderId: BigInt(s.leader).toString(16) };
    } finally {
      c.close();
    }
  }

  resume(): void {
    this.proc?.kill('SIGCONT');
  }

  private async signalAndWait(sig: NodeJS.Signals): Promise<void> {
    const p = this.proc;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise<void>((r) => p.once('exit', () => r()));
    p.kill('SIGCONT');
    p.kill(sig);
    const t = setTimeout(() => p.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(t);
    this.proc = undefined;
  }
}

/** A running etcd cluster (1 or 3 members) for tests; `close()` kills it and removes its data. */
export class EtcdCluster {
  constructor(
    readonly members: EtcdMember[],
    private readonly baseDir: string,
  ) {}

  get endpoints(): string[] {
    return this.members.map((m) => m.endpoint);
  }

  /**
   * The member every live member names as raft leader, once they agree (a member that does not
   * answer is left out; at least one must). Polls until `timeoutMs`: an election may be running.
   */
  async leader(timeoutMs = 30_000): Promise<EtcdMember> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const live = this.members.filter((m) => m.pid !== undefined && !m.exited());
      const statuses = await Promise.all(
        live.map((m) =>
          m.status().then(
            (s) => ({ m, s }),
            () => undefined,
          ),
        ),
      );
      const answered = statuses.filter((x) => x !== undefined);
      const leaderIds = new Set(answered.map((x) => x.s.leaderId));
      if (answered.length > 0 && leaderIds.size === 1) {
        const [id] = leaderIds;
        const leader = answered.find((x) => x.s.memberId === id)?.m;
        if (leader !== undefined && id !== '0') return leader;
      }
      if (Date.now() > deadline) throw new Error(`no agreed etcd leader within ${timeoutMs} ms: ${JSON.stringify(answered.map((x) => ({ name: x.m.spec.name, ...x.s })))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.members.map((m) => m.kill()));
    rmSync(this.baseDir, { recursive: true, force: true });
  }

  /**
   * Waits until a quorum read succeeds through every given endpoint (default all). Each attempt
   * uses a client of its own, so a circuit breaker opened by early refusals (etcd not listening
   * yet) never outlives the attempt; a waited-for member that exited fails at once, with its
   * stderr.
   */
  async waitHealthy(endpoints = this.endpoints, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const ep of endpoints) {
      for (;;) {
        const dead = this.members.find((m) => m.endpoint === ep && m.exited());
        if (dead !== undefined) throw new MemberExitedError(`etcd member ${dead.spec.name} exited: ${dead.lastStderr().slice(-1000)}`);
        const c = new Etcd3({ hosts: ep });
        try {
          await c
            .get('health')
            .options({ deadline: Date.now() + 1000 })
            .exec();
          break;
        } catch (e) {
          if (Date.now() > deadline) throw new Error(`etcd at ${ep} not healthy: ${(e as Error).message}`, { cause: e });
        } finally {
          c.close();
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }
}

class MemberExitedError extends Error {}

/**
 * Starts an etcd cluster of `size` members on loopback with free ports and a temp data dir. A
 * port found free can be taken by another test process before etcd binds it: a member that
 * exits while starting makes a new attempt on new ports (three at most).
 */
export async function startEtcd(size = 1, extraArgs: readonly string[] = []): Promise<EtcdCluster> {
  ensureEtcdInstalled();
  for (let attempt = 1; ; attempt++) {
    const baseDir = mkdtempSync(join(tmpdir(), 'storage-etcd-'));
    const specs: EtcdMemberSpec[] = [];
    for (let i = 0; i < size; i++) {
      specs.push({ name: `m${i}`, clientPort: await freePort(), peerPort: await freePort(), dataDir: join(baseDir, `m${i}`) });
    }
    const initialCluster = specs.map((s) => `${s.name}=http://127.0.0.1:${s.peerPort}`).join(',');
    const members = specs.map((s) => new EtcdMember(s, initialCluster, extraArgs));
    for (const m of members) m.start();
    const cluster = new EtcdCluster(members, baseDir);
    try {
      await cluster.waitHealthy();
      return cluster;
    } catch (e) {
      await cluster.close();
      if (!(e instanceof MemberExitedError) || attempt >= 3) throw e;
    }
  }
}
