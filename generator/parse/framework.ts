import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DiagnosticSink } from '../model/diagnostics.js';
import { type PackageInfo, readPackage } from './packages.js';

/**
 * The framework's type packages a project's apis/ may use (ObjectMeta, ListMeta, Condition, the
 * scalars…), imported as `kube-ts-apiserver/apis/meta/v1`. In a project they are read from the
 * installed package (its .ts sources, which it ships): they give definitions to the schemas, and
 * no group of their own is generated.
 */
const TYPE_PACKAGES = ['apis/meta/v1'];

let cachedRoot: string | undefined;

/** The directory of the framework's package.json (real path): this generator's own package. */
export function frameworkRoot(): string {
  if (cachedRoot !== undefined) return cachedRoot;
  // The generator runs from its sources (generator/parse/) or compiled (dist/generator/parse/).
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    // The package's manifest, not dist/package.json (name and version only, for the compiled code).
    if (existsSync(manifest) && isFrameworkManifest(JSON.parse(readFileSync(manifest, 'utf8')))) break;
    const up = dirname(dir);
    if (up === dir) throw new Error(`the kube-ts-apiserver package.json is not above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  cachedRoot = realpathSync(dir);
  return cachedRoot;
}

function isFrameworkManifest(m: unknown): boolean {
  return typeof m === 'object' && m !== null && (m as { name?: unknown }).name === 'kube-ts-apiserver' && 'exports' in m;
}

/** Whether a file belongs to one of the framework's type packages. */
export function isFrameworkTypeFile(file: string): boolean {
  return TYPE_PACKAGES.some((p) => file.startsWith(`${join(frameworkRoot(), p)}${sep}`));
}

/**
 * The framework's type packages a project does not hold itself (the framework's own apis/, or a
 * copy of it, holds them already). `rel` makes their directories project-relative, as the model's are.
 */
export function frameworkPackages(root: string, rel: (file: string) => string, sink: DiagnosticSink): PackageInfo[] {
  return TYPE_PACKAGES.filter((p) => !existsSync(join(root, p, 'doc.ts'))).flatMap((p) => {
    const dir = join(frameworkRoot(), p);
    return readPackage(rel(dir), readFileSync(join(dir, 'doc.ts'), 'utf8'), sink) ?? [];
  });
}
