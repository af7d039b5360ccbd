import { type SourceFileStructure, StructureKind } from 'ts-morph';
import { lowerFirst, upperFirst } from '../model/names.js';
import type { ApiModel, GroupModel, KindModel, VersionModel } from '../model/types.js';
import { exportConst, RawCode } from '../print/typescript.js';
import type { OutputFile } from './output.js';
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
  const groups = model.groups.filter((g) => g.origin === 'source' && g.versions.some((v) => v.kinds.length > 0));
  const goTypes = groups.length > 0 && Object.keys(model.goTypes ?? {}).length > 0 ? model.goTypes : undefined;
  return [
    ...(goTypes === undefined ? [] : [{ path: paths.goTypeNames(), format: 'ts' as const, structure: goTypeNamesFile(goTypes) }]),
    ...groups.map((g): OutputFile => ({ path: paths.registry(g), format: 'ts', structure: registryFile(g, zeros, goTypes !== undefined) })),
  ];
}

/** The name of the one table of Go type names, which every version of every registry refers to. */
const GO_TYPE_NAMES = 'goTypeNames';

/**
 * The Go type names of every definition's fields that are named types, by definition name: one
 * table, since the meta types every version's document holds would otherwise repeat in each. A
 * version's typed decoding only looks up the definitions of its own document.
 */
function goTypeNamesFile(goTypes: NonNullable<ApiModel['goTypes']>): SourceFileStructure {
  const imports = new Imports(paths.goTypeNames());
  imports.add(paths.runtimeRegistry, 'GoTypeNames', { typeOnly: true });
  return {
    kind: StructureKind.SourceFile,
    statements: [
      ...imports.structures(),
      exportConst({
        name: GO_TYPE_NAMES,
        doc: 'How Go names the fields of named types (`v1.ServiceType` where a schema says string), by definition and field.',
        value: goTypes,
        satisfies: 'GoTypeNames',
      }),
    ],
  };
}

export function registryConstName(group: GroupModel): string {
  return `${group.clientName}Group`;
}

function registryFile(group: GroupModel, zeros: ZeroValues, withGoTypes: boolean): SourceFileStructure {
  const file = paths.registry(group);
  const imports = new Imports(file);
  const goTypes = withGoTypes ? { goTypes: new RawCode(imports.add(paths.goTypeNames(), GO_TYPE_NAMES)) } : {};
  imports.add(paths.runtimeRegistry, 'APIGroupDefinition', { typeOnly: true });
  const versions = group.versions
    .filter((v) => v.kinds.length > 0)
    .map((v) => ({
      name: v.name,
      ...(v.deprecation === undefined ? {} : { deprecation: { warning: v.deprecation.warning ?? defaultWarning(group, v) } }),
      openapi: new RawCode(imports.addJSON(paths.openapi(group, v), `${lowerFirst(group.clientName)}${upperFirst(v.name)}OpenAPI`)),
      ...goTypes,
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
