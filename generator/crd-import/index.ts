import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CustomResourceDefinition } from '../../apis/apiextensions/v1/types.js';
import type { DiagnosticSink } from '../model/diagnostics.js';
import { inlineSchema } from '../model/inline.js';
import { compareVersionPriority, groupClientName } from '../model/names.js';
import { ALL_VERBS, type GroupModel, type KindModel, type SourceLocation, type VersionModel } from '../model/types.js';
import { defaultOpenAPIPackage } from '../parse/packages.js';
import type { OutputFile } from '../emit/output.js';
import { GENERATED, importFrom, paths } from '../emit/paths.js';
import { HEADER_TEXT } from '../print/header.js';
import type { CodegenCache } from './cache.js';
import { type ReadManifest, readManifest } from './read.js';
import { printTypes } from './types.js';

/** Where imported CRD manifests are kept: every run regenerates their clients. */
export const CRD_DIR = 'apis/crds';

export interface CRDFile {
  /** Project-relative path (or the path given on the command line), as errors name it. */
  readonly path: string;
  readonly text: string;
}

interface Located {
  readonly crd: CustomResourceDefinition;
  readonly at: SourceLocation;
}

/**
 * Reads CustomResourceDefinition manifests into model groups of origin
 * `crd`: no server code is generated for them, only TypeScript types and the
 * same typed clients, listers and informers as for groups defined in
 * TypeScript. Collisions that would make two things one (the same CRD twice,
 * a kind defined twice in a group, two groups with one client name, a group
 * that apis/ defines) are errors naming both places.
 */
export function readCRDGroups(files: readonly CRDFile[], sink: DiagnosticSink, cache: CodegenCache, sourceGroups: readonly GroupModel[] = []): GroupModel[] {
  const byGroup = new Map<string, Located[]>();
  const seen = new Map<string, SourceLocation>();
  const fileByBase = new Map<string, string>();
  for (const file of files) {
    const base = basename(file.path);
    const other = fileByBase.get(base);
    if (other !== undefined) {
      sink.error({ file: file.path, line: 1 }, `another manifest has the same file name: ${other} (both would be kept as ${CRD_DIR}/${base})`);
      continue;
    }
    fileByBase.set(base, file.path);
    const manifest = readCached(file.text, cache);
    for (const p of manifest.problems) sink.error({ file: file.path, line: p.line }, p.message);
    for (const { crd, line } of manifest.crds) {
      const at = { file: file.path, line };
      const name = `${crd.spec.names.plural}.${crd.spec.group}`;
      const first = seen.get(name) ?? seen.get(`${crd.spec.group}/${crd.spec.names.kind}`);
      if (first !== undefined) {
        sink.error(at, `CustomResourceDefinition ${name} (kind ${crd.spec.names.kind}) is also defined at ${where(first)}`);
        continue;
      }
      seen.set(name, at);
      seen.set(`${crd.spec.group}/${crd.spec.names.kind}`, at);
      byGroup.set(crd.spec.group, [...(byGroup.get(crd.spec.group) ?? []), { crd, at }]);
    }
  }
  checkClientNames(byGroup, sourceGroups, sink);
  return [...byGroup.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([group, crds]) => crdGroup(group, crds));
}

/** A client name is one accessor and one directory under generated/: it must name one group. */
function checkClientNames(byGroup: ReadonlyMap<string, readonly Located[]>, sourceGroups: readonly GroupModel[], sink: DiagnosticSink): void {
  const owners = new Map<string, { group: string; at: SourceLocation }>();
  for (const g of sourceGroups) {
    const at = g.versions.flatMap((v) => v.kinds).find((k) => k.source !== undefined)?.source ?? { file: g.dir ?? 'apis', line: 1 };
    owners.set(g.clientName, { group: g.name, at });
  }
  for (const [group, crds] of [...byGroup].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const at = crds[0]!.at;
    const clientName = groupClientName(group);
    const owner = owners.get(clientName);
    if (owner === undefined) {
      owners.set(clientName, { group, at });
    } else if (owner.group === group) {
      sink.error(at, `imported CRD group ${group} is also defined in apis/ (${where(owner.at)})`);
    } else {
      sink.error(at, `group ${group} and group ${owner.group} (${where(owner.at)}) would both have the client name "${clientName}" (generated/*/${clientName}/)`);
    }
  }
}

function where(at: SourceLocation): string {
  return `${at.file}:${at.line}`;
}

/** A manifest read once per content: YAML parsing is the slow part of a large CRD set. */
function readCached(text: string, cache: CodegenCache): ReadManifest {
  const key = cache.key('crd-manifest', text);
  const hit = cache.read('crd', key);
  if (hit !== undefined) return JSON.parse(hit) as ReadManifest;
  const manifest = readManifest(text);
  cache.write('crd', key, JSON.stringify(manifest));
  return manifest;
}

function crdGroup(group: string, crds: readonly Located[]): GroupModel {
  const clientName = groupClientName(group);
  const versionNames = [...new Set(crds.flatMap(({ crd }) => crd.spec.versions.filter((v) => v.served).map((v) => v.name)))].sort(compareVersionPriority);
  const versions = versionNames.map((name): VersionModel => {
    const kinds = crds
      .flatMap(({ crd, at }): KindModel[] => {
        const v = crd.spec.versions.find((x) => x.name === name && x.served);
        if (v === undefined) return [];
        const schema = v.schema!.openAPIV3Schema!;
        const names = crd.spec.names;
        const scale = v.subresources?.scale;
        return [
          {
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
              name: c.name,
              type: c.type as KindModel['printerColumns'][number]['type'],
              jsonPath: c.jsonPath,
              description: c.description,
              format: c.format,
              priority: c.priority ?? 0,
            })),
            selectableFields: (v.selectableFields ?? []).map((f) => f.jsonPath),
            definition: `${defaultOpenAPIPackage(group, name)}.${names.kind}`,
            schema: inlineSchema(schema, {}),
            description: schema.description ?? '',
            typeRef: { module: `${GENERATED}/types/${clientName}/${name}`, name: names.kind },
            hooks: { conversion: undefined, defaults: undefined, strategy: undefined },
            source: at,
          },
        ];
      })
      .sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
    const storage = crds.some(({ crd }) => crd.spec.versions.some((v) => v.name === name && v.storage));
    const deprecated = crds.flatMap(({ crd }) => crd.spec.versions).find((v) => v.name === name && v.deprecated === true);
    const deprecation = deprecated === undefined ? undefined : { warning: deprecated.deprecationWarning };
    return { name, dir: undefined, storage, hub: storage, deprecation, openapiPackage: defaultOpenAPIPackage(group, name), kinds, protobuf: [] };
  });
  return { name: group, dir: undefined, clientName, origin: 'crd', versions };
}

/** Reads every manifest under apis/crds/ (sorted), for the main codegen run. */
export function readCRDDir(root: string): CRDFile[] {
  const dir = join(root, CRD_DIR);
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.yaml') || n.endsWith('.yml'))
      .sort();
  } catch {
    return [];
  }
  return names.map((n) => ({ path: `${CRD_DIR}/${n}`, text: readFileSync(join(dir, n), 'utf8') }));
}

/**
 * TypeScript types of imported kinds, one module per group version (see
 * printTypes), each printed once per content of its kinds' schemas.
 */
export function emitCRDTypes(groups: readonly GroupModel[], cache: CodegenCache): OutputFile[] {
  const out: OutputFile[] = [];
  for (const group of groups.filter((g) => g.origin === 'crd')) {
    for (const version of group.versions) {
      const path = paths.types(group, version);
      const kinds = version.kinds.map((k) => ({ kind: k.kind, description: k.description, schema: k.schema }));
      const key = cache.key('crd-types', JSON.stringify(kinds));
      let body = cache.read('types', key);
      if (body === undefined) {
        body = printTypes(kinds);
        cache.write('types', key, body);
      }
      const text = [`// ${HEADER_TEXT}`, '', `import type { ObjectMeta } from '${importFrom(path, paths.metaTypes)}';`, '', body, ''].join('\n');
      out.push({ path, format: 'text', text });
    }
  }
  return out;
}

/** Whether a manifest holds a CustomResourceDefinition (or a problem to report): what `--crd` keeps. */
export function holdsCRDs(text: string, cache: CodegenCache): boolean {
  const manifest = readCached(text, cache);
  return manifest.crds.length > 0 || manifest.problems.length > 0;
}
