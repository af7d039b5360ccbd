import { existsSync, readFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { CodegenCache } from './crd-import/cache.js';
import type { CRDFile } from './crd-import/index.js';
import { GENERATED } from './emit/paths.js';
import type { ApiModel } from './model/types.js';
import type { PrintedFile } from './print/index.js';
import { digestTree, type RunManifest, runManifest, summarize, upToDate, type CodegenSummary } from './run-manifest.js';
import { syncTree, Transaction, type WriteResult } from './write.js';

export type { CodegenSummary } from './run-manifest.js';

export interface CodegenOptions {
  /** Project root: apis/ is read from here, generated paths are relative to it. */
  readonly root: string;
  /** Where the generated tree is written; default `<root>/generated`. */
  readonly outDir?: string;
  /** Reuse results of earlier runs from the cache (node_modules/.cache/kube-ts-codegen); default true. */
  readonly cache?: boolean;
  /** Also generate the clients of Kubernetes' own groups (generator/openapi-import); only the framework's own tree ships them. */
  readonly kubernetesClients?: boolean;
}

export interface CodegenResult {
  readonly summary: CodegenSummary;
  readonly write: WriteResult;
  /** True when nothing was generated: the inputs and the output tree were those of an earlier run. */
  readonly upToDate: boolean;
}

export interface GenerateOptions {
  readonly cache?: CodegenCache;
  /** The CRD manifests to generate from instead of apis/crds/ (an import in progress). */
  readonly crdFiles?: readonly CRDFile[];
  /** Also generate the clients of Kubernetes' own groups under generated/kubernetes/. */
  readonly kubernetesClients?: boolean;
}

/**
 * parse → model → emit → print: the whole generated tree as text, the same
 * bytes for the same inputs. The model holds the groups of apis/ and of the
 * CRD manifests kept in apis/crds/. The heavy modules (the TypeScript
 * compiler behind the parser and the emitters) load here, on first use, so a
 * run that finds its outputs up to date never pays for them.
 */
export async function generate(root: string, options: GenerateOptions = {}): Promise<{ model: ApiModel; files: PrintedFile[] }> {
  const [{ parseApis }, { emitAll }, { printFile }, crds, { DiagnosticSink }, { withGroupDeclarations }] = await Promise.all([
    import('./parse/index.js'),
    import('./emit/index.js'),
    import('./print/index.js'),
    import('./crd-import/index.js'),
    import('./model/diagnostics.js'),
    import('./model/declaration.js'),
  ]);
  const cache = options.cache ?? CodegenCache.open(root);
  const source = parseApis({ root });
  const sink = new DiagnosticSink();
  const sourceGroups = withGroupDeclarations(source.groups, root, sink);
  const imported = crds.readCRDGroups(options.crdFiles ?? crds.readCRDDir(root), sink, cache, source.groups);
  sink.throwIfAny();
  const model: ApiModel = {
    definitions: source.definitions,
    ...(source.goTypes === undefined ? {} : { goTypes: source.goTypes }),
    groups: [...sourceGroups, ...imported].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
  const outputs = [...emitAll(model), ...crds.emitCRDTypes(model.groups, cache)].map(printFile);
  if (options.kubernetesClients === true) outputs.push(...(await import('./openapi-import/index.js')).generateKubernetesClients({ cache }));
  (await import('./emit/schema-meta-check.js')).checkSchemaFiles(outputs);
  return { model, files: outputs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}

/**
 * Generates and writes, removing stale generated files. A run whose inputs
 * (apis/, apis/crds/ and the generator itself, by content) are those of an
 * earlier run, and whose output tree still holds exactly that run's files,
 * is a no-op: nothing is parsed, generated or written.
 */
export async function runCodegen(options: CodegenOptions): Promise<CodegenResult> {
  const cache = CodegenCache.open(options.root, options.cache !== false);
  const outDir = options.outDir ?? join(options.root, GENERATED);
  const apis = join(options.root, 'apis');
  const before = digestTree(apis);
  const runKey = cache.key('run', options.kubernetesClients === true ? `${before}+kubernetes` : before);
  const previous = cache.read('runs', runKey);
  if (previous !== undefined) {
    const manifest = JSON.parse(previous) as RunManifest;
    if (upToDate(outDir, manifest)) {
      return { summary: manifest.summary, write: { written: 0, unchanged: manifest.files.length, removed: 0 }, upToDate: true };
    }
  }
  const { model, files } = await generate(options.root, { cache, kubernetesClients: options.kubernetesClients === true });
  const write = syncTree(outDir, GENERATED, files);
  const summary = summarize(model, files.length);
  // Recorded only when apis/ did not change while it was read, so the entry describes its key.
  if (digestTree(apis) === before) cache.write('runs', runKey, JSON.stringify(runManifest(files, GENERATED, summary)));
  return { summary, write, upToDate: false };
}

/**
 * `--crd FILE…`: keeps the manifests in apis/crds/ (so every later run, and
 * verify-codegen, regenerates their clients) and regenerates. Atomic: the
 * whole tree is generated in memory from apis/ and the manifests as they
 * would be kept, and only when that succeeds are the manifests copied and
 * generated/ written (each file through a rename, undone if a write fails),
 * so a failed import leaves apis/crds/ and generated/ as they were. A
 * manifest with the base name of a kept one replaces it (an upgrade); a
 * manifest without any CRD (a kustomization, a policy) is not kept.
 */
export async function importAndGenerate(
  root: string,
  crdFiles: readonly string[],
  options: { readonly cache?: boolean; readonly kubernetesClients?: boolean } = {},
): Promise<CodegenResult & { readonly kept: readonly string[]; readonly skipped: readonly string[] }> {
  const crds = await import('./crd-import/index.js');
  const cache = CodegenCache.open(root, options.cache !== false);
  const given = crdFiles.map((f): CRDFile => ({ path: displayPath(f), text: readFileSync(f, 'utf8') }));
  const kept = given.filter((g) => crds.holdsCRDs(g.text, cache));
  const skipped = given.filter((g) => !kept.includes(g)).map((g) => g.path);
  const replaced = new Set(kept.map((g) => basename(g.path)));
  const existing = crds.readCRDDir(root).filter((e) => !replaced.has(basename(e.path)));
  const all = [...existing, ...kept].sort((a, b) => (basename(a.path) < basename(b.path) ? -1 : basename(a.path) > basename(b.path) ? 1 : 0));
  const kubernetesClients = options.kubernetesClients === true;
  const { model, files } = await generate(root, { cache, crdFiles: all, kubernetesClients });
  const tx = new Transaction();
  try {
    for (const g of kept) tx.write(join(root, crds.CRD_DIR, basename(g.path)), g.text);
    const write = syncTree(join(root, GENERATED), GENERATED, files, tx);
    tx.commit();
    const summary = summarize(model, files.length);
    // apis/ now holds what was generated from: the next run with nothing changed is a no-op.
    const digest = digestTree(join(root, 'apis'));
    cache.write('runs', cache.key('run', kubernetesClients ? `${digest}+kubernetes` : digest), JSON.stringify(runManifest(files, GENERATED, summary)));
    return { summary, write, upToDate: false, kept: kept.map((g) => `${crds.CRD_DIR}/${basename(g.path)}`), skipped };
  } catch (err) {
    tx.rollback();
    throw err;
  }
}

/** A command-line path as errors show it: relative to the working directory when below it. */
function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') || rel === '' || !existsSync(file) ? file : rel.split(sep).join('/');
}
