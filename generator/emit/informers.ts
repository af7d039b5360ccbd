import { Scope as MethodScope, type SourceFileStructure, StructureKind } from 'ts-morph';
import { groupVersionAccessor, upperFirst } from '../model/names.js';
import type { ApiModel, GroupModel, KindModel, VersionModel } from '../model/types.js';
import { names, servedGroups, servedVersions } from './clientset.js';
import type { OutputFile } from './output.js';
import { paths } from './paths.js';
import { Imports } from './ts.js';

const informerNames = {
  lister: (k: KindModel) => `${k.kind}Lister`,
  newLister: (k: KindModel) => `new${k.kind}Lister`,
  informer: (k: KindModel) => `${k.kind}Informer`,
  newInformer: (k: KindModel) => `new${k.kind}Informer`,
  versionInformers: (g: GroupModel, v: VersionModel) => `${upperFirst(groupVersionAccessor(g.clientName, v.name))}Informers`,
};

/**
 * Listers (read-only views of an informer's cache) and informers (one
 * shared list+watch per resource), plus the shared informer factory that
 * hands them out by group and version.
 */
export function emitListersAndInformers(model: ApiModel): OutputFile[] {
  const out: OutputFile[] = [];
  for (const g of servedGroups(model)) {
    for (const v of servedVersions(g)) {
      for (const k of v.kinds.filter(watchable)) {
        out.push({ path: paths.lister(g, v, k), format: 'ts', structure: lister(g, v, k) });
        out.push({ path: paths.informer(g, v, k), format: 'ts', structure: informer(g, v, k) });
      }
    }
  }
  out.push({ path: paths.informerFactory(), format: 'ts', structure: factory(model) });
  return out;
}

/** Informers need list and watch; a resource without them gets none (as informer-gen requires). */
function watchable(k: KindModel): boolean {
  return k.verbs.includes('list') && k.verbs.includes('watch');
}

function lister(g: GroupModel, v: VersionModel, k: KindModel): SourceFileStructure {
  const file = paths.lister(g, v, k);
  const imports = new Imports(file);
  const type = imports.add(k.typeRef.module, k.typeRef.name, { typeOnly: true });
  const base = k.scope === 'Namespaced' ? 'NamespacedLister' : 'ClusterLister';
  imports.add(paths.runtimeClient, base);
  imports.add(paths.runtimeClient, 'Indexer', { typeOnly: true });
  imports.add(paths.client(g, v, k), names.resourceConst(k));
  return {
    kind: StructureKind.SourceFile,
    statements: [
      ...imports.structures(),
      {
        kind: StructureKind.TypeAlias,
        isExported: true,
        name: informerNames.lister(k),
        docs: [`Lists ${k.kind} objects from an informer's cache. Returned objects are shared and frozen (read-only by type): deepCopy() one to change it.`],
        type: `${base}<${type}>`,
      },
      {
        kind: StructureKind.Function,
        isExported: true,
        name: informerNames.newLister(k),
        parameters: [{ name: 'indexer', type: `Indexer<${type}>` }],
        returnType: informerNames.lister(k),
        statements: [`return new ${base}<${type}>(indexer, ${names.resourceConst(k)});`],
      },
    ],
  };
}

function informer(g: GroupModel, v: VersionModel, k: KindModel): SourceFileStructure {
  const file = paths.informer(g, v, k);
  const imports = new Imports(file);
  const type = imports.add(k.typeRef.module, k.typeRef.name, { typeOnly: true });
  imports.add(paths.runtimeClient, 'SharedIndexInformer', { typeOnly: true });
  imports.add(paths.runtimeClient, 'SharedInformerFactoryCore', { typeOnly: true });
  // Only the group version's client: a kind's informer does not depend on the other groups of the
  // project (the framework's built-in informers ship without this repository's clientset).
  const groupClient = imports.add(paths.groupClient(g, v), names.groupClientClass(g, v), { typeOnly: true });
  imports.add(paths.client(g, v, k), names.resourceConst(k));
  imports.add(paths.lister(g, v, k), informerNames.lister(k), { typeOnly: true });
  imports.add(paths.lister(g, v, k), informerNames.newLister(k));
  const client = `clientset.${groupVersionAccessor(g.clientName, v.name)}().${names.accessor(k)}(${k.scope === 'Namespaced' ? "namespace ?? ''" : ''})`;
  return {
    kind: StructureKind.SourceFile,
    statements: [
      ...imports.structures(),
      {
        kind: StructureKind.Interface,
        isExported: true,
        name: informerNames.informer(k),
        docs: [`The shared informer of ${k.plural} and a lister over its cache.`],
        properties: [],
        methods: [
          { name: 'informer', returnType: `SharedIndexInformer<${type}>` },
          { name: 'lister', returnType: informerNames.lister(k) },
        ],
      },
      {
        kind: StructureKind.Function,
        isExported: true,
        name: informerNames.newInformer(k),
        docs: [
          [
            'Asks the factory for the one shared informer of this resource now (not at first use), so that start() runs it,',
            'or runs it at once when the factory has started; listing and watching go through the typed client.',
          ].join('\n'),
        ],
        parameters: [
          { name: 'factory', type: 'SharedInformerFactoryCore' },
          { name: 'clientset', type: `{ ${groupVersionAccessor(g.clientName, v.name)}(): ${groupClient} }` },
        ],
        returnType: informerNames.informer(k),
        statements: [
          `const informer = factory.informerFor<${type}>(${names.resourceConst(k)}, (${k.scope === 'Namespaced' ? 'namespace' : ''}) => {`,
          `  const client = ${client};`,
          '  return { list: (options) => client.list(options), watch: (options) => client.watch(options) };',
          '});',
          `return { informer: () => informer, lister: () => ${informerNames.newLister(k)}(informer.getIndexer()) };`,
        ],
      },
    ],
  };
}

function factory(model: ApiModel): SourceFileStructure {
  const file = paths.informerFactory();
  const imports = new Imports(file);
  imports.add(paths.runtimeClient, 'SharedInformerFactoryCore', { typeOnly: true });
  imports.add(paths.clientset(), 'Clientset', { typeOnly: true });
  const interfaces: SourceFileStructure['statements'] = [];
  const groupMethods: { name: string; statements: string[]; returnType: string }[] = [];
  for (const g of servedGroups(model)) {
    const versions = servedVersions(g).filter((v) => v.kinds.some(watchable));
    if (versions.length === 0) continue;
    const groupInterface = `${upperFirst(g.clientName)}Informers`;
    for (const v of versions) {
      const kinds = v.kinds.filter(watchable);
      const prefix = upperFirst(groupVersionAccessor(g.clientName, v.name));
      for (const k of kinds) {
        imports.add(paths.informer(g, v, k), informerNames.informer(k), { typeOnly: true, as: `${prefix}${informerNames.informer(k)}` });
        imports.add(paths.informer(g, v, k), informerNames.newInformer(k), { as: `new${prefix}${k.kind}Informer` });
      }
      (interfaces as unknown[]).push({
        kind: StructureKind.Interface,
        isExported: true,
        name: informerNames.versionInformers(g, v),
        methods: kinds.map((k) => ({ name: names.accessor(k), returnType: `${prefix}${informerNames.informer(k)}` })),
      });
    }
    (interfaces as unknown[]).push({
      kind: StructureKind.Interface,
      isExported: true,
      name: groupInterface,
      methods: versions.map((v) => ({ name: v.name, returnType: informerNames.versionInformers(g, v) })),
    });
    groupMethods.push({
      name: g.clientName,
      returnType: groupInterface,
      statements: [
        'const shared = this.base;',
        'const clients = this.clientset;',
        'return {',
        ...versions.flatMap((v) => [
          `  ${v.name}: () => ({`,
          ...v.kinds.filter(watchable).map((k) => `    ${names.accessor(k)}: () => new${upperFirst(groupVersionAccessor(g.clientName, v.name))}${k.kind}Informer(shared, clients),`),
          '  }),',
        ]),
        '};',
      ],
    });
  }
  return {
    kind: StructureKind.SourceFile,
    statements: [
      ...imports.structures(),
      ...(interfaces as never[]),
      {
        kind: StructureKind.Class,
        isExported: true,
        name: 'SharedInformerFactory',
        docs: [
          [
            'Shared informers of every group version in apis/: asking twice for a resource returns the same informer,',
            'so one list and one watch serve every consumer. start() runs the informers asked for so far, and any',
            'asked for later at once; waitForCacheSync() waits for all of them: call it before reading listers.',
          ].join('\n'),
        ],
        ctors: [
          {
            parameters: [
              { name: 'clientset', type: 'Clientset', isReadonly: true, scope: MethodScope.Public },
              { name: 'base', type: 'SharedInformerFactoryCore', isReadonly: true, scope: MethodScope.Public },
            ],
          },
        ],
        methods: [
          ...groupMethods,
          { name: 'start', returnType: 'void', statements: ['this.base.start();'] },
          {
            name: 'waitForCacheSync',
            parameters: [{ name: 'signal', type: 'AbortSignal', hasQuestionToken: true }],
            returnType: 'Promise<ReadonlyMap<string, boolean>>',
            statements: ['return this.base.waitForCacheSync(signal);'],
          },
          { name: 'shutdown', returnType: 'Promise<void>', statements: ['return this.base.shutdown();'] },
        ],
      },
    ],
  };
}
