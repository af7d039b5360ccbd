import { type SourceFileStructure, StructureKind } from 'ts-morph';
import { apiVersionOf, upperFirst } from '../model/names.js';
import type { ProtoField, ProtoMessage } from '../model/protobuf.js';
import type { ApiModel, GroupModel, VersionModel } from '../model/types.js';
import { exportConst, RawCode } from '../print/typescript.js';
import type { FieldDescriptor, MessageDescriptor, ProtobufPackage } from '../../runtime/apimachinery/serializer/protobuf/descriptor.js';
import type { OutputFile } from './output.js';
import { paths } from './paths.js';
import { Imports } from './ts.js';

/**
 * Protobuf message descriptors: one module per group version whose types
 * carry `@protobuf` field numbers, and generated/protobuf/index.ts listing
 * them all for the runtime's protobuf decoder. Versions without numbered
 * types get no module; the index is always written (possibly empty), since
 * the runtime imports it.
 */
export function emitProtobuf(model: ApiModel): OutputFile[] {
  const packages = model.groups.filter((g) => g.origin === 'source').flatMap((g) => g.versions.filter((v) => v.protobuf.length > 0).map((v) => ({ group: g, version: v })));
  return [
    ...packages.map(({ group, version }): OutputFile => ({ path: paths.protobuf(group, version), format: 'ts', structure: packageFile(group, version) })),
    { path: paths.protobufIndex(), format: 'ts', structure: indexFile(packages) },
  ];
}

export function protobufConstName(group: GroupModel, version: VersionModel): string {
  return `${group.clientName}${upperFirst(version.name)}Protobuf`;
}

/** The descriptor of one version's messages, as the runtime reads it. */
export function protobufPackage(group: GroupModel, version: VersionModel): ProtobufPackage {
  return { apiVersion: apiVersionOf(group.name, version.name), messages: version.protobuf.map(messageDescriptor) };
}

function messageDescriptor(m: ProtoMessage): MessageDescriptor {
  return { name: m.name, ...(m.kind === undefined ? {} : { kind: m.kind }), ...(m.namedList ? { namedList: true } : {}), fields: m.fields.map(fieldDescriptor) };
}

function fieldDescriptor(f: ProtoField): FieldDescriptor {
  const type = f.type.kind === 'scalar' ? f.type.scalar : f.type.kind === 'wellKnown' ? f.type.name : 'message';
  return {
    name: f.name,
    number: f.number,
    type,
    ...(f.type.kind === 'message' ? { message: f.type.name } : {}),
    ...(f.cardinality === 'single' ? {} : { cardinality: f.cardinality }),
    ...(f.pointer ? { pointer: true } : {}),
    ...(f.omitEmpty ? { omitEmpty: true } : {}),
    ...(f.omitZero ? { omitZero: true } : {}),
  };
}

function packageFile(group: GroupModel, version: VersionModel): SourceFileStructure {
  const imports = new Imports(paths.protobuf(group, version));
  imports.add(paths.runtimeProtobuf, 'ProtobufPackage', { typeOnly: true });
  return {
    kind: StructureKind.SourceFile,
    statements: [
      ...imports.structures(),
      exportConst({
        name: protobufConstName(group, version),
        doc: `Protobuf messages of ${apiVersionOf(group.name, version.name)}, from the @protobuf field numbers in ${version.dir ?? 'apis/'}.`,
        value: protobufPackage(group, version),
        satisfies: 'ProtobufPackage',
      }),
    ],
  };
}

function indexFile(packages: readonly { group: GroupModel; version: VersionModel }[]): SourceFileStructure {
  const imports = new Imports(paths.protobufIndex());
  imports.add(paths.runtimeProtobuf, 'ProtobufPackage', { typeOnly: true });
  const names = packages.map(({ group, version }) => imports.add(paths.protobuf(group, version), protobufConstName(group, version)));
  return {
    kind: StructureKind.SourceFile,
    statements: [
      ...imports.structures(),
      exportConst({
        name: 'protobufPackages',
        doc: 'Every group version with protobuf descriptors, for the request-body decoder.',
        type: 'readonly ProtobufPackage[]',
        value: names.map((n) => new RawCode(n)),
      }),
    ],
  };
}
