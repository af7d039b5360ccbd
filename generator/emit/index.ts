import { type SourceFileStructure, StructureKind, VariableDeclarationKind } from 'ts-morph';
import type { ApiModel } from '../model/types.js';
import { emitApplyConfigurations } from './applyconfigurations.js';
import { emitClientsets } from './clientset.js';
import { emitCRDs } from './crd.js';
import { emitFakeClientset } from './fake.js';
import { emitListersAndInformers } from './informers.js';
import { emitOpenAPI } from './openapi.js';
import type { OutputFile } from './output.js';
import { paths } from './paths.js';
import { emitProtobuf } from './protobuf.js';
import { emitRegistries, registryConstName } from './registry.js';
import { emitSchemas } from './schema.js';
import { Imports } from './ts.js';

/** Every artefact of the model, sorted by path. Pure: same model, same files. */
export function emitAll(model: ApiModel): OutputFile[] {
  const files = [
    ...emitSchemas(model),
    ...emitOpenAPI(model),
    ...emitCRDs(model),
    ...emitRegistries(model),
    ...emitApplyConfigurations(model),
    ...emitClientsets(model),
    ...emitFakeClientset(model),
    ...emitListersAndInformers(model),
    ...emitProtobuf(model),
    { path: paths.index(), format: 'ts', structure: indexFile(model) } satisfies OutputFile,
  ];
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** generated/index.ts: the project's groups, as the servers take them, and the client entry points. */
function indexFile(model: ApiModel): SourceFileStructure {
  const file = paths.index();
  const imports = new Imports(file);
  imports.add(paths.runtimeRegistry, 'APIGroupDefinition', { typeOnly: true });
  const groups = model.groups.filter((g) => g.origin === 'source' && g.versions.some((v) => v.kinds.length > 0));
  for (const g of groups) imports.add(paths.registry(g), registryConstName(g));
  return {
    kind: StructureKind.SourceFile,
    statements: [
      ...imports.structures(),
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: ['Every API group defined in apis/: what this project passes to runControlPlane and runAggregatedServer.'],
        declarations: [
          {
            name: 'apiGroups',
            type: 'readonly APIGroupDefinition[]',
            initializer: `[${groups.map(registryConstName).join(', ')}]`,
          },
        ],
      },
      { kind: StructureKind.ExportDeclaration, moduleSpecifier: './clientset/index.js', namedExports: ['Clientset'] },
      { kind: StructureKind.ExportDeclaration, moduleSpecifier: './informers/factory.js', namedExports: ['SharedInformerFactory'] },
    ],
  };
}
