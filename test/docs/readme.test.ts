// README.md's quick tour and example controller, run exactly as written (test/docs/readme-blocks.ts
// says how blocks are marked): in a copy of the repository as it is on disk, one shell session
// per section whose environment carries over from block to block as in a terminal, `npm start`
// played by the control plane command run as npm start runs it (hack/start.mjs) on npm start's
// data dir (.kube-ts) but a free port, and the ts blocks type-checked. A block that drifts from
// what the repository does fails here, with its README line.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ControlPlane, repoRoot } from '../integration/harness.js';
import { blocks, printsInOrder, section, type Block } from './readme-blocks.js';

const README = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const BLOCK_TIMEOUT_MS = 5 * 60_000;

/** The repository as it is on disk (tracked and untracked files, not ignored ones) in a temp dir, node_modules linked. */
function copyRepository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'readme-repo-'));
  const ls = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(ls.status, 0, ls.stderr);
  // A node_modules that is itself a symlink (a clone sharing another's) is not ignored by
  // .gitignore's `node_modules/`, which matches directories only: it is linked below instead.
  for (const file of new Set(ls.stdout.split('\0').filter((f) => f !== '' && f !== 'node_modules'))) {
    const from = join(repoRoot, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(from, join(dir, file));
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

interface Ran {
  readonly code: number | null;
  readonly output: string;
}

/**
 * One terminal session: each block runs in its own bash, which starts from the environment the
 * previous block left (`export -p`), so an `export` in one block holds in the next. The session
 * starts without KUBECONFIG, NODE_OPTIONS (the test runner's --conditions) or the user's home.
 */
class Session {
  private readonly state: string;
  private readonly env: NodeJS.ProcessEnv;
  private readonly background: { readonly line: number; readonly proc: ChildProcess; output: string }[] = [];

  constructor(
    readonly root: string,
    scratch: string,
  ) {
    this.state = join(scratch, 'session.env');
    writeFileSync(this.state, '');
    const home = join(scratch, 'home');
    mkdirSync(home);
    const { KUBECONFIG: _k, NODE_OPTIONS: _n, ...env } = process.env;
    this.env = { ...env, HOME: home };
  }

  private spawnBlock(code: string): ChildProcess {
    const script = `set -eo pipefail\n. '${this.state}'\ntrap "export -p > '${this.state}'" EXIT\n${code}`;
    return spawn('bash', ['-c', script], { cwd: this.root, env: this.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  }

  /** Runs a block to completion (its process group is killed after BLOCK_TIMEOUT_MS). */
  async run(code: string): Promise<Ran> {
    const proc = this.spawnBlock(code);
    let output = '';
    proc.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => signalGroup(proc, 'SIGKILL'), BLOCK_TIMEOUT_MS);
    const [exitCode] = (await once(proc, 'close')) as [number | null];
    clearTimeout(timer);
    return { code: exitCode, output };
  }

  /** Starts a block that keeps running (a controller in its own terminal). */
  start(line: number, code: string): void {
    const proc = this.spawnBlock(code);
    const entry = { line, proc, output: '' };
    proc.stdout?.on('data', (d: Buffer) => (entry.output += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => (entry.output += d.toString()));
    this.background.push(entry);
  }

  /** Fails when a background block has exited: it was meant to keep running. */
  checkBackground(): void {
    for (const b of this.background) {
      if (b.proc.exitCode !== null || b.proc.signalCode !== null) {
        assert.fail(`README.md:${b.line}: the background block exited (${b.proc.exitCode ?? b.proc.signalCode}):\n${b.output.slice(-4000)}`);
      }
    }
  }

  /** SIGTERM to every background block's process group, SIGKILL after 30 s. */
  async stop(): Promise<void> {
    for (const b of this.background) {
      if (b.proc.exitCode !== null || b.proc.signalCode !== null) continue;
      const closed = once(b.proc, 'close');
      signalGroup(b.proc, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(b.proc, 'SIGKILL'), 30_000);
      await closed;
      clearTimeout(timer);
    }
  }
}

/** Signals the process group of a block this test started (its bash and what it runs). */
function signalGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  if (proc.pid === undefined) return;
  try {
    process.kill(-proc.pid, signal);
  } catch {
    // already gone
  }
}

/** The commands of a block without comments and blank lines. */
function commands(code: string): string {
  return code
    .split('\n')
    .map((l) =>
      l
        .replace(/\s+#.*$/, '')
        .replace(/^#.*$/, '')
        .trim(),
    )
    .filter((l) => l !== '')
    .join('\n');
}

describe('README.md', () => {
  let root: string;
  let scratch: string;
  let server: ControlPlane | undefined;
  const sessions: Session[] = [];

  before(() => {
    root = copyRepository();
    scratch = mkdtempSync(join(tmpdir(), 'readme-session-'));
  });
  after(async () => {
    for (const s of sessions) await s.stop();
    await server?.stop();
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  });

  /** Runs the blocks of one section in a new session; returns the files its ts blocks wrote. */
  async function runSection(title: string): Promise<string[]> {
    const { text, line } = section(README, title);
    const list: Block[] = blocks(text, line);
    assert.ok(list.length > 0, `"## ${title}" has no code blocks`);
    const session = new Session(root, mkdtempSync(join(scratch, 'session-')));
    sessions.push(session);
    const files: string[] = [];
    let last: { readonly line: number; readonly ran: Ran } | undefined;
    for (const b of list) {
      switch (b.kind) {
        case 'file': {
          const path = normalize(b.path);
          assert.ok(!isAbsolute(path) && !path.startsWith('..'), `README.md:${b.line}: ${b.path} is not inside the repository`);
          mkdirSync(dirname(join(root, path)), { recursive: true });
          writeFileSync(join(root, path), b.code);
          files.push(path);
          break;
        }
        case 'server': {
          assert.equal(commands(b.code), 'npm start', `README.md:${b.line}: the server block is \`npm start\``);
          server ??= await ControlPlane.start({ backend: 'sqlite', bundled: true, root, dataDir: join(root, '.kube-ts'), readyTimeoutMs: BLOCK_TIMEOUT_MS });
          break;
        }
        case 'background':
          session.start(b.line, b.code);
          break;
        case 'sh': {
          const ran = await session.run(b.code);
          assert.equal(ran.code, 0, `README.md:${b.line}: the block failed (exit ${ran.code}):\n${b.code}\n--- output ---\n${ran.output.slice(-6000)}`);
          session.checkBackground();
          last = { line: b.line, ran };
          break;
        }
        case 'output':
          assert.ok(last !== undefined, `README.md:${b.line}: an output block follows no sh block`);
          assert.ok(
            printsInOrder(last.ran.output, b.code),
            `README.md:${b.line}: the block at line ${last.line} does not print these lines:\n${b.code}--- it printed ---\n${last.ran.output.slice(-6000)}`,
          );
          break;
      }
    }
    await session.stop();
    return files;
  }

  test('the quick tour runs as written, and its TypeScript type-checks', { timeout: 30 * 60_000 }, async () => {
    const files = await runSection('A quick tour');
    assert.ok(files.length > 0, 'the tour writes files');
    // The project's compiler options over the tour's files (and everything they import).
    writeFileSync(join(root, 'tsconfig.readme.json'), JSON.stringify({ extends: './tsconfig.json', include: [], files }));
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.readme.json', '--noEmit'], {
      cwd: root,
      encoding: 'utf8',
      timeout: BLOCK_TIMEOUT_MS,
    });
    assert.equal(tsc.status, 0, `the tour's ts blocks (${files.join(', ')}) do not type-check:\n${tsc.stdout}${tsc.stderr}`);
  });

  test('the example controller runs as written', { timeout: 30 * 60_000 }, async () => {
    await runSection('Example controller');
  });

  test('users and roles: a certificate user, a role and binding, can-i --as, a service account token', { timeout: 30 * 60_000 }, async () => {
    await runSection('Users and roles');
  });
});
