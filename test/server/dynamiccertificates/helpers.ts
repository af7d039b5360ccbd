// Files replaced as tools replace them, and waits bounded generously for a busy machine.
import { renameSync, writeFileSync } from 'node:fs';
import type { Logger } from '../../../runtime/endpoints/filters/log.js';

let n = 0;

/** Writes a temporary file next to `path` and renames it over `path` (kubectl, editors, Secret volumes). */
export function replaceFile(path: string, content: string): void {
  const tmp = `${path}.tmp-${process.pid}-${n++}`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

/** Polls `check` until it holds; fails after `timeoutMs` naming `what`. */
export async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A logger that keeps what it is given. */
export function recordingLogger(): Logger & { readonly errors: string[]; readonly infos: string[] } {
  const errors: string[] = [];
  const infos: string[] = [];
  return { errors, infos, error: (m) => errors.push(m), info: (m) => infos.push(m) };
}
