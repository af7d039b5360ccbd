import { OpenApiBuilder, type ReferenceObject, type SchemaObject } from 'openapi3-ts/oas30';
import type { JSONSchemaProps } from '../model/schema.js';
import type { ApiModel, GroupModel, KindModel, VersionModel } from '../model/types.js';
import type { OutputFile } from './output.js';
import { paths } from './paths.js';

/** OpenAPI definition names of the shared meta types (apis/meta/v1/doc.ts sets this package). */
export const META_PACKAGE = 'io.k8s.apimachinery.pkg.apis.meta.v1';

/**
 * An OpenAPI 3.0 document per served group version, with a component per
 * kind, per list kind and per type they reference. Kinds carry
 * `x-kubernetes-group-version-kind`, which `kubectl explain` and client-side
 * validation look up. The server adds paths when it serves the document.
 */
export function emitOpenAPI(model: ApiModel): OutputFile[] {
  const out: OutputFile[] = [];
  for (const group of model.groups.filter((g) => g.origin === 'source')) {
    for (const version of group.versions) {
      if (version.kinds.length === 0) continue;
      out.push({ path: paths.openapi(group, version), format: 'json', value: openAPIDocument(model, group, version) });
    }
  }
  return out;
}

export function openAPIDocument(model: ApiModel, group: GroupModel, version: VersionModel): unknown {
  const builder = OpenApiBuilder.create()
    .addOpenApiVersion('3.0.0')
    .addTitle(group.name === '' ? 'Kubernetes core' : group.name)
    .addVersion(version.name);
  const needed = new Set<string>();
  const visit = (name: string): void => {
    if (needed.has(name)) return;
    const def = model.definitions[name];
    if (def === undefined) throw new Error(`openapi: unknown definition ${name}`);
    needed.add(name);
    for (const ref of references(def)) visit(ref);
  };
  for (const kind of version.kinds) visit(kind.definition);
  visit(`${META_PACKAGE}.ListMeta`);
  for (const name of [...needed].sort()) {
    const schema = toOpenAPI(model.definitions[name]!);
    const kind = version.kinds.find((k) => k.definition === name);
    if (kind !== undefined) (schema as SchemaObject)['x-kubernetes-group-version-kind'] = [gvk(group, version, kind.kind)];
    builder.addSchema(name, schema);
  }
  for (const kind of version.kinds) builder.addSchema(`${kind.definition}List`, listSchema(group, version, kind));
  return builder.getSpec();
}

function gvk(group: GroupModel, version: VersionModel, kind: string): Record<string, string> {
  return { group: group.name, kind, version: version.name };
}

function listSchema(group: GroupModel, version: VersionModel, kind: KindModel): SchemaObject {
  return {
    description: `${kind.listKind} is a list of ${kind.kind}.`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
      items: { type: 'array', items: { $ref: componentRef(kind.definition) } },
      kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
      metadata: { allOf: [{ $ref: componentRef(`${META_PACKAGE}.ListMeta`) }], default: {} },
    },
    'x-kubernetes-group-version-kind': [gvk(group, version, kind.listKind)],
  };
}

function componentRef(name: string): string {
  return `#/components/schemas/${name}`;
}

/**
 * Model schemas reference definitions by bare name; OpenAPI 3.0 needs
 * component pointers, and ignores keywords beside a `$ref`, so a field that
 * adds a description or default wraps the reference in `allOf`, as
 * kube-openapi does.
 */
export function toOpenAPI(schema: JSONSchemaProps): SchemaObject | ReferenceObject {
  const convert = (s: JSONSchemaProps): SchemaObject | ReferenceObject => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(s)) {
      if (key === '$ref') continue;
      if (key === 'properties' || key === 'patternProperties' || key === 'definitions') {
        out[key] = Object.fromEntries(Object.entries(value as Record<string, JSONSchemaProps>).map(([k, v]) => [k, convert(v)]));
      } else if (key === 'items' || key === 'not' || (key === 'additionalProperties' && typeof value === 'object')) {
        out[key] = Array.isArray(value) ? value.map(convert) : convert(value as JSONSchemaProps);
      } else if (key === 'allOf' || key === 'anyOf' || key === 'oneOf') {
        out[key] = (value as JSONSchemaProps[]).map(convert);
      } else {
        out[key] = value;
      }
    }
    if (s.$ref === undefined) return out as SchemaObject;
    if (Object.keys(out).length === 0) return { $ref: componentRef(s.$ref) };
    return { allOf: [{ $ref: componentRef(s.$ref) }], ...out } as SchemaObject;
  };
  return convert(schema);
}

function references(schema: JSONSchemaProps): string[] {
  const found: string[] = [];
  JSON.stringify(schema, (key, value: unknown) => {
    if (key === '$ref' && typeof value === 'string') found.push(value);
    return value;
  });
  return found;
}
