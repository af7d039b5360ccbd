// The stop signals of a server command (runtime/controlplane/command.ts), as kube's signal
// handler behaves: a SIGTERM that comes while the server is still starting stops it as soon as
// it serves (drained, exit 0) instead of killing the process half-started; a second signal
// exits 1 at once; a --workers worker, which has nothing to drain while it starts, still ends by
// the signal itself.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const child = fileURLToPath(new URL('./command-signals.child.ts', import.meta.url));

interface Started {
  proc: ChildProcess;
  output: () => string;
  /** Once the process has exited and its output is all read (close, not exit). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The child, once it says it is starting (its start waits for a line on stdin). */
async function startChild(env: Record<string, string> = {}): Promise<Started> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('close', (code, signal) => resolve({ code, signal })));
  const starting = new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer): void => {
      out += d.toString();
      if (out.includes('signals-child: starting')) resolve();
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    void exited.then((s) => reject(new Error(`the child exited before starting: ${JSON.stringify(s)}\n${out}`)));
  });
  await starting;
  return { proc, output: () => out, exited };
}

async function waitFor(s: Started, text: string): Promise<void> {
  while (!s.output().includes(text)) {
    if (s.proc.exitCode !== null || s.proc.signalCode !== null) throw new Error(`the child exited without printing ${JSON.stringify(text)}:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('a SIGTERM while the server starts stops it once it serves: drained, exit 0', async () => {
  const s = await startChild();
  s.proc.kill('SIGTERM');
  await waitFor(s, 'SIGTERM received');
  s.proc.stdin?.end('go\n');
  assert.deepEqual(await s.exited, { code: 0, signal: null }, s.output());
  const out = s.output();
  assert.ok(out.indexOf('signals-child: ready') < out.indexOf('signals-child: stopped'), out);
});

test('a second signal while the server starts exits 1 at once', async () => {
  const s = await startChild();
  s.proc.kill('SIGTERM');
  await waitFor(s, 'SIGTERM received');
  s.proc.kill('SIGINT');
  assert.deepEqual(await s.exited, { code: 1, signal: null }, s.output());
  assert.ok(!s.output().includes('stopped'), s.output());
});

test('a SIGTERM after the ready line drains and exits 0', async () => {
  const s = await startChild();
  s.proc.stdin?.end('go\n');
  await waitFor(s, 'signals-child: ready');
  s.proc.kill('SIGTERM');
  assert.deepEqual(await s.exited, { code: 0, signal: null }, s.output());
  assert.ok(s.output().includes('signals-child: stopped'));
});

test('a --workers worker still starting ends by the SIGTERM itself (nothing to drain yet)', async () => {
  const s = await startChild({ WORKER: '1' });
  s.proc.kill('SIGTERM');
  assert.deepEqual(await s.exited, { code: null, signal: 'SIGTERM' }, s.output());
});
