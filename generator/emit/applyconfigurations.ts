import { type InterfaceDeclarationStructure, type OptionalKind, type PropertySignatureStructure, type SourceFileStructure, StructureKind, type TypeAliasDeclarationStructure } from 'ts-morph';
import type { JSONSchemaProps } from '../model/schema.js';
import { lowerFirst, upperFirst } from '../model/names.js';
import type { ApiModel, GroupModel, KindModel, VersionModel } from '../model/types.js';
import {
  applyConfigurationName,
  applyType,
  type ApplyTypeRef,
  type ApplyTypeResolver,
  definitionName,
  definitionShortName,
  isMetaDefinition,
  META_APPLY_CONFIGURATIONS,
  propertyKey,
} from './applyconfig-types.js';
import { servedGroups, servedVersions } from './clientset.js';
import type { OutputFile } from './output.js';
import { paths } from './paths.js';
import { Imports } from './ts.js';

/**
 * Typed apply configurations (client-go's applyconfigurations, without
 * builders): per kind `<Kind>ApplyConfiguration` with its apiVersion and kind
 * as literal types and a named `metadata`, and per named type the kind
 * reaches `<Type>ApplyConfiguration`, every field optional; plus
 * `extract<Kind>` (and `extract<Kind>Status`), the configuration of the
 * fields a manager owns in an object. Named types live in their version's
 * `types.ts`, kinds in `<kind>.ts`, both re-exported by the version's index.
 */
export function emitApplyConfigurations(model: ApiModel): OutputFile[] {
  const owners = new DefinitionOwners(model);
  const out: OutputFile[] = [];
  for (const g of servedGroups(model)) {
    for (const v of servedVersions(g)) {
      for (const k of v.kinds) {
        out.push({ path: paths.applyConfiguration(g, v, k), format: 'ts', structure: located(k, () => kindFile(g, v, k, owners)) });
        if (g.origin === 'crd') out.push({ path: paths.applyConfigurationSchema(g, v, k), format: 'json', value: k.schema });
      }
    }
  }
  // Named types are collected while kinds are printed; a version holds those it owns.
  for (const [version, definitions] of owners.byVersion()) {
    out.push({ path: paths.applyConfigurationTypes(version.group, version.version), format: 'ts', structure: typesFile(version.group, version.version, definitions, owners) });
  }
  for (const g of servedGroups(model)) {
    for (const v of servedVersions(g)) out.push({ path: paths.applyConfigurationIndex(g, v), format: 'ts', structure: indexFile(g, v, owners.owns(g, v)) });
  }
  return out;
}

/** Errors about what a kind reaches name the kind's declaration (`file:line: message`). */
function located<T>(k: KindModel, f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (k.source === undefined || !(err instanceof Error)) throw err;
    throw new Error(`${k.source.file}:${k.source.line}${k.source.column === undefined ? '' : `:${k.source.column}`}: ${err.message}`, { cause: err });
  }
}

interface OwnerVersion {
  readonly group: GroupModel;
  readonly version: VersionModel;
}

/** Which version emits each named definition a kind reaches, found by the definitions' OpenAPI package. */
class DefinitionOwners {
  readonly #kinds = new Map<string, { readonly owner: OwnerVersion; readonly kind: KindModel }>();
  readonly #packages = new Map<string, OwnerVersion>();
  readonly #needed = new Map<OwnerVersion, Set<string>>();

  constructor(readonly model: ApiModel) {
    for (const group of model.groups) {
      for (const version of group.versions) {
        const owner = { group, version };
        this.#packages.set(version.openapiPackage, owner);
        for (const kind of version.kinds) this.#kinds.set(kind.definition, { owner, kind });
      }
    }
  }

  definition(name: string): JSONSchemaProps {
    const s = Object.hasOwn(this.model.definitions, name) ? this.model.definitions[name] : undefined;
    if (s === undefined) throw new Error(`apply configurations: $ref to ${name}, which the model does not define`);
    return s;
  }

  /** The apply configuration of a definition; a definition that is no kind is marked for its version's types.ts. */
  resolve(ref: string): ApplyTypeRef {
    const name = definitionName(ref);
    const short = definitionShortName(name);
    if (isMetaDefinition(name)) {
      if (!META_APPLY_CONFIGURATIONS.has(short)) throw new Error(`apply configurations: no meta/v1 apply configuration for ${name}`);
      return { module: paths.runtimeClient, name: applyConfigurationName(short) };
    }
    const kind = this.#kinds.get(name);
    if (kind !== undefined) return { module: paths.applyConfiguration(kind.owner.group, kind.owner.version, kind.kind), name: applyConfigurationName(kind.kind.kind) };
    const owner = this.#packages.get(name.slice(0, name.length - short.length - 1));
    if (owner === undefined) throw new Error(`apply configurations: no API version owns ${name}`);
    const set = this.#needed.get(owner) ?? new Set<string>();
    set.add(name);
    this.#needed.set(owner, set);
    return { module: paths.applyConfigurationTypes(owner.group, owner.version), name: applyConfigurationName(short) };
  }

  /** Every version's named definitions, reached transitively (printing a type may reach more). */
  byVersion(): [OwnerVersion, string[]][] {
    const done = new Set<string>();
    for (;;) {
      const pending = [...this.#needed.values()].flatMap((s) => [...s]).filter((d) => !done.has(d));
      if (pending.length === 0) break;
      for (const d of pending) {
        done.add(d);
        applyType(this.definition(d), { named: (r) => this.resolve(r), use: (r) => r.name });
      }
    }
    return [...this.#needed.entries()].map(([o, s]): [OwnerVersion, string[]] => [o, [...s].sort()]).sort(([, a], [, b]) => (a[0]! < b[0]! ? -1 : 1));
  }

  owns(g: GroupModel, v: VersionModel): boolean {
    return [...this.#needed.keys()].some((o) => o.group === g && o.version === v);
  }
}

function resolver(file: string, imports: Imports, owners: DefinitionOwners): ApplyTypeResolver {
  return {
    named: (ref) => owners.resolve(ref),
    use: (ref) => (ref.module === file ? ref.name : imports.add(ref.module, ref.name, { typeOnly: true })),
  };
}

function properties(s: JSONSchemaProps, r: ApplyTypeResolver, skip: ReadonlySet<string> = new Set()): OptionalKind<PropertySignatureStructure>[] {
  return Object.entries(s.properties ?? {})
    .filter(([name]) => !skip.has(name))
    .map(([name, p]) => ({
      name: propertyKey(name),
      hasQuestionToken: true,
      type: applyType(p, r),
      ...(p.description === undefined || p.description === '' ? {} : { docs: [p.description.replace(/\*\//g, '*\\/')] }),
    }));
}

const ROOT_FIELDS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);

function kindFile(g: GroupModel, v: VersionModel, k: KindModel, owners: DefinitionOwners): SourceFileStructure {
  const file = paths.applyConfiguration(g, v, k);
  const imports = new Imports(file);
  const r = resolver(file, imports, owners);
  const schema = g.origin === 'source' && Object.hasOwn(owners.model.definitions, k.definition) ? owners.definition(k.definition) : k.schema;
  const meta = imports.add(paths.runtimeClient, 'RootObjectMetaApplyConfiguration', { typeOnly: true });
  const type = imports.add(k.typeRef.module, k.typeRef.name, { typeOnly: true });
  const extract = imports.add(paths.runtimeClient, 'extractApplyConfiguration');
  const schemaConst = imports.addJSON(g.origin === 'source' ? paths.schema(g, v, k) : paths.applyConfigurationSchema(g, v, k), `${k.kind.charAt(0).toLowerCase()}${k.kind.slice(1)}Schema`);
  const config = applyConfigurationName(k.kind);
  const apiVersion = g.name === '' ? v.name : `${g.name}/${v.name}`;
  const iface: InterfaceDeclarationStructure = {
    kind: StructureKind.Interface,
    isExported: true,
    name: config,
    docs: [`A ${k.kind} as a server-side apply configuration: apiVersion, kind and metadata.name are required, every other field is optional.`],
    properties: [{ name: 'apiVersion', type: `'${apiVersion}'` }, { name: 'kind', type: `'${k.kind}'` }, { name: 'metadata', type: meta }, ...properties(schema, r, ROOT_FIELDS)],
  };
  // Kinds of apis/ are typed by their published OpenAPI definition, as the server types them.
  const openapi =
    g.origin === 'source' ? `, openapi: { document: ${imports.addJSON(paths.openapi(g, v), `${lowerFirst(g.clientName)}${upperFirst(v.name)}OpenAPI`)}, definition: '${k.definition}' }` : '';
  // client-go's ExtractX of a cluster-scoped kind sets no namespace, whatever the object carries.
  const scope = k.scope === 'Cluster' ? ', namespaced: false' : '';
  const target = `{ apiVersion: '${apiVersion}', kind: '${k.kind}'${scope}, schema: ${imports.add(paths.runtimeClient, 'schemaFromJSON')}(${schemaConst})${openapi} }`;
  const extractFn = (suffix: string, subresource: string, doc: string) => ({
    kind: StructureKind.Function as const,
    isExported: true,
    name: `extract${k.kind}${suffix}`,
    docs: [doc],
    parameters: [
      { name: 'obj', type: type },
      { name: 'fieldManager', type: 'string' },
    ],
    returnType: config,
    statements: [`return ${extract}<${config}>(obj, ${target}, fieldManager, '${subresource}');`],
  });
  return {
    kind: StructureKind.SourceFile,
    statements: [
      ...imports.structures(),
      iface,
      extractFn('', '', `The fields fieldManager owns in a ${k.kind} (its Apply entry of the main resource), as an apply configuration to modify and apply again.`),
      ...(k.subresources.status ? [extractFn('Status', 'status', `The fields fieldManager owns in a ${k.kind} through the status subresource, as an apply configuration for applyStatus.`)] : []),
    ],
  };
}

function typesFile(g: GroupModel, v: VersionModel, definitions: readonly string[], owners: DefinitionOwners): SourceFileStructure {
  const file = paths.applyConfigurationTypes(g, v);
  const imports = new Imports(file);
  const r = resolver(file, imports, owners);
  const declarations = definitions.map((d): InterfaceDeclarationStructure | TypeAliasDeclarationStructure => {
    const s = owners.definition(d);
    const name = applyConfigurationName(definitionShortName(d));
    const docs = s.description === undefined || s.description === '' ? [] : [s.description.replace(/\*\//g, '*\\/')];
    if (s.type === 'object' && s.properties !== undefined && s.$ref === undefined) {
      return { kind: StructureKind.Interface, isExported: true, name, docs, properties: properties(s, r) };
    }
    return { kind: StructureKind.TypeAlias, isExported: true, name, docs, type: applyType(s, r) };
  });
  return { kind: StructureKind.SourceFile, statements: [...imports.structures(), ...declarations] };
}

function indexFile(g: GroupModel, v: VersionModel, hasTypes: boolean): SourceFileStructure {
  const exports = v.kinds.map((k) => ({
    kind: StructureKind.ExportDeclaration as const,
    moduleSpecifier: `./${k.kind.toLowerCase()}.js`,
    namedExports: [{ name: applyConfigurationName(k.kind), isTypeOnly: true }, `extract${k.kind}`, ...(k.subresources.status ? [`extract${k.kind}Status`] : [])],
  }));
  return {
    kind: StructureKind.SourceFile,
    statements: [...exports, ...(hasTypes ? [{ kind: StructureKind.ExportDeclaration as const, moduleSpecifier: './types.js', isTypeOnly: true }] : [])],
  };
}
