import { isDeepStrictEqual } from 'node:util';
import { GENERATED } from '../emit/paths.js';
import { inlineSchema } from '../model/inline.js';
import { compareVersionPriority, groupClientName } from '../model/names.js';
import type { JSONSchemaProps } from '../model/schema.js';
import type { GroupModel, KindModel, VersionModel } from '../model/types.js';
import type { LoadedDocument } from './documents.js';
import { pointer, Problems } from './problems.js';
import { readResources, type ResourceInfo } from './resources.js';
import { normalizeDefinitions, refsOf } from './schema.js';

/** What one import of kube's documents yields: model groups, and the definitions their types are printed from. */
export interface KubernetesImport {
  /** Groups of origin `crd`: types, clients, listers and informers, no server code. Sorted by name. */
  readonly groups: readonly GroupModel[];
  /** Every definition a kind or its list reaches, in the model's form (`$ref: <name>`), sorted by name. */
  readonly definitions: ReadonlyMap<string, JSONSchemaProps>;
  /** OpenAPI package (`io.k8s.api.apps.v1`) → the group version whose types module holds its definitions. */
  readonly packages: ReadonlyMap<string, { readonly group: GroupModel; readonly version: VersionModel }>;
  /** `<group>/<version> <plural>/<subresource>`: subresources the typed clients do not offer (exec, eviction…). */
  readonly notOffered: readonly string[];
}

interface ReadVersion {
  readonly doc: LoadedDocument;
  readonly packageName: string;
  readonly kinds: KindModel[];
  readonly roots: string[];
  readonly defs: ReadonlyMap<string, JSONSchemaProps>;
}

/**
 * Reads kube's published OpenAPI v3 documents (one per group version) into
 * the generator's model. A kind is a resource of the document's paths whose
 * definition carries the resource's `x-kubernetes-group-version-kind` and
 * has apiVersion, kind and metadata; its schema is the definition with every
 * `$ref` expanded (the structural form apply reads), its type the definition
 * itself, by name. Anything that cannot be represented as kube publishes it
 * fails the import with the document and JSON pointer.
 */
export function importKubernetes(docs: readonly LoadedDocument[]): KubernetesImport {
  const problems = new Problems();
  const read = docs.map((doc) => readVersion(doc, problems));
  problems.throwIfAny();
  const definitions = collectDefinitions(read, problems);
  const byGroup = new Map<string, ReadVersion[]>();
  for (const r of read) byGroup.set(r.doc.group, [...(byGroup.get(r.doc.group) ?? []), r]);
  const packages = new Map<string, { group: GroupModel; version: VersionModel }>();
  const groups = [...byGroup.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, versions]): GroupModel => {
      const sorted = [...versions].sort((a, b) => compareVersionPriority(a.doc.version, b.doc.version));
      // The documents do not say which version is stored; the client emitters do not read it, the model wants one.
      const models = sorted.map((r, i): VersionModel => ({
        name: r.doc.version,
        dir: undefined,
        storage: i === 0,
        hub: i === 0,
        deprecation: undefined,
        openapiPackage: r.packageName,
        kinds: r.kinds,
        protobuf: [],
      }));
      const group: GroupModel = { name, dir: undefined, clientName: groupClientName(name), versions: models, origin: 'crd' };
      for (const v of models) packages.set(v.openapiPackage, { group, version: v });
      return group;
    });
  for (const [name, { file }] of definitions) {
    const pkg = packageOf(name);
    if (!isApimachinery(name) && !packages.has(pkg)) problems.add(file, pointer('components', 'schemas', name), `package ${pkg} is not one of the imported group versions`);
  }
  problems.throwIfAny();
  const notOffered = read.flatMap((r) => r.kinds.flatMap((k) => (NOT_OFFERED.get(k) ?? []).map((s) => `${apiVersion(r.doc)} ${k.plural}/${s}`))).sort();
  return { groups, definitions: new Map([...definitions].map(([n, { schema }]) => [n, schema])), packages, notOffered };
}

const NOT_OFFERED = new WeakMap<KindModel, readonly string[]>();

function apiVersion(doc: LoadedDocument): string {
  return doc.group === '' ? doc.version : `${doc.group}/${doc.version}`;
}

/** `io.k8s.api.apps.v1.Deployment` → `io.k8s.api.apps.v1`. */
export function packageOf(definition: string): string {
  return definition.slice(0, definition.lastIndexOf('.'));
}

/** meta/v1, resource.Quantity, intstr, runtime: typed by apis/meta/v1, never printed. */
export function isApimachinery(definition: string): boolean {
  return definition.startsWith('io.k8s.apimachinery.');
}

function readVersion(doc: LoadedDocument, problems: Problems): ReadVersion {
  const defs = normalizeDefinitions(doc.document, doc.file, problems);
  const resources = readResources(doc.document, doc.file, doc.group, doc.version, problems);
  const kinds: KindModel[] = [];
  const roots: string[] = [];
  const seen = new Map<string, string>();
  for (const r of resources) {
    const definition = kindDefinition(defs, doc, r, problems);
    if (definition === undefined) continue;
    const other = seen.get(r.kind);
    if (other !== undefined) problems.add(doc.file, r.at, `kind ${r.kind} is served by ${other} and ${r.plural}`);
    seen.set(r.kind, r.plural);
    const kind = kindModel(defs, doc, r, definition, problems);
    if (kind === undefined) continue;
    NOT_OFFERED.set(kind, r.otherSubresources);
    kinds.push(kind);
    roots.push(definition, ...(r.listDefinition === undefined ? [] : [r.listDefinition]));
  }
  const packageNames = new Set(kinds.map((k) => packageOf(k.definition)));
  if (packageNames.size > 1) problems.add(doc.file, pointer('paths'), `the kinds' definitions are in ${packageNames.size} packages (${[...packageNames].join(', ')}), expected one`);
  if (resources.length === 0) problems.add(doc.file, pointer('paths'), `no resources of ${apiVersion(doc)}`);
  kinds.sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  return { doc, packageName: [...packageNames][0] ?? '', kinds, roots, defs };
}

/** The one definition carrying the resource's group, version and kind, with apiVersion, kind and metadata. */
function kindDefinition(defs: ReadonlyMap<string, JSONSchemaProps>, doc: LoadedDocument, r: ResourceInfo, problems: Problems): string | undefined {
  const matches = [...defs.entries()].filter(([, s]) => gvks(s).some((g) => g.group === doc.group && g.version === doc.version && g.kind === r.kind));
  if (matches.length !== 1) {
    problems.add(doc.file, r.at, `${matches.length} definitions carry x-kubernetes-group-version-kind ${apiVersion(doc)} ${r.kind}, expected one`);
    return undefined;
  }
  const [name, schema] = matches[0]!;
  const missing = ['apiVersion', 'kind', 'metadata'].filter((p) => !Object.hasOwn(schema.properties ?? {}, p));
  if (missing.length > 0) {
    problems.add(doc.file, pointer('components', 'schemas', name), `kind ${r.kind} (resource ${r.plural}) has no ${missing.join(', ')}`);
    return undefined;
  }
  return name;
}

function gvks(s: JSONSchemaProps): { group?: unknown; version?: unknown; kind?: unknown }[] {
  const v = (s as Record<string, unknown>)['x-kubernetes-group-version-kind'];
  return Array.isArray(v) ? (v as { group?: unknown; version?: unknown; kind?: unknown }[]) : [];
}

function kindModel(defs: ReadonlyMap<string, JSONSchemaProps>, doc: LoadedDocument, r: ResourceInfo, definition: string, problems: Problems): KindModel | undefined {
  const at = pointer('components', 'schemas', definition);
  // Null prototype: a $ref to `constructor` is a missing definition, not Object's.
  const lookup = Object.assign(Object.create(null) as Record<string, JSONSchemaProps>, Object.fromEntries(defs));
  let schema: JSONSchemaProps;
  try {
    schema = inlineSchema(defs.get(definition)!, lookup, { onRecursion: (rec) => problems.add(doc.file, at, `recursive definition ${rec.ref} at ${rec.path}`) });
  } catch (err) {
    problems.add(doc.file, at, (err as Error).message);
    return undefined;
  }
  const listKind = r.listDefinition === undefined ? `${r.kind}List` : listKindOf(defs, r.listDefinition, doc, r, problems);
  if (r.scale && !(hasPath(schema, ['spec', 'replicas']) && hasPath(schema, ['status', 'replicas']))) {
    problems.add(doc.file, at, `${r.plural}/scale: ${r.kind} has no spec.replicas and status.replicas to scale`);
  }
  const clientName = groupClientName(doc.group);
  return {
    kind: r.kind,
    listKind,
    plural: r.plural,
    // kube's singular resource name; short names and categories are not in the documents (discovery has them).
    singular: r.kind.toLowerCase(),
    shortNames: [],
    categories: [],
    scope: r.scope,
    verbs: r.verbs,
    subresources: { status: r.status, scale: r.scale ? { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: undefined } : undefined },
    printerColumns: [],
    selectableFields: [],
    definition,
    // Descriptions stay with the named types: the inline schema only serves apply and extract.
    schema: withoutDescriptions(schema),
    description: defs.get(definition)!.description ?? '',
    typeRef: { module: `${GENERATED}/types/${clientName}/${doc.version}`, name: r.kind },
    hooks: { conversion: undefined, defaults: undefined, strategy: undefined },
    source: { file: doc.file, line: 1 },
  };
}

function listKindOf(defs: ReadonlyMap<string, JSONSchemaProps>, name: string, doc: LoadedDocument, r: ResourceInfo, problems: Problems): string {
  const kinds = gvks(defs.get(name) ?? {}).filter((g) => g.group === doc.group && g.version === doc.version);
  const kind = kinds.length === 1 && typeof kinds[0]!.kind === 'string' ? kinds[0]!.kind : undefined;
  if (kind === undefined) {
    problems.add(doc.file, r.at, `the list of ${r.plural} answers with ${name}, which is no kind of ${apiVersion(doc)}`);
    return `${r.kind}List`;
  }
  return kind;
}

function hasPath(schema: JSONSchemaProps, path: readonly string[]): boolean {
  let node: JSONSchemaProps | undefined = schema;
  for (const p of path) node = node !== undefined && Object.hasOwn(node.properties ?? {}, p) ? node.properties![p] : undefined;
  return node !== undefined;
}

function withoutDescriptions(schema: JSONSchemaProps): JSONSchemaProps {
  return JSON.parse(JSON.stringify(schema, (key: string, value: unknown) => (key === 'description' && typeof value === 'string' ? undefined : value))) as JSONSchemaProps;
}

/**
 * Every definition the kinds and lists reach, from the document that reaches it; a definition two
 * documents both carry (core/v1's PodSpec in apps/v1's) must be the same in both.
 */
function collectDefinitions(read: readonly ReadVersion[], problems: Problems): Map<string, { schema: JSONSchemaProps; file: string }> {
  const out = new Map<string, { schema: JSONSchemaProps; file: string }>();
  for (const r of read) {
    const pending = [...r.roots];
    const done = new Set<string>();
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (done.has(name)) continue;
      done.add(name);
      const schema = r.defs.get(name);
      if (schema === undefined) {
        problems.add(r.doc.file, pointer('components', 'schemas', name), 'referenced but not defined');
        continue;
      }
      const first = out.get(name);
      if (first === undefined) out.set(name, { schema, file: r.doc.file });
      else if (!isDeepStrictEqual(first.schema, schema)) problems.add(r.doc.file, pointer('components', 'schemas', name), `differs from the same definition in ${first.file}`);
      if (!isApimachinery(name)) pending.push(...refsOf(schema));
    }
  }
  return new Map([...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
