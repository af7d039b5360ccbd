// Starts and stops the control plane command (`runtime/controlplane/serve.ts`) as a subprocess,
// exactly as a user runs it, on a temp data dir and a free port (`--secure-port 0`), on SQLite
// or on a private etcd with a unique prefix. Only processes started here are ever signalled.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe } from 'node:test';
import { parse } from 'yaml';
import { startEtcd, type EtcdCluster } from '../storage/etcdServer.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const serveScript = join(repoRoot, 'runtime/controlplane/serve.ts');

export type Backend = 'sqlite' | 'etcd3';
export const backends: readonly Backend[] = ['sqlite', 'etcd3'];

/** Admin credentials and trust read back from `<data-dir>/admin.kubeconfig`. */
export interface Credentials {
  server: string;
  caPEM: string;
  certPEM?: string;
  keyPEM?: string;
  token?: string;
  username?: string;
  password?: string;
}

export interface StartOptions {
  backend: Backend;
  /** Reuse a data dir (restart); a fresh temp dir otherwise. */
  dataDir?: string;
  /** Reuse an etcd (restart); a private one otherwise. */
  etcd?: EtcdCluster;
  etcdPrefix?: string;
  /** Extra flags, e.g. ['--max-requests-inflight', '1']. */
  extraArgs?: readonly string[];
  /** How long to wait for the ready line. */
  readyTimeoutMs?: number;
  /** Run the command as `npm start` does (hack/start.mjs: the esbuild bundle and its worker entries) instead of from source through tsx. */
  bundled?: boolean;
  /** The checkout whose command runs (a scratch copy of the repository with groups of its own); this repository by default. */
  root?: string;
}

/** Every control plane this test process started; killed on exit even if a test fails. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of running) p.kill('SIGKILL');
});

/** Why etcd cases cannot run here, or undefined when an etcd binary is (or can be) installed. */
export function etcdUnavailable(): string | undefined {
  if (spawnSync('sh', ['-c', 'command -v etcd'], { stdio: 'ignore' }).status === 0) return undefined;
  const r = spawnSync(join(repoRoot, 'hack/install-etcd'), { stdio: 'ignore' });
  if (r.status === 0) return undefined;
  return 'etcd is not installed and hack/install-etcd could not install it (etcd3 backend cases skipped)';
}

/** One running control plane subprocess. */
export class ControlPlane {
  readonly credentials: Credentials;
  readonly url: string;
  readonly port: number;
  private output = '';
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exitedP: Promise<void>;

  private constructor(
    readonly opts: Required<Pick<StartOptions, 'backend'>> & StartOptions,
    readonly dataDir: string,
    private ownsDataDir: boolean,
    readonly etcd: EtcdCluster | undefined,
    private ownsEtcd: boolean,
    readonly etcdPrefix: string | undefined,
    private readonly proc: ChildProcess,
    readonly readyMs: number,
    output: string,
  ) {
    this.output = output;
    proc.stdout?.on('data', (d: Buffer) => this.append(d));
    proc.stderr?.on('data', (d: Buffer) => this.append(d));
    this.exitedP = new Promise((r) =>
      proc.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        running.delete(proc);
        r();
      }),
    );
    if (proc.exitCode !== null || proc.signalCode !== null) this.exitInfo = { code: proc.exitCode, signal: proc.signalCode };
    this.credentials = readCredentials(this.kubeconfigPath);
    this.url = this.credentials.server;
    this.port = Number(new URL(this.url).port);
  }

  get kubeconfigPath(): string {
    return join(this.dataDir, 'admin.kubeconfig');
  }

  get pid(): number {
    return this.proc.pid ?? -1;
  }

  get backend(): Backend {
    return this.opts.backend;
  }

  /** stdout+stderr of the server so far (last 64 KiB), for failure messages. */
  log(): string {
    return this.output;
  }

  /** The exit status if the process has exited (a live server returns undefined). */
  exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exitInfo;
  }

  private append(d: Buffer): void {
    this.output = (this.output + d.toString()).slice(-65536);
  }

  static async start(o: StartOptions): Promise<ControlPlane> {
    const ownsDataDir = o.dataDir === undefined;
    const dataDir = o.dataDir ?? mkdtempSync(join(tmpdir(), 'controlplane-it-'));
    let etcd = o.etcd;
    const ownsEtcd = o.backend === 'etcd3' && etcd === undefined;
    const cleanup = async (): Promise<void> => {
      if (ownsEtcd) await etcd?.close();
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    };
    try {
      if (ownsEtcd) etcd = await startEtcd();
      const etcdPrefix = o.backend === 'etcd3' ? (o.etcdPrefix ?? `/registry-${randomBytes(6).toString('hex')}`) : undefined;
      const root = o.root ?? repoRoot;
      const serve = o.root === undefined ? serveScript : join(root, 'runtime/controlplane/serve.ts');
      const args = [
        ...(o.bundled === true ? [join(root, 'hack/start.mjs')] : ['--conditions=source', '--import', 'tsx', serve]),
        '--secure-port',
        '0',
        '--bind-address',
        '127.0.0.1',
        '--data-dir',
        dataDir,
      ];
      if (o.backend === 'etcd3' && etcd && etcdPrefix) {
        args.push('--storage-backend', 'etcd3', '--etcd-servers', etcd.endpoints.join(','), '--etcd-prefix', etcdPrefix);
      } else {
        args.push('--storage-backend', 'sqlite');
      }
      args.push(...(o.extraArgs ?? []));
      const proc = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
      running.add(proc);
      let readyMs: number;
      let output: string;
      try {
        ({ readyMs, output } = await waitReady(proc, o.readyTimeoutMs ?? 60_000));
      } catch (e) {
        proc.kill('SIGKILL');
        running.delete(proc);
        throw e;
      }
      return new ControlPlane({ ...o }, dataDir, ownsDataDir, etcd, ownsEtcd, etcdPrefix, proc, readyMs, output);
    } catch (e) {
      await cleanup();
      throw e;
    }
  }

  /** SIGTERM, wait for exit (SIGKILL after 20 s); returns the exit status. Keeps data and etcd. */
  async terminate(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (!this.exitInfo) {
      this.proc.kill('SIGTERM');
      const t = setTimeout(() => this.proc.kill('SIGKILL'), 20_000);
      await this.exitedP;
      clearTimeout(t);
    }
    return this.exitInfo ?? { code: null, signal: null };
  }

  /** Stops the server and removes what this harness created (data dir, private etcd). */
  async stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const status = await this.terminate();
    if (this.ownsEtcd) await this.etcd?.close();
    if (this.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true });
    return status;
  }

  /** Stops this process and starts a new one on the same data dir and storage. */
  async restart(): Promise<ControlPlane> {
    await this.terminate();
    const next = await ControlPlane.start({ ...this.opts, dataDir: this.dataDir, etcd: this.etcd, etcdPrefix: this.etcdPrefix });
    // The new process inherits ownership so that one stop() cleans up everything.
    next.ownsDataDir = this.ownsDataDir;
    next.ownsEtcd = this.ownsEtcd;
    this.ownsDataDir = false;
    this.ownsEtcd = false;
    return next;
  }
}

/** Waits for `serving on https://…` and then `ready in N ms` on stdout. */
async function waitReady(proc: ChildProcess, timeoutMs: number): Promise<{ readyMs: number; output: string }> {
  return new Promise((resolveReady, reject) => {
    let out = '';
    let serving = false;
    const fail = (why: string): void => {
      cleanupListeners();
      reject(new Error(`control plane did not become ready: ${why}\n--- server output ---\n${out.slice(-8000)}`));
    };
    const onData = (d: Buffer): void => {
      out += d.toString();
      if (/serving on https:\/\/\S+:\d+/.test(out)) serving = true;
      const m = /ready in (\d+) ms/.exec(out);
      if (m && serving) {
        cleanupListeners();
        resolveReady({ readyMs: Number(m[1]), output: out });
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => fail(`exited with code ${code} signal ${signal}`);
    const timer = setTimeout(() => fail(`no ready line within ${timeoutMs} ms`), timeoutMs);
    const cleanupListeners = (): void => {
      clearTimeout(timer);
      proc.stdout?.off('data', onData);
      proc.stderr?.off('data', onErr);
      proc.off('exit', onExit);
    };
    const onErr = (d: Buffer): void => {
      out += d.toString();
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', onErr);
    proc.once('exit', onExit);
  });
}

interface KubeconfigFile {
  clusters?: Array<{ cluster?: Record<string, unknown> }>;
  users?: Array<{ user?: Record<string, unknown> }>;
}

/** Reads the first cluster and user of a kubeconfig (the server writes exactly one of each). */
export function readCredentials(path: string): Credentials {
  const kc = parse(readFileSync(path, 'utf8')) as KubeconfigFile;
  const cluster = kc.clusters?.[0]?.cluster ?? {};
  const user = kc.users?.[0]?.user ?? {};
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const b64 = (v: unknown): string | undefined => {
    const s = str(v);
    return s === undefined ? undefined : Buffer.from(s, 'base64').toString('utf8');
  };
  const server = str(cluster['server']);
  const caPEM = b64(cluster['certificate-authority-data']) ?? (str(cluster['certificate-authority']) ? readFileSync(str(cluster['certificate-authority']) as string, 'utf8') : undefined);
  if (!server || !caPEM) throw new Error(`${path}: no server URL or CA data`);
  const creds: Credentials = { server, caPEM };
  const cert = b64(user['client-certificate-data']);
  const key = b64(user['client-key-data']);
  if (cert && key) Object.assign(creds, { certPEM: cert, keyPEM: key });
  const token = str(user['token']);
  if (token) creds.token = token;
  const username = str(user['username']);
  const password = str(user['password']);
  if (username && password) Object.assign(creds, { username, password });
  return creds;
}

/**
 * Declares `describe(<name> on <backend>)` for each backend with a control plane started
 * before its tests and stopped after them (also when a test fails). `get()` returns the
 * running server. etcd cases are skipped with a message only when etcd cannot be installed.
 */
export function describeBackends(name: string, body: (get: () => ControlPlane, backend: Backend) => void, opts: { only?: readonly Backend[]; extraArgs?: readonly string[] } = {}): void {
  for (const backend of opts.only ?? backends) {
    const skip = backend === 'etcd3' ? etcdUnavailable() : undefined;
    describe(`${name} on ${backend}`, { skip: skip ?? false }, () => {
      let cp: ControlPlane | undefined;
      before(async () => {
        cp = await ControlPlane.start({ backend, extraArgs: opts.extraArgs ?? [] });
      });
      after(async () => {
        await cp?.stop();
      });
      body(() => {
        if (!cp) throw new Error('control plane not started');
        return cp;
      }, backend);
    });
  }
}
