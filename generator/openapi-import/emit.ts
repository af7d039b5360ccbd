import { type ClassDeclarationStructure, type ImportDeclarationStructure, type SourceFileStructure, type StatementStructures, StructureKind } from 'ts-morph';
import { emitApplyConfigurations } from '../emit/applyconfigurations.js';
import { emitClientsets } from '../emit/clientset.js';
import { emitKubernetesFakeClientset } from '../emit/fake.js';
import { emitListersAndInformers } from '../emit/informers.js';
import type { OutputFile } from '../emit/output.js';
import { GENERATED, paths } from '../emit/paths.js';
import type { ApiModel } from '../model/types.js';
import { type PrintedFile, printFile } from '../print/index.js';
import { KUBERNETES_VERSION } from './documents.js';
import type { KubernetesImport } from './model.js';
import { emitTypes } from './types.js';

/** Where the clients of Kubernetes' own groups are written: beside, never among, the project's own groups. */
export const KUBERNETES_OUTPUT = `${GENERATED}/kubernetes`;

/** The clientset and informer factory classes, named for what they talk to. */
export const CLIENTSET_CLASS = 'Kubernetes';
export const INFORMER_FACTORY_CLASS = 'KubernetesInformerFactory';

/**
 * The typed clients, apply configurations, listers, informers and types of
 * the imported groups, by the same emitters as the project's own groups,
 * under KUBERNETES_OUTPUT: every file the emitters place under generated/
 * moves below it as a whole, so their relative imports still meet, and
 * nothing collides with the project's core, rbac or autoscaling. The
 * clientset is `Kubernetes` (`new Kubernetes(rest).appsV1().deployments(ns)`),
 * the factory `KubernetesInformerFactory`. Pure: same import, same files.
 */
export function emitKubernetes(imported: KubernetesImport): PrintedFile[] {
  const model: ApiModel = { groups: imported.groups, definitions: Object.fromEntries(imported.definitions) };
  const files: OutputFile[] = [
    ...emitClientsets(model).map((f) => (f.path === paths.clientset() ? renameClass(f, 'Clientset', CLIENTSET_CLASS, CLIENTSET_DOC) : f)),
    ...emitApplyConfigurations(model),
    ...emitListersAndInformers(model).map((f) => (f.path === paths.informerFactory() ? factory(f) : f)),
    ...emitTypes(imported),
    { path: `${GENERATED}/index.ts`, format: 'ts', structure: indexFile() },
  ];
  return files.map((f) => printFile({ ...f, path: `${KUBERNETES_OUTPUT}/${f.path.slice(GENERATED.length + 1)}` })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The fake of the `Kubernetes` clientset (client-go's kubernetes/fake) at
 * KUBERNETES_OUTPUT/clientset/fake: `newSimpleClientset(...objects)` for unit tests of
 * controllers that manage Kubernetes' kinds. Apart from emitKubernetes because it loads the fake
 * runtime (the tracker with the registry's write semantics) that the clients never load, and so
 * that the clients' golden files stay the clients'. Pure, like emitKubernetes.
 */
export function emitKubernetesFake(imported: KubernetesImport): PrintedFile[] {
  const model: ApiModel = { groups: imported.groups, definitions: Object.fromEntries(imported.definitions) };
  return emitKubernetesFakeClientset(model, CLIENTSET_CLASS).map((f) => printFile({ ...f, path: `${KUBERNETES_OUTPUT}/${f.path.slice(GENERATED.length + 1)}` }));
}

const CLIENTSET_DOC = `Typed clients of Kubernetes' own group versions (kube ${KUBERNETES_VERSION}'s published OpenAPI), over one REST client: for talking to clusters, the server does not serve these kinds unless they are installed.`;
const FACTORY_DOC = [
  "Shared informers of Kubernetes' own group versions: asking twice for a resource returns the same informer,",
  'so one list and one watch serve every consumer. start() runs the informers asked for so far, and any',
  'asked for later at once; waitForCacheSync() waits for all of them: call it before reading listers.',
].join('\n');

function structureOf(f: OutputFile): SourceFileStructure {
  if (f.format !== 'ts') throw new Error(`${f.path}: expected a TypeScript structure`);
  return f.structure;
}

function mapStatements(f: OutputFile, map: (s: StatementStructures) => StatementStructures): OutputFile {
  const structure = structureOf(f);
  const statements = Array.isArray(structure.statements) ? (structure.statements as StatementStructures[]) : [];
  return { path: f.path, format: 'ts', structure: { ...structure, statements: statements.map(map) } };
}

function renameClass(f: OutputFile, from: string, to: string, docs: string): OutputFile {
  return mapStatements(f, (s) => (s.kind === StructureKind.Class && (s as ClassDeclarationStructure).name === from ? { ...s, name: to, docs: [docs] } : s));
}

/** The informer factory takes the `Kubernetes` clientset. */
function factory(f: OutputFile): OutputFile {
  const renamed = renameClass(f, 'SharedInformerFactory', INFORMER_FACTORY_CLASS, FACTORY_DOC);
  return mapStatements(renamed, (s) => {
    if (s.kind === StructureKind.ImportDeclaration) {
      const i = s as ImportDeclarationStructure;
      return Array.isArray(i.namedImports) ? { ...i, namedImports: i.namedImports.map((n) => (n === 'Clientset' ? CLIENTSET_CLASS : n)) } : i;
    }
    if (s.kind === StructureKind.Class) {
      const c = s as ClassDeclarationStructure;
      const ctors = (c.ctors ?? []).map((ctor) => ({ ...ctor, parameters: (ctor.parameters ?? []).map((p) => (p.type === 'Clientset' ? { ...p, type: CLIENTSET_CLASS } : p)) }));
      return { ...c, ctors };
    }
    return s;
  });
}

function indexFile(): SourceFileStructure {
  return {
    kind: StructureKind.SourceFile,
    statements: [
      { kind: StructureKind.ExportDeclaration, moduleSpecifier: './clientset/index.js', namedExports: [CLIENTSET_CLASS] },
      { kind: StructureKind.ExportDeclaration, moduleSpecifier: './informers/factory.js', namedExports: [INFORMER_FACTORY_CLASS] },
    ],
  };
}
