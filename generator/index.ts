// `kube-ts-apiserver/codegen`: the code generator as a library (what `hack/update-codegen` and
// `kube-ts-apiserver codegen` run), for a project's own scripts and tests.
export { generate, importAndGenerate, runCodegen } from './codegen.js';
export type { CodegenOptions, CodegenResult } from './codegen.js';
export { CodegenError } from './model/diagnostics.js';
export type { ApiModel } from './model/types.js';
