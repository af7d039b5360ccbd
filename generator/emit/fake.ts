import { Scope as MethodScope, type SourceFileStructure, StructureKind } from 'ts-morph';
import { groupVersionAccessor, upperFirst } from '../model/names.js';
import type { ApiModel, GroupModel, KindModel, VersionModel } from '../model/types.js';
import { exportConst, RawCode } from '../print/typescript.js';
import { names, servedGroups, servedVersions } from './clientset.js';
import { registryConstName } from './registry.js';
import type { OutputFile } from './output.js';
import { GENERATED, paths } from './paths.js';
import { Imports } from './ts.js';

/** Where the fake clientset lives: beside the clientset it fakes. */
export const FAKE_CLIENTSET = `${GENERATED}/clientset/fake/index.ts`;
const RUNTIME_FAKE = paths.runtimeFake;

/**
 * The fake clientset (client-go's fake package): the generated Clientset
 * over runtime/client/fake's FakeRESTClient, whose tracker serves every
 * resource of the model with the verbs, subresources, selectable fields and
 * schema the server has for it. Resources of imported CRDs carry no schema
 * and refuse strategic merge patch, as the server does for custom resources.
 */
export function emitFakeClientset(model: ApiModel): OutputFile[] {
  return [{ path: FAKE_CLIENTSET, format: 'ts', structure: fakeClientset(model, PROJECT_FAKE) }];
}

/** What differs between the fake of a project's clientset and the fake of the Kubernetes clients. */
interface FakeOptions {
  readonly clientsetClass: string;
  readonly fakeClass: string;
  readonly doc: string;
  /** The model's imported groups are Kubernetes' own kinds (kube-apiserver patches them strategically), not CRDs. */
  readonly importedBuiltins: boolean;
}

const PROJECT_FAKE: FakeOptions = {
  clientsetClass: 'Clientset',
  fakeClass: 'FakeClientset',
  doc: 'The typed Clientset over an in-memory tracker, for unit tests of controllers without a server. `fake` records actions and takes reactors.',
  importedBuiltins: false,
};

/**
 * The fake of the clientset of Kubernetes' own groups (client-go's kubernetes/fake), for
 * generator/openapi-import: `clientsetClass` over the same tracker, each resource with its
 * verbs, status and scale subresources and published schema (the one extract<Kind> reads, with
 * kube's patch strategies and merge keys), so strategic merge patch and apply merge as kube's.
 */
export function emitKubernetesFakeClientset(model: ApiModel, clientsetClass: string): OutputFile[] {
  const doc = `The ${clientsetClass} clientset over an in-memory tracker (client-go's kubernetes/fake), for unit tests of controllers without a cluster. \`fake\` records actions and takes reactors.`;
  return [{ path: FAKE_CLIENTSET, format: 'ts', structure: fakeClientset(model, { clientsetClass, fakeClass: `Fake${clientsetClass}`, doc, importedBuiltins: true }) }];
}

function fakeClientset(model: ApiModel, options: FakeOptions): SourceFileStructure {
  const imports = new Imports(FAKE_CLIENTSET);
  imports.add(paths.clientset(), options.clientsetClass);
  imports.add(RUNTIME_FAKE, 'FakeRESTClient');
  imports.add(RUNTIME_FAKE, 'ObjectTracker');
  imports.add(RUNTIME_FAKE, 'FakeClientsetOptions', { typeOnly: true });
  imports.add(RUNTIME_FAKE, 'FakeResource', { typeOnly: true });
  const resources: unknown[] = [];
  for (const g of servedGroups(model)) {
    for (const v of servedVersions(g)) {
      for (const k of v.kinds) resources.push(fakeResource(g, v, k, imports, options.importedBuiltins));
    }
  }
  return {
    kind: StructureKind.SourceFile,
    statements: [
      ...imports.structures(),
      exportConst({
        name: 'fakeResources',
        doc: 'Every resource of the clientset as the fake serves it: what the server registers for it.',
        type: 'readonly FakeResource[]',
        value: resources,
      }),
      {
        kind: StructureKind.Class,
        isExported: true,
        name: options.fakeClass,
        extends: options.clientsetClass,
        docs: [options.doc],
        ctors: [
          {
            parameters: [{ name: 'fake', type: 'FakeRESTClient', isReadonly: true, scope: MethodScope.Public }],
            statements: ['super(fake);'],
          },
        ],
        methods: [{ name: 'tracker', returnType: 'ObjectTracker', statements: ['return this.fake.tracker;'] }],
      },
      {
        kind: StructureKind.Function,
        isExported: true,
        name: 'newFakeClientset',
        docs: [`A ${options.fakeClass} whose tracker uses \`options\` (clock, history size) and starts with \`objects\`.`],
        parameters: [
          { name: 'options', type: 'FakeClientsetOptions' },
          { name: 'objects', type: 'readonly object[]', isRestParameter: true },
        ],
        returnType: options.fakeClass,
        statements: ['const tracker = new ObjectTracker({ ...options, resources: fakeResources });', 'tracker.add(...objects);', `return new ${options.fakeClass}(new FakeRESTClient(tracker));`],
      },
      {
        kind: StructureKind.Function,
        isExported: true,
        name: 'newSimpleClientset',
        docs: [`A ${options.fakeClass} that starts with \`objects\` (client-go's NewSimpleClientset).`],
        parameters: [{ name: 'objects', type: 'readonly object[]', isRestParameter: true }],
        returnType: options.fakeClass,
        statements: ['return newFakeClientset({}, ...objects);'],
      },
    ],
  };
}

function fakeResource(g: GroupModel, v: VersionModel, k: KindModel, imports: Imports, importedBuiltins: boolean): unknown {
  const local = `${groupVersionAccessor(g.clientName, v.name)}${upperFirst(k.kind)}`;
  const descriptor = imports.add(paths.client(g, v, k), names.resourceConst(k), { as: `${local}Resource` });
  if (g.origin === 'source') {
    // What the server registers for it, read from the generated registry rather than repeated here.
    const registered = imports.add(RUNTIME_FAKE, 'registeredFakeResource');
    return new RawCode(`${registered}(${descriptor}, ${imports.add(paths.registry(g), registryConstName(g))})`);
  }
  // Imported CRDs are served by the apiextensions server at run time: no strategic merge patch, as
  // the server answers custom resources; the CRD's schema (the one extract<Kind> reads) types the
  // field manager as the server's CRD handler does. Kubernetes' own kinds take strategic merge
  // patches (the default), merged by the patch strategies their published schema carries.
  const resource = {
    descriptor: new RawCode(descriptor),
    schema: new RawCode(`${imports.add(paths.runtimeClient, 'schemaFromJSON')}(${imports.addJSON(paths.applyConfigurationSchema(g, v, k), `${local}Schema`)})`),
    verbs: k.verbs,
    subresources: { status: k.subresources.status, scale: k.subresources.scale },
  };
  // Kubernetes' own kinds are selected as client-go's fake selects them: their field sets are kube's
  // code, not part of the published schemas, so no field selector is applied, and a watch takes no
  // selector at all (client-go's tracker). A CRD declares its own fields and keeps the server's selection.
  return importedBuiltins ? { ...resource, fieldSelectors: 'ignored' } : { ...resource, selectableFields: k.selectableFields, strategicMergePatch: false };
}
