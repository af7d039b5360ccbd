import { Scope as MethodScope, type SourceFileStructure, StructureKind } from 'ts-morph';
import { groupVersionAccessor, lowerFirst, upperFirst } from '../model/names.js';
import type { ApiModel, GroupModel, KindModel, VersionModel } from '../model/types.js';
import { applyConfigurationName } from './applyconfig-types.js';
import { exportConst } from '../print/typescript.js';
import type { OutputFile } from './output.js';
import { paths } from './paths.js';
import { Imports } from './ts.js';

/**
 * Typed clientsets: a thin shell per resource over runtime/client's
 * ResourceClient, whose interface lists exactly the verbs (and
 * subresources) the server registers for the resource.
 */
export function emitClientsets(model: ApiModel): OutputFile[] {
  const out: OutputFile[] = [];
  for (const g of servedGroups(model)) {
    for (const v of servedVersions(g)) {
      for (const k of v.kinds) out.push({ path: paths.client(g, v, k), format: 'ts', structure: kindClient(g, v, k) });
      out.push({ path: paths.groupClient(g, v), format: 'ts', structure: groupVersionClient(g, v) });
    }
  }
  out.push({ path: paths.clientset(), format: 'ts', structure: clientset(model) });
  return out;
}

export function servedGroups(model: ApiModel): GroupModel[] {
  return model.groups.filter((g) => g.versions.some((v) => v.kinds.length > 0));
}

export function servedVersions(group: GroupModel): VersionModel[] {
  return group.versions.filter((v) => v.kinds.length > 0);
}

export const names = {
  resourceConst: (k: KindModel) => `${lowerFirst(k.kind)}Resource`,
  clientInterface: (k: KindModel) => `${k.kind}Interface`,
  newClient: (k: KindModel) => `new${k.kind}Client`,
  groupClientClass: (g: GroupModel, v: VersionModel) => `${upperFirst(groupVersionAccessor(g.clientName, v.name))}Client`,
  accessor: (k: KindModel) => lowerFirst(k.plural.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())),
};

/** The capability interfaces a resource's client extends, derived from its verbs and subresources (T the object, A its apply configuration). */
export function capabilities(k: KindModel): string[] {
  const has = (verb: string): boolean => (k.verbs as readonly string[]).includes(verb);
  const caps: string[] = [];
  if (has('create')) caps.push('Creater<T>');
  if (has('delete')) caps.push('Deleter');
  if (has('deletecollection')) caps.push('CollectionDeleter');
  if (has('get')) caps.push('Getter<T>');
  if (has('list')) caps.push('Lister<T>');
  if (has('patch')) caps.push('Patcher<T, A>');
  if (has('update')) caps.push('Updater<T>');
  if (has('watch')) caps.push('Watcher<T>');
  if (k.subresources.status && has('update')) caps.push('StatusUpdater<T>');
  if (k.subresources.status && has('patch')) caps.push('StatusPatcher<T, A>');
  if (k.subresources.scale !== undefined) caps.push('Scaler');
  return caps;
}

function kindClient(g: GroupModel, v: VersionModel, k: KindModel): SourceFileStructure {
  const file = paths.client(g, v, k);
  const imports = new Imports(file);
  const type = imports.add(k.typeRef.module, k.typeRef.name, { typeOnly: true });
  imports.add(paths.runtimeClient, 'ResourceClient');
  imports.add(paths.runtimeClient, 'RESTClient', { typeOnly: true });
  imports.add(paths.runtimeClient, 'ResourceDescriptor', { typeOnly: true });
  const applyConfiguration = imports.add(paths.applyConfiguration(g, v, k), applyConfigurationName(k.kind), { typeOnly: true });
  const caps = capabilities(k);
  for (const cap of caps) imports.add(paths.runtimeClient, cap.replace(/<.*>$/, ''), { typeOnly: true });
  const namespaced = k.scope === 'Namespaced';
  const apiVersion = g.name === '' ? v.name : `${g.name}/${v.name}`;
  return {
    kind: StructureKind.SourceFile,
    statements: [
      ...imports.structures(),
      exportConst({
        name: names.resourceConst(k),
        doc: `The ${k.plural} resource of ${apiVersion}.`,
        type: 'ResourceDescriptor',
        value: { group: g.name, version: v.name, resource: k.plural, kind: k.kind, namespaced },
      }),
      {
        kind: StructureKind.Interface,
        isExported: true,
        name: names.clientInterface(k),
        docs: [`Typed client of ${k.plural}: the verbs the server serves for ${apiVersion} ${k.kind}.`],
        extends: caps.map((c) => c.replace('<T>', `<${type}>`).replace('<T, A>', `<${type}, ${applyConfiguration}>`)),
      },
      {
        kind: StructureKind.Function,
        isExported: true,
        name: names.newClient(k),
        docs: [namespaced ? "A client of the namespace's objects; the empty namespace lists and watches all namespaces." : 'A client of the cluster-scoped objects.'],
        parameters: namespaced
          ? [
              { name: 'rest', type: 'RESTClient' },
              { name: 'namespace', type: 'string' },
            ]
          : [{ name: 'rest', type: 'RESTClient' }],
        returnType: names.clientInterface(k),
        statements: [`return new ResourceClient<${type}, ${applyConfiguration}>(rest, ${names.resourceConst(k)}, ${namespaced ? 'namespace' : 'undefined'});`],
      },
    ],
  };
}

function groupVersionClient(g: GroupModel, v: VersionModel): SourceFileStructure {
  const file = paths.groupClient(g, v);
  const imports = new Imports(file);
  imports.add(paths.runtimeClient, 'RESTClient', { typeOnly: true });
  for (const k of v.kinds) {
    const module = paths.client(g, v, k);
    imports.add(module, names.clientInterface(k), { typeOnly: true });
    imports.add(module, names.newClient(k));
  }
  return {
    kind: StructureKind.SourceFile,
    statements: [
      ...imports.structures(),
      {
        kind: StructureKind.Class,
        isExported: true,
        name: names.groupClientClass(g, v),
        docs: [`Client of the ${g.name === '' ? 'core' : g.name} ${v.name} resources.`],
        ctors: [{ parameters: [{ name: 'rest', type: 'RESTClient', isReadonly: true, scope: MethodScope.Public }] }],
        methods: v.kinds.map((k) => ({
          name: names.accessor(k),
          parameters: k.scope === 'Namespaced' ? [{ name: 'namespace', type: 'string' }] : [],
          returnType: names.clientInterface(k),
          statements: [`return ${names.newClient(k)}(this.rest${k.scope === 'Namespaced' ? ', namespace' : ''});`],
        })),
      },
      ...v.kinds.map((k) => ({
        kind: StructureKind.ExportDeclaration as const,
        moduleSpecifier: `./${k.kind.toLowerCase()}.js`,
        namedExports: [names.resourceConst(k), { name: names.clientInterface(k), isTypeOnly: true }],
      })),
    ],
  };
}

function clientset(model: ApiModel): SourceFileStructure {
  const file = paths.clientset();
  const imports = new Imports(file);
  imports.add(paths.runtimeClient, 'RESTClient', { typeOnly: true });
  const members: { accessor: string; cls: string }[] = [];
  for (const g of servedGroups(model)) {
    for (const v of servedVersions(g)) {
      const cls = names.groupClientClass(g, v);
      imports.add(paths.groupClient(g, v), cls);
      members.push({ accessor: groupVersionAccessor(g.clientName, v.name), cls });
    }
  }
  return {
    kind: StructureKind.SourceFile,
    statements: [
      ...imports.structures(),
      {
        kind: StructureKind.Class,
        isExported: true,
        name: 'Clientset',
        docs: ['Typed clients of every group version defined in apis/, over one REST client.'],
        properties: members.map((m) => ({ name: `#${m.accessor}`, type: m.cls, isReadonly: true })),
        ctors: [
          {
            parameters: [{ name: 'rest', type: 'RESTClient', isReadonly: true, scope: MethodScope.Public }],
            statements: members.map((m) => `this.#${m.accessor} = new ${m.cls}(rest);`),
          },
        ],
        methods: members.map((m) => ({ name: m.accessor, returnType: m.cls, statements: [`return this.#${m.accessor};`] })),
      },
    ],
  };
}
