import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { PrintedFile } from '../../generator/print/index.js';
import { ROOT } from './harness.js';

/**
 * A temp project holding generated files (the clients of Kubernetes' groups under
 * generated/kubernetes/) and programs using them, nothing else: the framework is reached as a
 * package, by its name (`kube-ts-apiserver/client`), through symlinks to runtime/ and apis/, as
 * in a user's project. Nothing is written into the repository's generated/.
 */
export interface ClientProject {
  readonly root: string;
  write(path: string, text: string): void;
  /** tsc --noEmit over generated/kubernetes/ and app/ (and what they import). */
  typecheck(): { ok: boolean; output: string };
  dispose(): void;
}

export function clientProject(files: readonly PrintedFile[]): ClientProject {
  const root = mkdtempSync(join(tmpdir(), 'openapi-import-'));
  for (const dir of ['runtime', 'apis', 'node_modules']) symlinkSync(join(ROOT, dir), join(root, dir));
  // The runtime reaches a few generated files of the repository's own groups by relative paths.
  mkdirSync(join(root, 'generated'));
  for (const entry of readdirSync(join(ROOT, 'generated')).filter((e) => e !== 'kubernetes')) symlinkSync(join(ROOT, 'generated', entry), join(root, 'generated', entry));
  const { name, exports } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: unknown };
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name, type: 'module', private: true, exports }));
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({ extends: join(ROOT, 'tsconfig.json'), compilerOptions: { types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] }, include: ['generated/kubernetes', 'app'] }),
  );
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (const f of files) write(f.path, f.text);
  return {
    root,
    write,
    typecheck() {
      try {
        const output = execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json'), '--noEmit'], {
          cwd: root,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        return { ok: true, output };
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string };
        return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
      }
    },
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}
