// Runs the real kubectl against a control plane started by the harness: `--kubeconfig
// <data-dir>/admin.kubeconfig` and a private `--cache-dir`. On this machine `kubectl` is the
// gcloud dispatcher, which picks `kubectl.<minor>` from the server's /version; the versioned
// binaries beside it run one minor directly (version-skew cases).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ControlPlane } from './harness.js';

export interface KubectlResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface KubectlOptions {
  stdin?: string;
  /** A minor of 1.x (27…33) to run that binary directly instead of the dispatcher. */
  minor?: number;
  timeoutMs?: number;
}

function which(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  const p = r.stdout.trim();
  return r.status === 0 && p !== '' ? p : undefined;
}

const dispatcher = which('kubectl');

/** Path of the kubectl binary for `minor` (the dispatcher when undefined); undefined if absent. */
export function kubectlBinary(minor?: number): string | undefined {
  if (!dispatcher) return undefined;
  if (minor === undefined) return dispatcher;
  const p = join(dirname(realpathSync(dispatcher)), `kubectl.1.${minor}`);
  return existsSync(p) ? p : undefined;
}

/** Why kubectl cases cannot run here, or undefined when they can. */
export function kubectlUnavailable(minor?: number): string | undefined {
  if (kubectlBinary(minor)) return undefined;
  return minor === undefined ? 'kubectl is not installed on this machine (kubectl cases skipped)' : `kubectl.1.${minor} is not installed beside kubectl (skipped)`;
}

/** A kubectl bound to one server, with its own discovery/HTTP cache dir. */
export class Kubectl {
  readonly cacheDir = mkdtempSync(join(tmpdir(), 'kubectl-cache-'));

  constructor(private readonly cp: () => ControlPlane) {}

  private argv(args: readonly string[], minor: number | undefined): { bin: string; argv: string[] } {
    const bin = kubectlBinary(minor);
    if (!bin) throw new Error(kubectlUnavailable(minor));
    return { bin, argv: ['--kubeconfig', this.cp().kubeconfigPath, '--cache-dir', join(this.cacheDir, String(minor ?? 'default')), ...args] };
  }

  private env(): NodeJS.ProcessEnv {
    // No user kubeconfig, no colours, a stable width for tables.
    const { KUBECONFIG: _kc, ...rest } = process.env;
    return { ...rest, HOME: this.cacheDir, NO_COLOR: '1', COLUMNS: '200' };
  }

  /** Runs kubectl to completion (killed after timeoutMs, default 60 s). */
  async run(args: readonly string[], o: KubectlOptions = {}): Promise<KubectlResult> {
    const { bin, argv } = this.argv(args, o.minor);
    const child = spawn(bin, argv, { env: this.env(), stdio: ['pipe', 'pipe', 'pipe'] });
    const out = collect(child);
    child.stdin?.end(o.stdin ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 60_000);
    try {
      const code = await new Promise<number | null>((r) => child.once('close', (c) => r(c)));
      return { code, stdout: out.stdout(), stderr: out.stderr() };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Starts a long-running kubectl (e.g. `get -w`, `wait`); stop() kills only this process. */
  start(args: readonly string[], o: KubectlOptions = {}): KubectlProcess {
    const { bin, argv } = this.argv(args, o.minor);
    const child = spawn(bin, argv, { env: this.env(), stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin?.end(o.stdin ?? '');
    return new KubectlProcess(child, o.timeoutMs ?? 120_000);
  }

  /**
   * Creates a namespace from a JSON manifest (`create -f -`). `kubectl create namespace NAME`
   * goes through client-go's typed client, which sends protobuf; kubectl.test.ts checks that
   * path on its own so that it does not hide every other case.
   */
  async createNamespace(name: string): Promise<KubectlResult> {
    return this.run(['create', '-f', '-'], { stdin: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }) });
  }

  dispose(): void {
    rmSync(this.cacheDir, { recursive: true, force: true });
  }
}

function collect(child: ChildProcess): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return { stdout: () => stdout, stderr: () => stderr };
}

export class KubectlProcess {
  private readonly out: { stdout: () => string; stderr: () => string };
  private readonly closed: Promise<number | null>;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly child: ChildProcess,
    timeoutMs: number,
  ) {
    this.out = collect(child);
    this.closed = new Promise((r) => child.once('close', (c) => r(c)));
    this.timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  }

  get stdout(): string {
    return this.out.stdout();
  }

  get stderr(): string {
    return this.out.stderr();
  }

  /** Non-empty stdout lines with runs of spaces collapsed to one. */
  lines(): string[] {
    return squashLines(this.stdout);
  }

  /** Resolves once some stdout line matches; rejects after timeoutMs with the output so far. */
  async waitForLine(re: RegExp, timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = this.lines().find((l) => re.test(l));
      if (hit !== undefined) return hit;
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`no line matching ${re} (exit ${this.child.exitCode})\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Waits for the process to exit by itself. */
  async wait(): Promise<KubectlResult> {
    const code = await this.closed;
    clearTimeout(this.timer);
    return { code, stdout: this.stdout, stderr: this.stderr };
  }

  /** Ends the process (SIGTERM) and waits for it. */
  async stop(): Promise<KubectlResult> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    return this.wait();
  }
}

/** Splits output into non-empty lines with runs of whitespace collapsed (table columns). */
export function squashLines(s: string): string[] {
  return s
    .split('\n')
    .map((l) => l.trim().replace(/\s+/g, ' '))
    .filter((l) => l !== '');
}
