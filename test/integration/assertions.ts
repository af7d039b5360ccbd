import assert from 'node:assert/strict';
import type { ControlPlane } from './harness.js';
import type { KubectlResult } from './kubectl.js';

/** Asserts kubectl succeeded; the failure message carries kubectl's output and the server's log tail. */
export function ok(r: KubectlResult, cp?: ControlPlane): string {
  if (r.code !== 0) {
    assert.fail(`kubectl exited ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}${cp ? `\n--- server log tail ---\n${cp.log().slice(-3000)}` : ''}`);
  }
  return r.stdout.trim();
}

/** Asserts kubectl failed (exit 1) and printed exactly `line` on stderr, as it does for kube-apiserver. */
export function fails(r: KubectlResult, line: string | RegExp): void {
  const err = r.stderr.trim();
  assert.equal(r.code, 1, `expected exit 1, got ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  if (typeof line === 'string') assert.equal(err, line);
  else assert.match(err, line);
}

/** Polls `fn` until it returns true (bounded); for admission informers and other eventual state. */
export async function eventually(what: string, fn: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Polls `fn` until it returns a value (bounded and generous: only the outcome is asserted, never
 * how long it took); errors thrown meanwhile count as "not yet" and the last one is reported.
 */
export async function until<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}${last !== undefined ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
