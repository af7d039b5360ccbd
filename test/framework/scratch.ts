// A project outside the repository, driven as its developer would drive it: commands run with the
// project as working directory and an environment without this repository's settings (no
// `--conditions=source`, which would make the installed package run from its .ts sources).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of a developer's shell: this process's, minus the test runner's NODE_OPTIONS. */
export function projectEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, NODE_OPTIONS: '', KUBECONFIG: '', ...extra };
}

export interface RunOptions {
  /** Generous by default: installs compile better-sqlite3. */
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  readonly input?: string;
}

/** Runs a command to its end. */
export function run(cwd: string, command: string, args: readonly string[], o: RunOptions = {}): RunResult {
  const r = spawnSync(command, args, {
    cwd,
    env: projectEnv(o.env),
    encoding: 'utf8',
    timeout: o.timeoutMs ?? 20 * 60_000,
    maxBuffer: 64 * 1024 * 1024,
    ...(o.input === undefined ? {} : { input: o.input }),
  });
  if (r.error !== undefined) throw new Error(`${command} ${args.join(' ')}: ${r.error.message}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** run(), asserting exit 0; the failure names the command and carries its output. */
export function runOK(cwd: string, command: string, args: readonly string[], o: RunOptions = {}): string {
  const r = run(cwd, command, args, o);
  assert.equal(r.code, 0, `${command} ${args.join(' ')} exited ${r.code}\nstdout:\n${r.stdout.slice(-6000)}\nstderr:\n${r.stderr.slice(-6000)}`);
  return r.stdout;
}

/** A long-running command of the project (its server, its controller), with its output kept. */
export class ProjectProcess {
  private out = '';
  readonly exited: Promise<number | null>;

  private constructor(readonly proc: ChildProcess) {
    proc.stdout?.on('data', (d: Buffer) => {
      this.out += d.toString();
    });
    proc.stderr?.on('data', (d: Buffer) => {
      this.out += d.toString();
    });
    this.exited = new Promise((r) => proc.once('exit', (code) => r(code)));
  }

  /**
   * Runs an npm script of the project as the one process its command line names (`node …`), not
   * under npm and a shell, so that stopping it stops exactly what was started.
   */
  static script(cwd: string, name: string, args: readonly string[]): ProjectProcess {
    const scripts = (JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
    const line = scripts[name];
    assert.ok(line !== undefined && /^node [^|&;<>$`'"]*$/.test(line), `script ${name} is not a plain node command: ${line}`);
    const [, ...nodeArgs] = line.split(' ').filter((w) => w !== '');
    return new ProjectProcess(spawn(process.execPath, [...nodeArgs, ...args], { cwd, env: projectEnv(), stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  output(): string {
    return this.out;
  }

  /** SIGTERM to this process only (by its pid), then SIGKILL if it has not exited within 30 s. */
  async stop(): Promise<number | null> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return this.exited;
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 30_000);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The project's files, node_modules and the server's data directory aside. */
export function projectFiles(root: string, skip: ReadonlySet<string>): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const path = join(dir, e.name);
      if (skip.has(relative(root, path))) return [];
      return e.isDirectory() ? walk(path) : [path];
    });
  return walk(root);
}

/**
 * What in a project's file reaches outside the project: `forbidden` (this repository's path) anywhere,
 * and relative paths (import specifiers, `file:` dependencies) that resolve above the project.
 */
export function outsideReferences(root: string, file: string, forbidden: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  if (text.includes(forbidden)) found.push(`${relative(root, file)}: mentions ${forbidden}`);
  for (const m of text.matchAll(/(?:from\s*|import\s*\(\s*|require\s*\(\s*|"file:)['"]?((?:\.\.?\/)+[^'"\s)]*)/g)) {
    const target = resolve(file, '..', m[1]!);
    const rel = relative(root, target);
    if (rel.startsWith('..') || isAbsolute(rel)) found.push(`${relative(root, file)}: ${m[1]} is outside the project`);
  }
  return found;
}
