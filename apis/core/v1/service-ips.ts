import { newInternalError, newInvalid, StatusError } from '../../../runtime/apimachinery/errors/index.js';
import type { FieldError } from '../../../runtime/apimachinery/validation/field.js';
import { parseIP, type IPFamily } from '../../../runtime/registry/allocator/cidr.js';
import { RangeAllocationError } from '../../../runtime/registry/allocator/range.js';
import type { Allocation, IPRanges as ServiceIPRanges } from '../../../runtime/registry/allocator/types.js';
import { needsClusterIP, normalizeClusterIPs, patchAllocatedValues, sameList } from './service-normalize.js';
import { CLUSTER_IP_NONE, goStrings, isHeadless, validateClusterIPsRelatedFields } from './service-validation.js';
import type { Service } from './types.js';

/**
 * Cluster IP allocation for Services (kube's pkg/registry/core/service/storage/alloc.go): the
 * IP family fields are completed from the cluster's ranges, IPs are taken from the range of
 * each family. Each function mutates the Service it is given and says what it took and what
 * the write gives back (released only once it is stored, see service-allocation.ts).
 */

const GK = { group: '', kind: 'Service' };

/** Allocation for a new Service (allocateCreate), after normalizeClusterIPs. */
export async function allocateClusterIPsCreate(svc: Service, ranges: ServiceIPRanges, dryRun: boolean): Promise<Allocation<string>> {
  normalizeClusterIPs(svc, undefined);
  initIPFamilyFields(svc, undefined, ranges);
  return { taken: await allocClusterIPs(svc, ranges, dryRun), released: [] };
}

/** Allocation for an update (beginUpdate): allocated values the client left out are kept, then type changes allocate or release. */
export async function allocateClusterIPsUpdate(svc: Service, old: Service, ranges: ServiceIPRanges, dryRun: boolean): Promise<Allocation<string>> {
  patchAllocatedValues(svc, old);
  normalizeClusterIPs(svc, old);
  initIPFamilyFields(svc, old, ranges);
  const spec = svc.spec ?? {};
  const oldSpec = old.spec ?? {};
  if (oldSpec.type === 'ExternalName' && spec.type !== 'ExternalName') {
    return { taken: await allocClusterIPs(svc, ranges, dryRun), released: [] };
  }
  if (isHeadless(old)) return { taken: [], released: [] };
  if (oldSpec.type !== 'ExternalName' && spec.type === 'ExternalName') {
    return { taken: [], released: clusterIPsOf(old) };
  }
  const families = spec.ipFamilies ?? [];
  const oldFamilies = oldSpec.ipFamilies ?? [];
  if (oldFamilies.length === 1 && families.length === 2) {
    const ips = (spec.clusterIPs ??= []);
    if (ips.length < 2) ips.push('');
    const secondary = families[1] as IPFamily;
    const ip = await allocIP(svc, ranges, secondary, ips[1] as string, dryRun);
    ips[1] = ip;
    return { taken: dryRun ? [] : [ip], released: [] };
  }
  if (oldFamilies.length === 2 && families.length === 1) {
    const secondary = oldSpec.clusterIPs?.[1];
    return { taken: [], released: secondary === undefined ? [] : [secondary] };
  }
  return { taken: [], released: [] };
}

/** The IPs a stored Service holds in the ranges (none for ExternalName and headless Services). */
export function clusterIPsOf(svc: Service): string[] {
  if (!needsClusterIP(svc) || isHeadless(svc)) return [];
  return (svc.spec?.clusterIPs ?? []).filter((ip) => ip !== '' && ip !== CLUSTER_IP_NONE);
}

/** Releases IPs in whichever range holds them; errors are the caller's to log. */
export async function releaseIPs(ranges: ServiceIPRanges, ips: readonly string[]): Promise<void> {
  for (const ip of ips) {
    const family = parseIP(ip)?.family;
    const range = family === undefined ? undefined : ranges.byFamily.get(family);
    await range?.release(ip);
  }
}

/** initIPFamilyFields: ipFamilyPolicy and ipFamilies completed from the request and the cluster's ranges. */
function initIPFamilyFields(svc: Service, old: Service | undefined, ranges: ServiceIPRanges): void {
  const spec = (svc.spec ??= {});
  if (spec.type === 'ExternalName') return;
  const oldSpec = old?.spec;
  if (
    oldSpec !== undefined &&
    oldSpec.ipFamilyPolicy === 'PreferDualStack' &&
    (spec.ipFamilyPolicy ?? 'PreferDualStack') === 'PreferDualStack' &&
    sameList(oldSpec.clusterIPs, spec.clusterIPs) &&
    sameList(oldSpec.ipFamilies, spec.ipFamilies)
  ) {
    return;
  }
  const headlessSelectorless = spec.clusterIP === CLUSTER_IP_NONE && Object.keys(spec.selector ?? {}).length === 0;
  spec.ipFamilyPolicy ??= oldSpec?.ipFamilyPolicy ?? (headlessSelectorless ? 'RequireDualStack' : 'SingleStack');
  const invalid = validateClusterIPsRelatedFields(svc);
  if (invalid.length > 0) throw newInvalid(GK, svc.metadata?.name ?? '', invalid);

  const errs: FieldError[] = [];
  const policyError = (detail: string): FieldError => ({ type: 'FieldValueInvalid', field: 'spec.ipFamilyPolicy', badValue: spec.ipFamilyPolicy, detail });
  if (oldSpec !== undefined) {
    if (spec.ipFamilyPolicy === 'SingleStack') {
      if (sameList(oldSpec.clusterIPs, spec.clusterIPs) && (spec.clusterIPs?.length ?? 0) > 1) spec.clusterIPs = spec.clusterIPs?.slice(0, 1) ?? [];
      if (sameList(oldSpec.ipFamilies, spec.ipFamilies) && (spec.ipFamilies?.length ?? 0) > 1) spec.ipFamilies = spec.ipFamilies?.slice(0, 1) ?? [];
    } else {
      if ((spec.clusterIPs?.length ?? 0) < (oldSpec.clusterIPs?.length ?? 0)) errs.push(policyError("must be 'SingleStack' to release the secondary cluster IP"));
      if ((spec.ipFamilies?.length ?? 0) < (oldSpec.ipFamilies?.length ?? 0)) errs.push(policyError("must be 'SingleStack' to release the secondary IP family"));
    }
  }
  if (spec.ipFamilyPolicy === 'SingleStack') {
    if (spec.clusterIPs?.length === 2) errs.push(policyError("must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    if (spec.ipFamilies?.length === 2) errs.push(policyError("must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
  }
  for (const [i, ip] of (spec.clusterIPs ?? []).entries()) {
    if (ip === CLUSTER_IP_NONE) break;
    const family = parseIP(ip)?.family as IPFamily;
    if (i < (spec.ipFamilies?.length ?? 0)) continue;
    if (!ranges.byFamily.has(family)) errs.push({ type: 'FieldValueInvalid', field: `spec.clusterIPs[${i}]`, detail: `${goStrings(spec.clusterIPs)}: ${family} is not configured on this cluster` });
    else (spec.ipFamilies ??= []).push(family);
  }
  if (errs.length > 0) throw newInvalid(GK, svc.metadata?.name ?? '', errs);

  const other = (f: IPFamily): IPFamily => (f === 'IPv4' ? 'IPv6' : 'IPv4');
  if (headlessSelectorless) {
    if ((spec.ipFamilies?.length ?? 0) === 0) spec.ipFamilies = [ranges.primary];
    const families = spec.ipFamilies as IPFamily[];
    if (families.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') families.push(other(families[0] as IPFamily));
    return;
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack' && ranges.byFamily.size < 2) errs.push(policyError('this cluster is not configured for dual-stack services'));
  (spec.ipFamilies ?? []).forEach((f, i) => {
    if (!ranges.byFamily.has(f)) errs.push({ type: 'FieldValueInvalid', field: `spec.ipFamilies[${i}]`, badValue: f, detail: 'not configured on this cluster' });
  });
  if (errs.length > 0) throw newInvalid(GK, svc.metadata?.name ?? '', errs);
  if ((spec.ipFamilies?.length ?? 0) === 0) spec.ipFamilies = [ranges.primary];
  const families = spec.ipFamilies as IPFamily[];
  if (spec.ipFamilyPolicy !== 'SingleStack' && families.length === 1 && ranges.byFamily.size === 2) families.push(other(families[0] as IPFamily));
}

/** allocClusterIPs: an IP per family, the requested one or the next free; none for ExternalName and headless Services. */
async function allocClusterIPs(svc: Service, ranges: ServiceIPRanges, dryRun: boolean): Promise<string[]> {
  const spec = (svc.spec ??= {});
  if (spec.type === 'ExternalName' || spec.clusterIPs?.[0] === CLUSTER_IP_NONE) return [];
  const ips = (spec.clusterIPs ??= []);
  const taken: string[] = [];
  try {
    for (const [i, family] of (spec.ipFamilies ?? []).entries()) {
      const ip = await allocIP(svc, ranges, family, ips[i] ?? '', dryRun);
      if (!dryRun) taken.push(ip);
      ips[i] = ip;
    }
  } catch (err) {
    if (!dryRun) await releaseIPs(ranges, taken);
    throw err;
  }
  spec.clusterIP = ips[0] as string;
  return taken;
}

/** One IP of a family: the requested one (422 when taken or out of range) or the next free one (500 when the range is full). */
async function allocIP(svc: Service, ranges: ServiceIPRanges, family: IPFamily, requested: string, dryRun: boolean): Promise<string> {
  const range = ranges.byFamily.get(family);
  if (range === undefined) throw newInternalError(new Error(`no service IP range for ${family}`));
  if (requested === '') {
    try {
      return await range.allocateNext({ dryRun });
    } catch (err) {
      throw err instanceof StatusError ? err : newInternalError(new Error(`failed to allocate a serviceIP: ${(err as Error).message}`));
    }
  }
  try {
    await range.allocate(requested, { dryRun });
    return requested;
  } catch (err) {
    if (!(err instanceof RangeAllocationError)) throw err;
    throw newInvalid(GK, svc.metadata?.name ?? '', [
      { type: 'FieldValueInvalid', field: 'spec.clusterIPs', detail: `${goStrings(svc.spec?.clusterIPs)}: failed to allocate IP ${requested}: ${err.message}` },
    ]);
  }
}
