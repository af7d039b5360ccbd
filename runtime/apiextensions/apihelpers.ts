import type { CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionNames, CustomResourceDefinitionVersion } from '../../apis/apiextensions/v1/types.js';
import { compareVersionsForDiscovery } from '../server/discovery/version-order.js';

/**
 * Facts about a CRD the serving code and the controllers share (apiextensions' apihelpers).
 * Pure functions; they never mutate the CRD.
 */

export type CRDConditionType = 'Established' | 'NamesAccepted' | 'NonStructuralSchema' | 'Terminating' | 'KubernetesAPIApprovalPolicyConformant';

export function findCRDCondition(crd: CustomResourceDefinition, type: CRDConditionType): CustomResourceDefinitionCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isCRDConditionTrue(crd: CustomResourceDefinition, type: CRDConditionType): boolean {
  return findCRDCondition(crd, type)?.status === 'True';
}

/** `<plural>.<group>`: the only name a CRD may have. */
export function crdName(group: string, plural: string): string {
  return `${plural}.${group}`;
}

/** The version marked storage; undefined for a CRD validation would reject. */
export function storageVersionOf(crd: CustomResourceDefinition): string | undefined {
  return crd.spec.versions.find((v) => v.storage)?.name;
}

export function crdVersion(crd: CustomResourceDefinition, version: string): CustomResourceDefinitionVersion | undefined {
  return crd.spec.versions.find((v) => v.name === version);
}

export function hasServedCRDVersion(crd: CustomResourceDefinition, version: string): boolean {
  return crdVersion(crd, version)?.served === true;
}

/**
 * The names a CRD is served under: status.acceptedNames once the naming controller accepted
 * them (kube serves only those), else the spec's, with kube's defaults for singular and listKind.
 */
export function servedNames(crd: CustomResourceDefinition): Required<Pick<CustomResourceDefinitionNames, 'plural' | 'singular' | 'kind' | 'listKind' | 'shortNames' | 'categories'>> {
  const accepted = crd.status?.acceptedNames;
  const names = accepted !== undefined && accepted.kind !== '' && accepted.plural !== '' ? accepted : crd.spec.names;
  return {
    plural: names.plural,
    singular: names.singular !== undefined && names.singular !== '' ? names.singular : names.kind.toLowerCase(),
    kind: names.kind,
    listKind: names.listKind !== undefined && names.listKind !== '' ? names.listKind : `${names.kind}List`,
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
  };
}

/**
 * The Warning a deprecated version answers with: its deprecationWarning, or kube's default
 * naming the newest served, non-deprecated version that sorts before it.
 */
export function deprecationWarningOf(crd: CustomResourceDefinition, version: CustomResourceDefinitionVersion): string | undefined {
  if (version.deprecated !== true) return undefined;
  if (version.deprecationWarning !== undefined) return version.deprecationWarning;
  const { group, names } = crd.spec;
  const message = `${group}/${version.name} ${names.kind} is deprecated`;
  const newer = crd.spec.versions
    .filter((v) => v.served && v.deprecated !== true && compareVersionsForDiscovery(v.name, version.name) < 0)
    .map((v) => v.name)
    .sort(compareVersionsForDiscovery);
  return newer.length === 0 ? message : `${message}; use ${group}/${newer[0]} ${names.kind}`;
}
