import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where a project keeps codegen's cache: the usual place of tools' caches, ignored with node_modules. */
export const CACHE_DIR = 'node_modules/.cache/kube-ts-codegen';

/** How many entries each section keeps (least recently used go first). */
const KEEP: Readonly<Record<CacheSection, number>> = { crd: 256, types: 128, runs: 16 };

export type CacheSection = 'crd' | 'types' | 'runs';

/**
 * Content-addressed results of codegen's slow steps (reading CRD YAML,
 * printing CRD types, a whole run's outputs). Every key hashes the inputs
 * together with the generator's own source and its parser dependencies'
 * versions, so an entry is only ever reused for the same inputs and the same
 * generator: a hit gives exactly the bytes a fresh run would.
 * Writes go through a rename, so concurrent runs never read half an entry.
 */
export class CodegenCache {
  private constructor(
    private readonly dir: string | undefined,
    private readonly generator: string,
  ) {}

  /** The cache of a project root; `enabled: false` computes everything (keys are still consistent). */
  static open(root: string, enabled = true): CodegenCache {
    return new CodegenCache(enabled ? join(root, CACHE_DIR) : undefined, generatorKey());
  }

  key(...parts: readonly (string | Uint8Array)[]): string {
    const h = createHash('sha256').update(this.generator);
    for (const p of parts) h.update('\0').update(p);
    return h.digest('hex');
  }

  read(section: CacheSection, key: string): string | undefined {
    if (this.dir === undefined) return undefined;
    const path = join(this.dir, section, key);
    try {
      const text = readFileSync(path, 'utf8');
      const now = new Date();
      utimesSync(path, now, now);
      return text;
    } catch {
      return undefined;
    }
  }

  write(section: CacheSection, key: string, text: string): void {
    if (this.dir === undefined) return;
    const dir = join(this.dir, section);
    try {
      mkdirSync(dir, { recursive: true });
      const tmp = join(dir, `.${key}.${process.pid}.tmp`);
      writeFileSync(tmp, text);
      renameSync(tmp, join(dir, key));
      prune(dir, KEEP[section]);
    } catch {
      // A cache that cannot be written (read-only tree) only costs time.
    }
  }
}

function prune(dir: string, keep: number): void {
  const entries = readdirSync(dir).filter((n) => !n.startsWith('.'));
  if (entries.length <= keep) return;
  const dated = entries.map((n) => ({ n, t: statSync(join(dir, n)).mtimeMs })).sort((a, b) => b.t - a.t);
  for (const { n } of dated.slice(keep)) rmSync(join(dir, n), { force: true });
}

let memo: string | undefined;

/**
 * The generator's identity: every source file of generator/ and the versions
 * of the packages that parse its inputs. Changing any of them changes every
 * key, so a cache never outlives the code that filled it.
 */
export function generatorKey(): string {
  if (memo !== undefined) return memo;
  const dir = dirname(dirname(fileURLToPath(import.meta.url)));
  const h = createHash('sha256');
  for (const file of sourceFiles(dir)) {
    h.update(relative(dir, file).split(sep).join('/')).update('\0').update(readFileSync(file)).update('\0');
  }
  const require = createRequire(import.meta.url);
  for (const pkg of ['yaml', 'ts-morph', 'typescript']) {
    try {
      h.update(`${pkg}@${(require(`${pkg}/package.json`) as { version: string }).version}\0`);
    } catch {
      h.update(`${pkg}@?\0`);
    }
  }
  memo = h.digest('hex');
  return memo;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(path);
      return /\.(ts|js|mjs)$/.test(e.name) ? [path] : [];
    });
}
