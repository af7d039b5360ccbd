import { posix } from 'node:path';
import type { GroupModel, KindModel, VersionModel } from '../model/types.js';

/**
 * Where each artefact lives under generated/ (paths relative to the project
 * root), in one place so emitters that import each other agree.
 */
export const GENERATED = 'generated';

export const paths = {
  schema: (g: GroupModel, v: VersionModel, k: KindModel) => `${GENERATED}/schemas/${g.clientName}/${v.name}/${k.kind.toLowerCase()}.json`,
  openapi: (g: GroupModel, v: VersionModel) => `${GENERATED}/openapi/${g.clientName}/${v.name}.json`,
  crd: (g: GroupModel, k: KindModel) => `${GENERATED}/crds/${g.name}_${k.plural}.yaml`,
  registry: (g: GroupModel) => `${GENERATED}/registry/${g.clientName}.ts`,
  client: (g: GroupModel, v: VersionModel, k: KindModel) => `${GENERATED}/clientset/${g.clientName}/${v.name}/${k.kind.toLowerCase()}.ts`,
  groupClient: (g: GroupModel, v: VersionModel) => `${GENERATED}/clientset/${g.clientName}/${v.name}/index.ts`,
  clientset: () => `${GENERATED}/clientset/index.ts`,
  lister: (g: GroupModel, v: VersionModel, k: KindModel) => `${GENERATED}/listers/${g.clientName}/${v.name}/${k.kind.toLowerCase()}.ts`,
  informer: (g: GroupModel, v: VersionModel, k: KindModel) => `${GENERATED}/informers/${g.clientName}/${v.name}/${k.kind.toLowerCase()}.ts`,
  informerFactory: () => `${GENERATED}/informers/factory.ts`,
  types: (g: GroupModel, v: VersionModel) => `${GENERATED}/types/${g.clientName}/${v.name}.ts`,
  index: () => `${GENERATED}/index.ts`,
  protobuf: (g: GroupModel, v: VersionModel) => `${GENERATED}/protobuf/${g.clientName}/${v.name}.ts`,
  protobufIndex: () => `${GENERATED}/protobuf/index.ts`,
  runtimeClient: 'runtime/client/index',
  runtimeRegistry: 'runtime/registry/types',
  runtimeProtobuf: 'runtime/apimachinery/serializer/protobuf/descriptor',
  metaTypes: 'apis/meta/v1/types',
} as const;

/** Relative ESM import specifier from one project file to a module (project-relative, no extension). */
export function importFrom(fromFile: string, module: string, extension = '.js'): string {
  let rel = posix.relative(posix.dirname(fromFile), module);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return rel.endsWith('.json') ? rel : `${rel.replace(/\.ts$/, '')}${extension}`;
}
