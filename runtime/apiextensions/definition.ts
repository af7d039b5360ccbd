import type { CustomResourceDefinition, CustomResourceDefinitionVersion, JSONSchemaProps } from '../../apis/apiextensions/v1/types.js';
import type { APIGroupDefinition, APIVersionDefinition } from '../registry/types.js';
import type { PrinterColumnDefinition, ResourceDefinition, Verb } from '../apimachinery/definition/resource.js';
import { compareVersionsForDiscovery } from '../server/discovery/version-order.js';
import { deprecationWarningOf, servedNames, storageVersionOf } from './apihelpers.js';
import { customResourceStrategy } from './strategy.js';

/** A CRD's resources answer every verb, in kube's order for custom resources. */
const CR_VERBS: readonly Verb[] = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

/** What a version without a schema is (only CRDs that preserve unknown fields have one). */
const OPEN_SCHEMA: JSONSchemaProps = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

const PRINTER_COLUMN_TYPES: ReadonlySet<string> = new Set(['integer', 'number', 'string', 'boolean', 'date']);

/**
 * The group definition of one CRD, as generated/registry declares the groups from apis/: every
 * version of the CRD (served or not: conversions may go through any), ordered by kube's version
 * priority, one resource each, the storage version as hub. Built from the served names
 * (acceptedNames). Schemas are private copies, so a definition never shares state with the
 * CRD object it came from. Throws for a CRD without a storage version (validation forbids it).
 */
export function crdGroupDefinition(crd: CustomResourceDefinition): APIGroupDefinition {
  const storageVersion = storageVersionOf(crd);
  if (storageVersion === undefined) throw new Error(`CustomResourceDefinition ${crd.metadata?.name ?? ''} has no storage version`);
  const versions = [...crd.spec.versions].sort((a, b) => compareVersionsForDiscovery(a.name, b.name));
  return {
    name: crd.spec.group,
    versions: versions.map((v) => versionDefinition(crd, v)),
    hubVersion: storageVersion,
    storageVersion,
  };
}

/**
 * `group` as the store of requests through `version` sees it. kube builds one REST storage per
 * served version over the CRD's one storage (getOrCreateServingInfo), each with that version's
 * strategy, status, scale and selectable fields: here the store speaks the hub (storage)
 * version, so its hub resource takes those of `version`. The hub version's is `group` itself.
 */
export function storeGroupFor(group: APIGroupDefinition, version: string): APIGroupDefinition {
  const served = group.versions.find((v) => v.name === version)?.resources[0];
  if (version === group.hubVersion || served === undefined) return group;
  return {
    ...group,
    versions: group.versions.map((v) =>
      v.name !== group.hubVersion
        ? v
        : {
            ...v,
            resources: v.resources.map((r) => ({
              ...r,
              subresources: served.subresources,
              selectableFields: served.selectableFields,
              ...(served.strategy !== undefined ? { strategy: served.strategy } : {}),
            })),
          },
    ),
  };
}

/** The names of the versions a CRD serves, in priority order (first = preferred). */
export function servedVersionNames(crd: CustomResourceDefinition): string[] {
  return crd.spec.versions
    .filter((v) => v.served)
    .map((v) => v.name)
    .sort(compareVersionsForDiscovery);
}

function versionDefinition(crd: CustomResourceDefinition, v: CustomResourceDefinitionVersion): APIVersionDefinition {
  const warning = deprecationWarningOf(crd, v);
  return {
    name: v.name,
    ...(warning !== undefined ? { deprecation: { warning } } : {}),
    openapi: { components: { schemas: {} } },
    resources: [resourceDefinition(crd, v)],
  };
}

function resourceDefinition(crd: CustomResourceDefinition, v: CustomResourceDefinitionVersion): ResourceDefinition {
  const names = servedNames(crd);
  const schema = structuredClone(v.schema?.openAPIV3Schema ?? OPEN_SCHEMA);
  const scale = v.subresources?.scale;
  const scalePaths =
    scale === undefined
      ? undefined
      : {
          specReplicasPath: scale.specReplicasPath,
          statusReplicasPath: scale.statusReplicasPath,
          ...(scale.labelSelectorPath !== undefined ? { labelSelectorPath: scale.labelSelectorPath } : {}),
        };
  return {
    kind: names.kind,
    listKind: names.listKind,
    plural: names.plural,
    singular: names.singular,
    shortNames: names.shortNames,
    categories: names.categories,
    namespaced: crd.spec.scope === 'Namespaced',
    verbs: CR_VERBS,
    subresources: { status: v.subresources?.status !== undefined, ...(scalePaths !== undefined ? { scale: scalePaths } : {}) },
    printerColumns: (v.additionalPrinterColumns ?? []).map(printerColumn),
    selectableFields: (v.selectableFields ?? []).map((f) => f.jsonPath),
    schema,
    openapiDefinition: openAPIDefinitionName(crd.spec.group, v.name, names.kind),
    strategy: customResourceStrategy(scalePaths) as ResourceDefinition['strategy'],
  };
}

/** Validation only lets the five column types through; anything else prints as a string. */
function printerColumn(c: NonNullable<CustomResourceDefinitionVersion['additionalPrinterColumns']>[number]): PrinterColumnDefinition {
  return {
    name: c.name,
    type: (PRINTER_COLUMN_TYPES.has(c.type) ? c.type : 'string') as PrinterColumnDefinition['type'],
    jsonPath: c.jsonPath,
    ...(c.description !== undefined ? { description: c.description } : {}),
    ...(c.format !== undefined ? { format: c.format } : {}),
    priority: c.priority ?? 0,
  };
}

/** The OpenAPI component name kube gives a CRD's kind: the group reversed, then version and kind (`com.example.v1.Widget` for example.com). */
export function openAPIDefinitionName(group: string, version: string, kind: string): string {
  return [...group.split('.').reverse(), version, kind].join('.');
}
