import type { CodegenCache } from '../crd-import/cache.js';
import type { PrintedFile } from '../print/index.js';
import { loadDocuments } from './documents.js';
import { emitKubernetes, emitKubernetesFake } from './emit.js';
import { importKubernetes } from './model.js';

export { DOCUMENTS_DIR, documentsDir, KUBERNETES_VERSION, loadDocuments, VENDORED_DOCUMENTS } from './documents.js';
export type { LoadedDocument, VendoredDocument } from './documents.js';
export { CLIENTSET_CLASS, emitKubernetes, emitKubernetesFake, INFORMER_FACTORY_CLASS, KUBERNETES_OUTPUT } from './emit.js';
export { importKubernetes } from './model.js';
export type { KubernetesImport } from './model.js';
export { OpenAPIImportError } from './problems.js';
export type { ImportProblem } from './problems.js';

/**
 * The clients of Kubernetes' own groups and their fake clientset from the vendored documents: what
 * codegen adds to the generated tree (under KUBERNETES_OUTPUT) on every run.
 * Throws OpenAPIImportError naming the document and JSON pointer of anything
 * it cannot represent as kube publishes it. With a cache, the files are
 * generated once per generator (whose key covers the documents' digests in
 * documents.ts): about 6 s saved on every later run.
 */
export function generateKubernetesClients(options: { readonly cache?: CodegenCache } = {}): PrintedFile[] {
  const key = options.cache?.key('kubernetes-clients');
  const hit = key === undefined ? undefined : options.cache!.read('types', key);
  if (hit !== undefined) return JSON.parse(hit) as PrintedFile[];
  const imported = importKubernetes(loadDocuments());
  const files = [...emitKubernetes(imported), ...emitKubernetesFake(imported)].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (key !== undefined) options.cache!.write('types', key, JSON.stringify(files));
  return files;
}
