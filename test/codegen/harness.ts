import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A scratch project beside the repository: a copy of apis/ (and generated/)
 * plus symlinks to runtime/, generator/ and node_modules/, so codegen and
 * tsc run on it exactly as on the real tree. `dispose()` removes it.
 */
export interface ScratchProject {
  readonly root: string;
  write(path: string, text: string): void;
  /** Runs hack/update-codegen on the scratch project; returns combined output, throws on failure. */
  codegen(...args: string[]): string;
  verify(): { ok: boolean; output: string };
  typecheck(): { ok: boolean; output: string };
  dispose(): void;
}

export function scratchProject(options: { readonly withApis?: boolean } = {}): ScratchProject {
  const root = mkdtempSync(join(tmpdir(), 'codegen-'));
  if (options.withApis !== false) {
    cpSync(join(ROOT, 'apis'), join(root, 'apis'), { recursive: true });
    cpSync(join(ROOT, 'generated'), join(root, 'generated'), { recursive: true });
  } else {
    mkdirSync(join(root, 'apis'));
    cpSync(join(ROOT, 'apis/meta'), join(root, 'apis/meta'), { recursive: true });
    cpSync(join(ROOT, 'apis/apiextensions'), join(root, 'apis/apiextensions'), { recursive: true });
    cpSync(join(ROOT, 'apis/autoscaling'), join(root, 'apis/autoscaling'), { recursive: true });
  }
  for (const dir of ['runtime', 'generator', 'node_modules', 'hack']) symlinkSync(join(ROOT, dir), join(root, dir));
  // The framework's manifest (name, exports): generated code and apis/wardle import the package by name.
  const { name, exports } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: unknown };
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name, type: 'module', private: true, exports }));
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({
      extends: join(ROOT, 'tsconfig.json'),
      compilerOptions: { types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] },
      include: ['apis', 'generated', 'app'],
    }),
  );
  const run = (cmd: string, args: string[]): { ok: boolean; output: string } => {
    try {
      return { ok: true, output: execFileSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CODEGEN_ROOT: root } }) };
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string };
      return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  };
  return {
    root,
    write(path, text) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    },
    codegen(...args) {
      const r = run(join(ROOT, 'hack/update-codegen'), args);
      if (!r.ok) throw new Error(r.output);
      return r.output;
    },
    verify: () => run(join(ROOT, 'hack/verify-codegen'), []),
    typecheck: () => run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json'), '--noEmit']),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Runs codegen on a scratch project and returns its failure output ('' when it succeeded). */
export function codegenErrors(project: ScratchProject): string {
  try {
    project.codegen();
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}
