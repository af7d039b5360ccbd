import { type SourceFileStructure, StructureKind } from 'ts-morph';
import { lowerFirst, upperFirst } from '../model/names.js';
import type { ApiModel, GroupModel, KindModel, VersionModel } from '../model/types.js';
import { exportConst, RawCode } from '../print/typescript.js';
import type { OutputFile } from './output.js';
import { versionDefinitions } from './openapi.js';
import { paths } from './paths.js';
import { protobufConstName } from './protobuf.js';
import { Imports } from './ts.js';
import { ZeroValues } from './zero-value.js';

/**
 * REST storage definitions: one module per group from apis/ declaring, as
 * data, what a server mounts (resources, scope, verbs, schemas,
 * subresources, columns) and importing the hand-written conversion,
 * defaulting and strategy code from apis/, and the group's declaration
 * (apis/<group>/group.ts: admission plugins, REST overrides, its server).
 */
export function emitRegistries(model: ApiModel): OutputFile[] {
  const zeros = new ZeroValues(model);
  return model.groups
    .filter((g) => g.origin === 'source' && g.versions.some((v) => v.kinds.length > 0))
    .map((g): OutputFile => ({ path: paths.registry(g), format: 'ts', structure: registryFile(model, g, zeros) }));
}

/** The Go type names of the fields of the version's OpenAPI document that are named types, when it has any. */
function goTypesOf(model: ApiModel, version: VersionModel): { goTypes?: Record<string, unknown> } {
  const goTypes: Record<string, unknown> = {};
  for (const name of versionDefinitions(model, version)) {
    const fields = model.goTypes?.[name];
    if (fields !== undefined) goTypes[name] = fields;
  }
  return Object.keys(goTypes).length === 0 ? {} : { goTypes };
}

export function registryConstName(group: GroupModel): string {
  return `${group.clientName}Group`;
}

function registryFile(model: ApiModel, group: GroupModel, zeros: ZeroValues): SourceFileStructure {
  const file = paths.registry(group);
  const imports = new Imports(file);
  imports.add(paths.runtimeRegistry, 'APIGroupDefinition', { typeOnly: true });
  const versions = group.versions
    .filter((v) => v.kinds.length > 0)
    .map((v) => ({
      name: v.name,
      ...(v.deprecation === undefined ? {} : { deprecation: { warning: v.deprecation.warning ?? defaultWarning(group, v) } }),
      openapi: new RawCode(imports.addJSON(paths.openapi(group, v), `${lowerFirst(group.clientName)}${upperFirst(v.name)}OpenAPI`)),
      ...goTypesOf(model, v),
      resources: v.kinds.map((k) => resource(group, v, k, imports, zeros)),
      ...(v.protobuf.length === 0 ? {} : { protobuf: new RawCode(imports.add(paths.protobuf(group, v), protobufConstName(group, v))) }),
    }));
  const hub = group.versions.find((v) => v.hub)!;
  const storage = group.versions.find((v) => v.storage)!;
  const declaration =
    group.declaration === undefined ? {} : { declaration: new RawCode(imports.add(group.declaration.module, group.declaration.name, { as: `${lowerFirst(group.clientName)}Declaration` })) };
  return {
    kind: StructureKind.SourceFile,
    statements: [
      ...imports.structures(),
      exportConst({
        name: registryConstName(group),
        doc: `REST storage definition of the ${group.name === '' ? 'core' : group.name} API group.`,
        value: { name: group.name, hubVersion: hub.name, storageVersion: storage.name, versions, ...declaration },
        satisfies: 'APIGroupDefinition',
      }),
    ],
  };
}

function resource(group: GroupModel, version: VersionModel, kind: KindModel, imports: Imports, zeros: ZeroValues): Record<string, unknown> {
  const local = (suffix: string): string => `${lowerFirst(kind.kind)}${upperFirst(version.name)}${suffix}`;
  const schema = imports.addJSON(paths.schema(group, version, kind), local('Schema'));
  const hook = (ref: KindModel['hooks']['conversion'], suffix: string): RawCode | undefined => (ref === undefined ? undefined : new RawCode(imports.add(ref.module, ref.name, { as: local(suffix) })));
  return {
    kind: kind.kind,
    listKind: kind.listKind,
    plural: kind.plural,
    singular: kind.singular,
    shortNames: kind.shortNames,
    categories: kind.categories,
    namespaced: kind.scope === 'Namespaced',
    verbs: kind.verbs,
    subresources: {
      status: kind.subresources.status,
      scale: kind.subresources.scale,
    },
    printerColumns: kind.printerColumns,
    selectableFields: kind.selectableFields,
    schema: new RawCode(schema),
    zeroValue: zeros.of(kind),
    openapiDefinition: kind.definition,
    conversion: version.hub ? undefined : hook(kind.hooks.conversion, 'Conversion'),
    defaults: hook(kind.hooks.defaults, 'Defaults'),
    strategy: hook(kind.hooks.strategy, 'Strategy'),
  };
}

/** The warning Kubernetes sends for a deprecated CRD version without its own text. */
function defaultWarning(group: GroupModel, version: VersionModel): string {
  return `${group.name === '' ? '' : `${group.name}/`}${version.name} is deprecated`;
}
