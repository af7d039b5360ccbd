import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { parseAllDocuments } from 'yaml';
import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import { DiagnosticSink } from '../model/diagnostics.js';
import { inlineSchema } from '../model/inline.js';
import { compareVersionPriority, groupClientName } from '../model/names.js';
import type { JSONSchemaProps } from '../model/schema.js';
import { ALL_VERBS, type GroupModel, type KindModel, type VersionModel } from '../model/types.js';
import { defaultOpenAPIPackage } from '../parse/packages.js';
import type { OutputFile } from '../emit/output.js';
import { GENERATED, importFrom, paths } from '../emit/paths.js';
import { HEADER_TEXT } from '../print/header.js';

/** Where imported CRD manifests are kept: every run regenerates their clients. */
export const CRD_DIR = 'apis/crds';

/**
 * Reads CustomResourceDefinition manifests (multi-document YAML) into model
 * groups of origin `crd`: no server code is generated for them, only
 * TypeScript types and the same typed clients, listers and informers as for
 * groups defined in TypeScript.
 */
export function readCRDGroups(files: readonly { path: string; text: string }[], sink: DiagnosticSink): GroupModel[] {
  const byGroup = new Map<string, { crd: CustomResourceDefinition; file: string }[]>();
  for (const file of files) {
    for (const doc of parseAllDocuments(file.text)) {
      if (doc.errors.length > 0) {
        sink.error({ file: file.path, line: 1 }, `not valid YAML: ${doc.errors[0]!.message}`);
        continue;
      }
      const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
      if (value === null || value === undefined) continue;
      const crd = value as Partial<CustomResourceDefinition>;
      if (crd.apiVersion !== 'apiextensions.k8s.io/v1' || crd.kind !== 'CustomResourceDefinition' || crd.spec === undefined) {
        sink.error({ file: file.path, line: 1 }, 'only apiextensions.k8s.io/v1 CustomResourceDefinition documents can be imported');
        continue;
      }
      byGroup.set(crd.spec.group, [...(byGroup.get(crd.spec.group) ?? []), { crd: crd as CustomResourceDefinition, file: file.path }]);
    }
  }
  return [...byGroup.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([group, crds]) => crdGroup(group, crds, sink));
}

function crdGroup(group: string, crds: readonly { crd: CustomResourceDefinition; file: string }[], sink: DiagnosticSink): GroupModel {
  const clientName = groupClientName(group);
  const versionNames = [...new Set(crds.flatMap(({ crd }) => crd.spec.versions.filter((v) => v.served).map((v) => v.name)))]
    .sort(compareVersionPriority);
  const versions = versionNames.map((name): VersionModel => {
    const kinds = crds.flatMap(({ crd, file }): KindModel[] => {
      const v = crd.spec.versions.find((x) => x.name === name && x.served);
      if (v === undefined) return [];
      const schema = v.schema?.openAPIV3Schema;
      if (schema === undefined) sink.error({ file, line: 1 }, `${crd.spec.names.kind} ${name} has no openAPIV3Schema: nothing to type`);
      const names = crd.spec.names;
      const scale = v.subresources?.scale;
      return [{
        kind: names.kind,
        listKind: names.listKind ?? `${names.kind}List`,
        plural: names.plural,
        singular: names.singular ?? names.kind.toLowerCase(),
        shortNames: [...(names.shortNames ?? [])].sort(),
        categories: [...(names.categories ?? [])].sort(),
        scope: crd.spec.scope === 'Cluster' ? 'Cluster' : 'Namespaced',
        verbs: ALL_VERBS,
        subresources: {
          status: v.subresources?.status !== undefined,
          scale: scale === undefined ? undefined : { specReplicasPath: scale.specReplicasPath, statusReplicasPath: scale.statusReplicasPath, labelSelectorPath: scale.labelSelectorPath },
        },
        printerColumns: (v.additionalPrinterColumns ?? []).map((c) => ({
          name: c.name, type: c.type as KindModel['printerColumns'][number]['type'], jsonPath: c.jsonPath,
          description: c.description, format: c.format, priority: c.priority ?? 0,
        })),
        selectableFields: (v.selectableFields ?? []).map((f) => f.jsonPath),
        definition: `${defaultOpenAPIPackage(group, name)}.${names.kind}`,
        schema: inlineSchema(schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, {}),
        description: schema?.description ?? '',
        typeRef: { module: `${GENERATED}/types/${clientName}/${name}`, name: names.kind },
        hooks: { conversion: undefined, defaults: undefined, strategy: undefined },
        source: { file, line: 1 },
      }];
    }).sort((a, b) => a.kind.localeCompare(b.kind));
    const storage = crds.some(({ crd }) => crd.spec.versions.some((v) => v.name === name && v.storage));
    const deprecated = crds.flatMap(({ crd }) => crd.spec.versions).find((v) => v.name === name && v.deprecated === true);
    const deprecation = deprecated === undefined ? undefined : { warning: deprecated.deprecationWarning };
    return { name, dir: undefined, storage, hub: storage, deprecation, openapiPackage: defaultOpenAPIPackage(group, name), kinds, protobuf: [] };
  });
  return { name: group, dir: undefined, clientName, origin: 'crd', versions };
}

/** Reads every manifest under apis/crds/ (sorted), for the main codegen run. */
export function readCRDDir(root: string): { path: string; text: string }[] {
  const dir = join(root, CRD_DIR);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.yaml') || n.endsWith('.yml')).sort();
  } catch {
    return [];
  }
  return names.map((n) => ({ path: `${CRD_DIR}/${basename(n)}`, text: readFileSync(join(dir, n), 'utf8') }));
}

/**
 * TypeScript types of imported kinds, one module per group version, by
 * json-schema-to-typescript. `metadata` is typed as ObjectMeta; fields a
 * schema does not declare are not allowed unless it preserves unknown fields.
 */
export async function emitCRDTypes(groups: readonly GroupModel[]): Promise<OutputFile[]> {
  const out: OutputFile[] = [];
  for (const group of groups.filter((g) => g.origin === 'crd')) {
    for (const version of group.versions) {
      const path = paths.types(group, version);
      const parts: string[] = [];
      for (const kind of version.kinds) {
        const schema = forTypes(kind.schema, true);
        parts.push(await compile(schema as JSONSchema, kind.kind, {
          bannerComment: '',
          additionalProperties: false,
          strictIndexSignatures: true,
          unknownAny: true,
          format: true,
          declareExternallyReferenced: true,
          style: { singleQuote: true, printWidth: 120 },
        }));
      }
      const text = [
        `// ${HEADER_TEXT}`,
        '',
        `import type { ObjectMeta } from '${importFrom(path, paths.metaTypes)}';`,
        '',
        parts.map((p) => p.trim()).join('\n\n'),
        '',
      ].join('\n');
      out.push({ path, format: 'text', text });
    }
  }
  return out;
}

/** Schema adjusted for type generation: ObjectMeta for metadata, int-or-string as a union. */
function forTypes(schema: JSONSchemaProps, root: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { ...schema };
  delete out['x-kubernetes-validations'];
  if (schema['x-kubernetes-int-or-string'] === true) return { ...pickDoc(schema), tsType: 'number | string' };
  if (schema['x-kubernetes-preserve-unknown-fields'] === true && schema.properties === undefined) {
    return { ...pickDoc(schema), tsType: schema.type === 'object' ? '{ [key: string]: unknown }' : 'unknown' };
  }
  if (schema.properties !== undefined || root) {
    // Every custom resource carries apiVersion, kind and metadata whether its schema declares
    // them or not (kube's structural schemas allow them implicitly): declared first, so a schema
    // that does declare them keeps its own order and documentation.
    const props: Record<string, unknown> = root ? { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { tsType: 'ObjectMeta' } } : {};
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      props[name] = (root || schema['x-kubernetes-embedded-resource'] === true) && name === 'metadata'
        ? { tsType: 'ObjectMeta' }
        : forTypes(prop, false);
    }
    out['properties'] = props;
    if (schema['x-kubernetes-preserve-unknown-fields'] === true) out['additionalProperties'] = true;
  }
  if (schema.items !== undefined && !Array.isArray(schema.items)) out['items'] = forTypes(schema.items, false);
  if (typeof schema.additionalProperties === 'object') out['additionalProperties'] = forTypes(schema.additionalProperties, false);
  return out;
}

function pickDoc(schema: JSONSchemaProps): Record<string, unknown> {
  return schema.description === undefined ? {} : { description: schema.description };
}
