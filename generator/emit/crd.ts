import { CodegenError, type Diagnostic } from '../model/diagnostics.js';
import type { ApiModel, GroupModel, KindModel, VersionModel } from '../model/types.js';
import type { CustomResourceConversion, CustomResourceDefinition, CustomResourceDefinitionVersion } from '../../apis/apiextensions/v1/types.js';
import { crdSchema } from './crd-schema.js';
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
  const problems: Diagnostic[] = [];
  for (const group of model.groups) {
    if (group.origin !== 'source' || isReservedGroup(group.name)) continue;
    const kinds = new Map<string, { version: VersionModel; kind: KindModel }[]>();
    for (const version of group.versions) {
      for (const kind of version.kinds) kinds.set(kind.kind, [...(kinds.get(kind.kind) ?? []), { version, kind }]);
    }
    for (const [, entries] of [...kinds.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const note = conversionNote(entries);
      out.push({ path: paths.crd(group, entries[0]!.kind), format: 'yaml', value: crdFor(group, entries, problems), ...(note === undefined ? {} : { comment: note }) });
    }
  }
  if (problems.length > 0) throw new CodegenError(problems);
  return out;
}

export function isReservedGroup(group: string): boolean {
  return group === '' || group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

/** The CRD of one kind across its versions; `entries` are in version priority order. What a CRD cannot say goes to `problems`. */
export function crdFor(group: GroupModel, entries: readonly { version: VersionModel; kind: KindModel }[], problems: Diagnostic[]): CustomResourceDefinition {
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
      versions: entries.map(({ version, kind }) => crdVersion(version, kind, version === storageVersion.version, problems)),
      ...(entries.length > 1 ? { conversion: conversionFor(entries) } : {}),
    },
  };
}

/**
 * The conversion webhook an exported CRD names until its user points it at theirs: the Service
 * kubebuilder's `webhook_in_<kind>` kustomize patch names (`system/webhook-service`, path
 * `/convert`), which kube-apiserver accepts as it stands.
 */
export const CONVERSION_WEBHOOK_PLACEHOLDER = { namespace: 'system', name: 'webhook-service', path: '/convert' } as const;

/** Whether a kind's versions need converting: model validation requires a conversion wherever a version's schema differs from the hub's, and one may also change values of an unchanged schema. */
function needsConversion(entries: readonly { kind: KindModel }[]): boolean {
  return entries.some(({ kind }) => kind.hooks.conversion !== undefined);
}

/**
 * spec.conversion of a kind with several versions. This server converts in process; another
 * cluster needs a webhook wherever the versions differ, for strategy None only rewrites
 * apiVersion, and kube-apiserver would prune what one version calls by another name. So such
 * kinds name a webhook (controller-gen leaves that to a kustomize patch carrying the webhook's
 * Service; a manifest without it would install and silently drop fields): requests in the
 * storage version work as they are, others fail loudly until the placeholder is filled in.
 * Versions with one schema and no conversion keep strategy None.
 */
function conversionFor(entries: readonly { kind: KindModel }[]): CustomResourceConversion {
  if (!needsConversion(entries)) return { strategy: 'None' };
  return {
    strategy: 'Webhook',
    webhook: { clientConfig: { service: { ...CONVERSION_WEBHOOK_PLACEHOLDER } }, conversionReviewVersions: ['v1'] },
  };
}

/** The header note of a CRD with several versions: what its conversion means outside this server. */
function conversionNote(entries: readonly { version: VersionModel; kind: KindModel }[]): string | undefined {
  if (entries.length < 2) return undefined;
  const kind = entries[0]!.kind.kind;
  const names = entries.map((e) => e.version.name);
  const versions = `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  if (!needsConversion(entries)) {
    return `${kind} has one schema in ${versions}: spec.conversion is strategy None (only apiVersion changes between versions).`;
  }
  const storage = (entries.find((e) => e.version.storage) ?? entries[0]!).version.name;
  const modules = entries.flatMap((e) => (e.kind.hooks.conversion === undefined ? [] : [`${e.kind.hooks.conversion.module}.ts`]));
  const { namespace, name, path } = CONVERSION_WEBHOOK_PLACEHOLDER;
  return (
    `${kind} differs between versions ${versions}. This server converts between them in process (${modules.join(', ')}); ` +
    'installed into another cluster, the CRD needs a conversion webhook for that. spec.conversion is strategy Webhook with a ' +
    `placeholder Service (${namespace}/${name}, path ${path}): point it at your webhook (for instance with a kustomize patch, as ` +
    `kubebuilder does) before using a version other than the storage version ${storage}. Until then requests in ${storage} work ` +
    'and others fail; strategy None would instead silently drop the fields that differ between versions.'
  );
}

function crdVersion(version: VersionModel, kind: KindModel, storage: boolean, problems: Diagnostic[]): CustomResourceDefinitionVersion {
  const out: CustomResourceDefinitionVersion = {
    name: version.name,
    served: true,
    storage,
    schema: { openAPIV3Schema: crdSchema(kind, problems) },
  };
  if (version.deprecation !== undefined) {
    out.deprecated = true;
    if (version.deprecation.warning !== undefined) out.deprecationWarning = version.deprecation.warning;
  }
  if (kind.subresources.status || kind.subresources.scale !== undefined) {
    out.subresources = {
      ...(kind.subresources.status ? { status: {} } : {}),
      ...(kind.subresources.scale === undefined
        ? {}
        : {
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
