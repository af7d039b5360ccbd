import { isDeepStrictEqual } from 'node:util';
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionSpec,
  CustomResourceSubresources,
  CustomResourceValidation,
  SelectableField,
  WebhookClientConfig,
} from '../../../apis/apiextensions/v1/types.js';

/**
 * The CRD spec as kube validates it: in its internal version, where per-version schemas,
 * subresources, printer columns and selectable fields that are the same in every version move
 * to the spec (so errors name `spec.validation.openAPIV3Schema…` for a single-version CRD), and
 * the webhook's fields sit on the conversion itself (`spec.conversion.webhookClientConfig`).
 * Built by toInternalSpec; values are shared with the v1 object, never mutated.
 */
export interface InternalSpec {
  readonly group: string;
  readonly scope: string;
  readonly names: CustomResourceDefinitionNames;
  /** versions[0].name. */
  readonly version: string;
  readonly versions: readonly InternalVersion[];
  readonly validation: CustomResourceValidation | undefined;
  readonly subresources: CustomResourceSubresources | undefined;
  readonly additionalPrinterColumns: readonly CustomResourceColumnDefinition[] | undefined;
  readonly selectableFields: readonly SelectableField[] | undefined;
  readonly conversion: InternalConversion | undefined;
  readonly preserveUnknownFields: boolean | undefined;
}

export interface InternalVersion {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly deprecated: boolean;
  readonly deprecationWarning: string | undefined;
  readonly schema: CustomResourceValidation | undefined;
  readonly subresources: CustomResourceSubresources | undefined;
  readonly additionalPrinterColumns: readonly CustomResourceColumnDefinition[] | undefined;
  readonly selectableFields: readonly SelectableField[] | undefined;
}

export interface InternalConversion {
  readonly strategy: string;
  readonly webhookClientConfig: WebhookClientConfig | undefined;
  readonly conversionReviewVersions: readonly string[] | undefined;
}

/** Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec. */
export function toInternalSpec(spec: CustomResourceDefinitionSpec): InternalSpec {
  const versions = spec.versions ?? [];
  const same = <T>(pick: (v: (typeof versions)[number]) => T): boolean => versions.every((v) => isDeepStrictEqual(pick(v), pick(versions[0]!)));
  const first = versions[0];
  const schemaShared = first !== undefined && same((v) => v.schema);
  const subresourcesShared = first !== undefined && same((v) => v.subresources);
  const columnsShared = first !== undefined && same((v) => v.additionalPrinterColumns);
  const selectableShared = first !== undefined && same((v) => v.selectableFields);
  const conversion = spec.conversion;
  return {
    group: spec.group ?? '',
    scope: spec.scope ?? '',
    // Go's zero values for what a body leaves out (no schema stands in front of this validation).
    names: { ...spec.names, plural: spec.names?.plural ?? '', kind: spec.names?.kind ?? '' },
    version: first?.name ?? '',
    versions: versions.map((v) => ({
      name: v.name ?? '',
      served: v.served === true,
      storage: v.storage === true,
      deprecated: v.deprecated === true,
      deprecationWarning: v.deprecationWarning,
      schema: schemaShared ? undefined : v.schema,
      subresources: subresourcesShared ? undefined : v.subresources,
      additionalPrinterColumns: columnsShared ? undefined : v.additionalPrinterColumns,
      selectableFields: selectableShared ? undefined : v.selectableFields,
    })),
    validation: schemaShared ? first.schema : undefined,
    subresources: subresourcesShared ? first.subresources : undefined,
    additionalPrinterColumns: columnsShared ? first.additionalPrinterColumns : undefined,
    selectableFields: selectableShared ? first.selectableFields : undefined,
    conversion:
      conversion === undefined
        ? undefined
        : {
            strategy: conversion.strategy ?? '',
            webhookClientConfig: conversion.webhook?.clientConfig,
            conversionReviewVersions: conversion.webhook?.conversionReviewVersions,
          },
    preserveUnknownFields: spec.preserveUnknownFields,
  };
}
