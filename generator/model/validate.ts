import type { DiagnosticSink } from './diagnostics.js';
import { inlineSchema, schemaAtPath, walkSchema } from './inline.js';
import type { JSONSchemaProps } from './schema.js';
import type { ApiModel, GroupModel, KindModel, SourceLocation, VersionModel } from './types.js';

const SIMPLE_PATH = /^(\.[A-Za-z0-9_-]+)+$/;

/**
 * Checks what no single declaration can: storage and hub versions, that
 * versions of a kind agree or declare a conversion, that paths named by
 * markers exist in the schema (CEL rules and defaults are checked at their
 * markers, generator/check).
 */
export function validateModel(model: ApiModel, sink: DiagnosticSink): void {
  const clientNames = new Map<string, string>();
  for (const group of model.groups) {
    const served = group.versions.some((v) => v.kinds.length > 0);
    if (served) {
      const other = clientNames.get(group.clientName);
      if (other !== undefined) sink.error(undefined, `groups ${other} and ${group.name} both have the client name ${group.clientName}`);
      clientNames.set(group.clientName, group.name);
    }
    validateGroupVersions(group, sink);
    for (const version of group.versions) {
      for (const kind of version.kinds) validateKind(kind, objectMeta(model), sink);
    }
  }
}

function validateGroupVersions(group: GroupModel, sink: DiagnosticSink): void {
  const where = (v: VersionModel | undefined): SourceLocation | undefined => (v?.dir === undefined ? undefined : { file: `${v.dir}/doc.ts`, line: 1 });
  const storage = group.versions.filter((v) => v.storage);
  const hubs = group.versions.filter((v) => v.hub);
  const label = group.name === '' ? 'the core group' : `group ${group.name}`;
  if (storage.length !== 1) {
    sink.error(where(storage[1] ?? group.versions[0]), `${label} needs exactly one version marked @storageVersion, found ${storage.length}`);
  }
  if (hubs.length !== 1) sink.error(where(hubs[1] ?? group.versions[0]), `${label} needs exactly one version marked @hub, found ${hubs.length}`);
  const hub = hubs[0];
  const kindNames = new Set(group.versions.flatMap((v) => v.kinds.map((k) => k.kind)));
  for (const name of kindNames) {
    const versions = group.versions.filter((v) => v.kinds.some((k) => k.kind === name));
    const hubKind = hub?.kinds.find((k) => k.kind === name);
    if (hubKind === undefined && versions.length > 1) {
      sink.error(
        versions[0]!.kinds.find((k) => k.kind === name)!.source,
        `${name} is served in ${versions.map((v) => v.name).join(', ')} but not in the hub version ${hub?.name ?? '(none)'}: conversions go through the hub`,
      );
      continue;
    }
    const first = versions[0]!.kinds.find((k) => k.kind === name)!;
    for (const v of versions) {
      const k = v.kinds.find((x) => x.kind === name)!;
      if (k.plural !== first.plural || k.scope !== first.scope) {
        sink.error(k.source, `${name} in ${v.name} has plural/scope ${k.plural}/${k.scope}, but ${first.plural}/${first.scope} in another version`);
      }
      if (hubKind === undefined || v.hub) continue;
      if (k.hooks.conversion === undefined && !sameShape(k.schema, hubKind.schema)) {
        sink.error(
          k.source,
          `${name} in ${v.name} differs from the hub version ${hub!.name} (${firstDifference(k.schema, hubKind.schema)}): export ${name}Conversion { toHub, fromHub } from ${v.dir}/conversion.ts`,
        );
      }
    }
  }
}

/** The inline schema of ObjectMeta: kinds carry `metadata: {type: object}`, yet paths into metadata are checked. */
function objectMeta(model: ApiModel): JSONSchemaProps {
  const name = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
  return model.definitions[name] === undefined ? {} : inlineSchema({ $ref: name }, model.definitions);
}

function validateKind(kind: KindModel, meta: JSONSchemaProps, sink: DiagnosticSink): void {
  const check = (path: string, what: string, types: readonly string[] | undefined): void => checkPath(kind, meta, path, what, types, sink);
  const props = kind.schema.properties ?? {};
  for (const required of ['apiVersion', 'kind', 'metadata']) {
    if (props[required] === undefined) sink.error(kind.source, `kind ${kind.kind} needs a ${required} property (extend TypeMeta and add metadata?: ObjectMeta)`);
  }
  if (kind.subresources.status && props['status'] === undefined) {
    sink.error(kind.source, `kind ${kind.kind} declares @subresource status but has no status property`);
  }
  const scale = kind.subresources.scale;
  if (scale !== undefined) {
    check(scale.specReplicasPath, 'scale specpath', ['integer']);
    check(scale.statusReplicasPath, 'scale statuspath', ['integer']);
    if (scale.labelSelectorPath !== undefined) check(scale.labelSelectorPath, 'scale selectorpath', ['string']);
  }
  for (const column of kind.printerColumns) {
    if (SIMPLE_PATH.test(column.jsonPath)) check(column.jsonPath, `printer column ${column.name}`, undefined);
  }
  for (const field of kind.selectableFields) {
    check(field, 'selectable field', ['string', 'integer', 'boolean']);
  }
  walkSchema(kind.schema, (node, path) => {
    const mapKeys = node['x-kubernetes-list-map-keys'];
    const items = Array.isArray(node.items) ? undefined : node.items;
    if (mapKeys !== undefined && items !== undefined) {
      for (const key of mapKeys) {
        const keySchema = items.properties?.[key];
        if (keySchema === undefined) sink.error(kind.source, `${kind.kind}.${path}: list map key "${key}" is not a property of the items`);
        else if (!(items.required ?? []).includes(key) && keySchema.default === undefined) {
          sink.error(kind.source, `${kind.kind}.${path}: list map key "${key}" must be required or have a @default`);
        }
      }
    }
  });
}

function checkPath(kind: KindModel, meta: JSONSchemaProps, path: string, what: string, types: readonly string[] | undefined, sink: DiagnosticSink): void {
  if (!SIMPLE_PATH.test(path)) {
    sink.error(kind.source, `kind ${kind.kind}: ${what} "${path}" must be a simple path such as .spec.replicas`);
    return;
  }
  const node = path.startsWith('.metadata.') ? schemaAtPath(meta, path.slice('.metadata'.length)) : schemaAtPath(kind.schema, path);
  if (node === undefined) {
    sink.error(kind.source, `kind ${kind.kind}: ${what} "${path}" is not a field of the schema`);
  } else if (types !== undefined && node.type !== undefined && !types.includes(node.type)) {
    sink.error(kind.source, `kind ${kind.kind}: ${what} "${path}" must be ${types.join(' or ')}, not ${node.type}`);
  }
}

/** Schemas with documentation stripped: versions that differ only in prose need no conversion. */
function shape(schema: JSONSchemaProps): unknown {
  return JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key === 'description' ? undefined : value)));
}

function sameShape(a: JSONSchemaProps, b: JSONSchemaProps): boolean {
  return JSON.stringify(shape(a)) === JSON.stringify(shape(b));
}

function firstDifference(a: JSONSchemaProps, b: JSONSchemaProps, path = ''): string {
  const pa = a.properties ?? {};
  const pb = b.properties ?? {};
  for (const name of [...new Set([...Object.keys(pa), ...Object.keys(pb)])].sort()) {
    const at = path === '' ? name : `${path}.${name}`;
    if (pa[name] === undefined) return `${at} only in the hub`;
    if (pb[name] === undefined) return `${at} not in the hub`;
    if (!sameShape(pa[name], pb[name])) return firstDifference(pa[name], pb[name], at);
  }
  return path === '' ? 'schema' : path;
}
