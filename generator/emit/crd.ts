import { PATCH_MERGE_KEY, PATCH_STRATEGY, type JSONSchemaProps } from '../model/schema.js';
import type { ApiModel, GroupModel, KindModel, VersionModel } from '../model/types.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '../../apis/apiextensions/v1/types.js';
import type { OutputFile } from './output.js';
import { paths } from './paths.js';

/**
 * A CustomResourceDefinition per kind, as controller-gen writes them, so the
 * same types install into any Kubernetes cluster with `kubectl apply -f`.
 * Groups Kubernetes reserves (the core group and `*.k8s.io`) get none: a
 * real cluster already serves them and refuses CRDs in them.
 */
export function emitCRDs(model: ApiModel): OutputFile[] {
  const out: OutputFile[] = [];
  for (const group of model.groups) {
    if (group.origin !== 'source' || isReservedGroup(group.name)) continue;
    const kinds = new Map<string, { version: VersionModel; kind: KindModel }[]>();
    for (const version of group.versions) {
      for (const kind of version.kinds) kinds.set(kind.kind, [...(kinds.get(kind.kind) ?? []), { version, kind }]);
    }
    for (const [, entries] of [...kinds.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      out.push({ path: paths.crd(group, entries[0]!.kind), format: 'yaml', value: crdFor(group, entries) });
    }
  }
  return out;
}

export function isReservedGroup(group: string): boolean {
  return group === '' || group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

/** The CRD of one kind across its versions; `entries` are in version priority order. */
export function crdFor(group: GroupModel, entries: readonly { version: VersionModel; kind: KindModel }[]): CustomResourceDefinition {
  const first = entries[0]!.kind;
  const storageVersion = entries.find((e) => e.version.storage) ?? entries.find((e) => e.version.hub) ?? entries[0]!;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${first.plural}.${group.name}` },
    spec: {
      group: group.name,
      names: {
        kind: first.kind,
        listKind: first.listKind,
        plural: first.plural,
        singular: first.singular,
        ...(first.shortNames.length > 0 ? { shortNames: [...first.shortNames] } : {}),
        ...(first.categories.length > 0 ? { categories: [...first.categories] } : {}),
      },
      scope: first.scope,
      versions: entries.map(({ version, kind }) => crdVersion(version, kind, version === storageVersion.version)),
    },
  };
}

function crdVersion(version: VersionModel, kind: KindModel, storage: boolean): CustomResourceDefinitionVersion {
  const out: CustomResourceDefinitionVersion = {
    name: version.name,
    served: true,
    storage,
    schema: { openAPIV3Schema: withoutPatchHints(kind.schema) },
  };
  if (version.deprecation !== undefined) {
    out.deprecated = true;
    if (version.deprecation.warning !== undefined) out.deprecationWarning = version.deprecation.warning;
  }
  if (kind.subresources.status || kind.subresources.scale !== undefined) {
    out.subresources = {
      ...(kind.subresources.status ? { status: {} } : {}),
      ...(kind.subresources.scale === undefined ? {} : {
        scale: {
          specReplicasPath: kind.subresources.scale.specReplicasPath,
          statusReplicasPath: kind.subresources.scale.statusReplicasPath,
          ...(kind.subresources.scale.labelSelectorPath === undefined ? {} : { labelSelectorPath: kind.subresources.scale.labelSelectorPath }),
        },
      }),
    };
  }
  if (kind.printerColumns.length > 0) {
    out.additionalPrinterColumns = kind.printerColumns.map((c) => ({
      name: c.name,
      type: c.type,
      jsonPath: c.jsonPath,
      ...(c.description === undefined ? {} : { description: c.description }),
      ...(c.format === undefined ? {} : { format: c.format }),
      ...(c.priority === 0 ? {} : { priority: c.priority }),
    }));
  }
  if (kind.selectableFields.length > 0) out.selectableFields = kind.selectableFields.map((jsonPath) => ({ jsonPath }));
  return out;
}

/** Drops strategic-merge-patch hints, which a CRD schema may not carry. */
export function withoutPatchHints(schema: JSONSchemaProps): JSONSchemaProps {
  return JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key === PATCH_STRATEGY || key === PATCH_MERGE_KEY ? undefined : value))) as JSONSchemaProps;
}
