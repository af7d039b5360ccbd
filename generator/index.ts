// `kube-ts-apiserver/codegen`: the code generator as a library (what `hack/update-codegen` and
// `kube-ts-apiserver codegen` run), for a project's own scripts and tests.
export { generate, importAndGenerate, runCodegen } from './codegen.js';
export type { CodegenOptions, CodegenResult, CodegenSummary } from './codegen.js';
export { CodegenError } from './model/diagnostics.js';
export type { ApiModel } from './model/types.js';
// The scaffold (`kube-ts-apiserver init` / `create api`) as functions: plan the files, then write them.
export { planInit } from './scaffold/init.js';
export type { InitOptions } from './scaffold/init.js';
export { planCreateAPI } from './scaffold/create-api.js';
export type { APIPlan, ScaffoldEdit } from './scaffold/create-api.js';
export { kindNames, ScaffoldError } from './scaffold/names.js';
export type { KindNames } from './scaffold/names.js';
export type { ScaffoldFile } from './scaffold/templates/api.js';
export { writeScaffold } from './scaffold/write.js';
