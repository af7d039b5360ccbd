// Starts and stops the standalone aggregated API server command (`runtime/aggregated/serve.ts`,
// `npm run serve-aggregated`) as a subprocess, as a user runs it next to the control plane: a
// temp data dir (its CA, certificate, SQLite store and audit log), a free port, the control
// plane's front-proxy CA and kubeconfig. Only processes started here are ever signalled.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { AuditEvent } from '../../runtime/endpoints/filters/audit.js';
import { repoRoot, type ControlPlane, type Credentials } from '../integration/harness.js';

const serveScript = join(repoRoot, 'runtime/aggregated/serve.ts');

export interface AggregatedStartOptions {
  /** The control plane whose front proxy it trusts and whose namespaces it checks. */
  controlPlane: ControlPlane;
  /** Reuse a data dir (restart); a fresh temp dir otherwise. */
  dataDir?: string;
  /** Default 0 (a free port); a restart passes the port it had, which the Endpoints name. */
  port?: number;
  extraArgs?: readonly string[];
  readyTimeoutMs?: number;
  /** Pass the control plane's front-proxy CA as --requestheader-client-ca-file (default true); false: the server reads it from the control plane's ConfigMap. */
  requestHeaderCAFlag?: boolean;
}

/** Every server this test process started; killed on exit even if a test fails. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of running) p.kill('SIGKILL');
});

/** One running standalone aggregated server. */
export class AggregatedServerProcess {
  readonly url: string;
  readonly port: number;
  private output: string;
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exitedP: Promise<void>;

  private constructor(
    readonly opts: AggregatedStartOptions,
    readonly dataDir: string,
    private ownsDataDir: boolean,
    private readonly proc: ChildProcess,
    output: string,
    url: string,
  ) {
    this.output = output;
    this.url = url;
    this.port = Number(new URL(url).port);
    const append = (d: Buffer): void => {
      this.output = (this.output + d.toString()).slice(-65536);
    };
    proc.stdout?.on('data', append);
    proc.stderr?.on('data', append);
    this.exitedP = new Promise((r) =>
      proc.once('exit', (code, signal) => {
        this.exitInfo = { code, signal };
        running.delete(proc);
        r();
      }),
    );
    if (proc.exitCode !== null || proc.signalCode !== null) this.exitInfo = { code: proc.exitCode, signal: proc.signalCode };
  }

  static async start(o: AggregatedStartOptions): Promise<AggregatedServerProcess> {
    const ownsDataDir = o.dataDir === undefined;
    const dataDir = o.dataDir ?? mkdtempSync(join(tmpdir(), 'aggregated-it-'));
    const cp = o.controlPlane;
    const args = [
      '--conditions=source',
      '--import',
      'tsx',
      serveScript,
      '--secure-port',
      String(o.port ?? 0),
      '--bind-address',
      '127.0.0.1',
      '--data-dir',
      dataDir,
      ...(o.requestHeaderCAFlag === false ? [] : ['--requestheader-client-ca-file', join(cp.dataDir, 'pki', 'front-proxy-ca.crt')]),
      '--kubeconfig',
      cp.kubeconfigPath,
      '--audit-log-path',
      join(dataDir, 'audit.log'),
      ...(o.extraArgs ?? []),
    ];
    const proc = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    running.add(proc);
    try {
      const { url, output } = await waitReady(proc, o.readyTimeoutMs ?? 60_000);
      return new AggregatedServerProcess(o, dataDir, ownsDataDir, proc, output, url);
    } catch (e) {
      proc.kill('SIGKILL');
      running.delete(proc);
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
      throw e;
    }
  }

  /** The CA that signed its serving certificate: the APIService's caBundle. */
  get caPEM(): string {
    return readFileSync(join(this.dataDir, 'pki', 'ca.crt'), 'utf8');
  }

  get pid(): number {
    return this.proc.pid ?? -1;
  }

  /** stdout+stderr so far (last 64 KiB), for failure messages. */
  log(): string {
    return this.output;
  }

  exited(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exitInfo;
  }

  /**
   * Credentials to talk to it directly: its CA, and a client certificate (default none). The
   * control plane's front-proxy client certificate makes the caller a front proxy, as the
   * aggregator is.
   */
  credentials(client?: { certPEM: string; keyPEM: string }): Credentials {
    return { server: this.url, caPEM: this.caPEM, ...(client ?? {}) };
  }

  /** The audit events it has written (its --audit-log-path), in order. */
  auditEvents(): AuditEvent[] {
    const path = join(this.dataDir, 'audit.log');
    if (!existsSync(path)) return [];
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as AuditEvent);
  }

  /** The keys its own SQLite store holds under `prefix`; only once it has exited (a running server locks its file exclusively). */
  storedKeys(prefix: string): string[] {
    return sqliteKeys(join(this.dataDir, 'aggregated.db'), prefix);
  }

  /** SIGKILL: the backend dies without draining (a crash), and waits for the exit. */
  async kill(): Promise<void> {
    if (!this.exitInfo) {
      this.proc.kill('SIGKILL');
      await this.exitedP;
    }
  }

  /** SIGTERM, wait for exit (SIGKILL after 20 s); keeps the data dir. */
  async terminate(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (!this.exitInfo) {
      this.proc.kill('SIGTERM');
      const t = setTimeout(() => this.proc.kill('SIGKILL'), 20_000);
      await this.exitedP;
      clearTimeout(t);
    }
    return this.exitInfo ?? { code: null, signal: null };
  }

  /** A new process on the same data dir (same CA, certificate and store) and the same port. */
  async restart(): Promise<AggregatedServerProcess> {
    await this.terminate();
    const next = await AggregatedServerProcess.start({ ...this.opts, dataDir: this.dataDir, port: this.port });
    next.ownsDataDir = this.ownsDataDir;
    this.ownsDataDir = false;
    return next;
  }

  /** Stops the server and removes its data dir if this harness made it. */
  async stop(): Promise<void> {
    await this.terminate();
    if (this.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** The keys of a SQLite store (runtime/storage/sqlite) under `prefix`, read-only; its server must have exited. */
export function sqliteKeys(path: string, prefix: string): string[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT key FROM current WHERE substr(key, 1, ?) = ? ORDER BY key').all(prefix.length, prefix) as { key: string }[];
    return rows.map((r) => r.key);
  } finally {
    db.close();
  }
}

/** Waits for `serving … on https://…` and then `ready in N ms` on stdout. */
async function waitReady(proc: ChildProcess, timeoutMs: number): Promise<{ url: string; output: string }> {
  return new Promise((resolveReady, reject) => {
    let out = '';
    const fail = (why: string): void => {
      done();
      reject(new Error(`aggregated server did not become ready: ${why}\n--- server output ---\n${out.slice(-8000)}`));
    };
    const onData = (d: Buffer): void => {
      out += d.toString();
      const serving = /serving .* on (https:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (serving?.[1] !== undefined && /ready in \d+ ms/.test(out)) {
        done();
        resolveReady({ url: serving[1], output: out });
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => fail(`exited with code ${code} signal ${signal}`);
    const timer = setTimeout(() => fail(`no ready line within ${timeoutMs} ms`), timeoutMs);
    const done = (): void => {
      clearTimeout(timer);
      proc.stdout?.off('data', onData);
      proc.stderr?.off('data', onData);
      proc.off('exit', onExit);
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', onData);
    proc.once('exit', onExit);
  });
}
