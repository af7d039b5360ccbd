import { posix } from 'node:path';
import type { GroupModel, KindModel, VersionModel } from '../model/types.js';

/**
 * Where each artefact lives under generated/ (paths relative to the project
 * root), in one place so emitters that import each other agree.
 */
export const GENERATED = 'generated';

/** The framework's package name: what generated code imports its runtime and built-in types from. */
export const PACKAGE = 'kube-ts-apiserver';

/** `kube-ts-apiserver` or one of its subpaths. */
export function isPackageSpecifier(module: string): boolean {
  return module === PACKAGE || module.startsWith(`${PACKAGE}/`);
}

export const paths = {
  schema: (g: GroupModel, v: VersionModel, k: KindModel) => `${GENERATED}/schemas/${g.clientName}/${v.name}/${k.kind.toLowerCase()}.json`,
  openapi: (g: GroupModel, v: VersionModel) => `${GENERATED}/openapi/${g.clientName}/${v.name}.json`,
  crd: (g: GroupModel, k: KindModel) => `${GENERATED}/crds/${g.name}_${k.plural}.yaml`,
  registry: (g: GroupModel) => `${GENERATED}/registry/${g.clientName}.ts`,
  /** One table for every registry (no group's client name has a hyphen). */
  goTypeNames: () => `${GENERATED}/registry/go-type-names.ts`,
  client: (g: GroupModel, v: VersionModel, k: KindModel) => `${GENERATED}/clientset/${g.clientName}/${v.name}/${k.kind.toLowerCase()}.ts`,
  applyConfiguration: (g: GroupModel, v: VersionModel, k: KindModel) => `${GENERATED}/applyconfigurations/${g.clientName}/${v.name}/${k.kind.toLowerCase()}.ts`,
  /** The structural schema extract<Kind> reads, for kinds imported from CRDs (source kinds use their schemas/ file). */
  applyConfigurationSchema: (g: GroupModel, v: VersionModel, k: KindModel) => `${GENERATED}/applyconfigurations/${g.clientName}/${v.name}/${k.kind.toLowerCase()}.schema.json`,
  applyConfigurationTypes: (g: GroupModel, v: VersionModel) => `${GENERATED}/applyconfigurations/${g.clientName}/${v.name}/types.ts`,
  applyConfigurationIndex: (g: GroupModel, v: VersionModel) => `${GENERATED}/applyconfigurations/${g.clientName}/${v.name}/index.ts`,
  groupClient: (g: GroupModel, v: VersionModel) => `${GENERATED}/clientset/${g.clientName}/${v.name}/index.ts`,
  clientset: () => `${GENERATED}/clientset/index.ts`,
  lister: (g: GroupModel, v: VersionModel, k: KindModel) => `${GENERATED}/listers/${g.clientName}/${v.name}/${k.kind.toLowerCase()}.ts`,
  informer: (g: GroupModel, v: VersionModel, k: KindModel) => `${GENERATED}/informers/${g.clientName}/${v.name}/${k.kind.toLowerCase()}.ts`,
  informerFactory: () => `${GENERATED}/informers/factory.ts`,
  types: (g: GroupModel, v: VersionModel) => `${GENERATED}/types/${g.clientName}/${v.name}.ts`,
  index: () => `${GENERATED}/index.ts`,
  protobuf: (g: GroupModel, v: VersionModel) => `${GENERATED}/protobuf/${g.clientName}/${v.name}.ts`,
  protobufIndex: () => `${GENERATED}/protobuf/index.ts`,
  // The framework's public entry points (package.json "exports"): generated code imports the
  // package by name, in this repository (a self-reference) as in a user's project.
  runtimeClient: `${PACKAGE}/client`,
  runtimeFake: `${PACKAGE}/client/fake`,
  runtimeRegistry: `${PACKAGE}/runtime`,
  runtimeProtobuf: `${PACKAGE}/runtime`,
  metaTypes: `${PACKAGE}/apis/meta/v1`,
} as const;

/**
 * ESM import specifier from one project file to a module: a package entry point as it is, a
 * project file (project-relative, no extension) as a relative path.
 */
export function importFrom(fromFile: string, module: string, extension = '.js'): string {
  if (isPackageSpecifier(module)) return module;
  let rel = posix.relative(posix.dirname(fromFile), module);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return rel.endsWith('.json') ? rel : `${rel.replace(/\.ts$/, '')}${extension}`;
}
