import type { PrintedFile } from '../print/index.js';
import { loadDocuments } from './documents.js';
import { emitKubernetes } from './emit.js';
import { importKubernetes } from './model.js';

export { DOCUMENTS_DIR, documentsDir, KUBERNETES_VERSION, loadDocuments, VENDORED_DOCUMENTS } from './documents.js';
export type { LoadedDocument, VendoredDocument } from './documents.js';
export { CLIENTSET_CLASS, emitKubernetes, INFORMER_FACTORY_CLASS, KUBERNETES_OUTPUT } from './emit.js';
export { importKubernetes } from './model.js';
export type { KubernetesImport } from './model.js';
export { OpenAPIImportError } from './problems.js';
export type { ImportProblem } from './problems.js';

/**
 * The clients of Kubernetes' own groups from the vendored documents: what
 * codegen adds to the generated tree (under KUBERNETES_OUTPUT) on every run.
 * Throws OpenAPIImportError naming the document and JSON pointer of anything
 * it cannot represent as kube publishes it.
 */
export function generateKubernetesClients(): PrintedFile[] {
  return emitKubernetes(importKubernetes(loadDocuments()));
}
