import { copyFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CRD_DIR, emitCRDTypes, readCRDDir, readCRDGroups } from './crd-import/index.js';
import { emitAll } from './emit/index.js';
import { GENERATED } from './emit/paths.js';
import { DiagnosticSink } from './model/diagnostics.js';
import type { ApiModel } from './model/types.js';
import { parseApis } from './parse/index.js';
import { printFile, type PrintedFile } from './print/index.js';
import { syncTree, type WriteResult } from './write.js';

export interface CodegenOptions {
  /** Project root: apis/ is read from here, generated paths are relative to it. */
  readonly root: string;
  /** Where the generated tree is written; default `<root>/generated`. */
  readonly outDir?: string;
}

export interface CodegenResult {
  readonly model: ApiModel;
  readonly files: readonly PrintedFile[];
  readonly write: WriteResult;
}

/**
 * parse → model → emit → print: the whole generated tree as text, the same
 * bytes for the same inputs. The model holds the groups of apis/ and of the
 * CRD manifests kept in apis/crds/.
 */
export async function generate(root: string): Promise<{ model: ApiModel; files: PrintedFile[] }> {
  const source = parseApis({ root });
  const sink = new DiagnosticSink();
  const imported = readCRDGroups(readCRDDir(root), sink);
  for (const g of imported) {
    if (source.groups.some((s) => s.name === g.name)) sink.error(undefined, `imported CRD group ${g.name} is also defined in apis/`);
  }
  sink.throwIfAny();
  const model: ApiModel = {
    definitions: source.definitions,
    groups: [...source.groups, ...imported].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
  const outputs = [...emitAll(model), ...(await emitCRDTypes(model.groups))]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { model, files: outputs.map(printFile) };
}

/** Generates and writes, removing stale generated files. */
export async function runCodegen(options: CodegenOptions): Promise<CodegenResult> {
  const { model, files } = await generate(options.root);
  const write = syncTree(options.outDir ?? join(options.root, GENERATED), GENERATED, files);
  return { model, files, write };
}

/**
 * `--crd FILE…`: keeps the manifests in apis/crds/ (so every later run, and
 * verify-codegen, regenerates their clients) and regenerates.
 */
export async function importAndGenerate(root: string, crdFiles: readonly string[]): Promise<CodegenResult> {
  const sink = new DiagnosticSink();
  const { readFileSync } = await import('node:fs');
  readCRDGroups(crdFiles.map((f) => ({ path: f, text: readFileSync(f, 'utf8') })), sink);
  sink.throwIfAny();
  mkdirSync(join(root, CRD_DIR), { recursive: true });
  for (const file of crdFiles) copyFileSync(file, join(root, CRD_DIR, basename(file)));
  return runCodegen({ root });
}
