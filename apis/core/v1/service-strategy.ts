import { isDNS1035Label } from '../../../runtime/apimachinery/validation/names.js';
import type { RESTStrategy } from '../../../runtime/apimachinery/definition/strategy.js';
import { needsClusterIP, normalizeClusterIPs, patchAllocatedValues } from './service-normalize.js';
import { servicePrinterCells } from './service-table.js';
import { validateService, validateServiceUpdate } from './service-validation.js';
import type { Service } from './types.js';
import { validateKubeFinalizerNames } from './objectmeta-validation.js';

/**
 * kube's svcStrategy (pkg/registry/core/service/strategy.go): status starts empty
 * (`{loadBalancer: {}}`) and belongs to the status subresource; an update that changes the
 * type drops the fields the old type had allocated when the client left them as they were;
 * PUT of a missing Service creates it. Cluster IPs are allocated by the Service storage before
 * these hooks run, as kube's BeginCreate/BeginUpdate do.
 */
export const ServiceStrategy = {
  allowCreateOnUpdate: true,
  /** Service names are DNS-1035 labels (they become DNS names and environment variable prefixes). */
  validateName: isDNS1035Label,
  prepareForCreate(svc: Service): void {
    normalizeClusterIPs(svc, undefined);
    svc.status = { loadBalancer: {} };
  },
  prepareForUpdate(svc: Service, old: Service): void {
    patchAllocatedValues(svc, old);
    normalizeClusterIPs(svc, old);
    dropTypeDependentFields(svc, old);
  },
  validate: (svc: Service) => validateService(svc),
  // ValidateServiceUpdate: ObjectMetaUpdate, the update rules, then ValidateService.
  validateUpdate: (svc: Service, old: Service) => [...validateKubeFinalizerNames(svc.metadata), ...validateServiceUpdate(svc, old), ...validateService(svc)],
  tablePrinter: { kind: 'handwritten', cells: servicePrinterCells },
} satisfies RESTStrategy<Service>;

function needsNodePort(svc: Service): boolean {
  return svc.spec?.type === 'NodePort' || svc.spec?.type === 'LoadBalancer';
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** dropTypeDependentFields: what the old type allocated, wiped when the new type has no use for it and the client did not touch it. */
function dropTypeDependentFields(svc: Service, old: Service): void {
  const spec = (svc.spec ??= {});
  const oldSpec = old.spec ?? {};
  if (needsClusterIP(old) && !needsClusterIP(svc)) {
    if (same(spec.clusterIPs, oldSpec.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (same(spec.ipFamilies, oldSpec.ipFamilies)) delete spec.ipFamilies;
    if (same(spec.ipFamilyPolicy, oldSpec.ipFamilyPolicy)) delete spec.ipFamilyPolicy;
  }
  const nodePorts = (s: Service): Array<number | undefined> => (s.spec?.ports ?? []).map((p) => p.nodePort);
  if (needsNodePort(old) && !needsNodePort(svc) && same(nodePorts(svc), nodePorts(old))) {
    for (const p of spec.ports ?? []) delete p.nodePort;
  }
  if (oldSpec.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (spec.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts === oldSpec.allocateLoadBalancerNodePorts) delete spec.allocateLoadBalancerNodePorts;
    if (same(spec.loadBalancerClass, oldSpec.loadBalancerClass)) delete spec.loadBalancerClass;
    if ((spec.healthCheckNodePort ?? 0) === (oldSpec.healthCheckNodePort ?? 0)) delete spec.healthCheckNodePort;
  }
  const externallyAccessible = (s: Service): boolean => needsNodePort(s) || ((s.spec?.type ?? 'ClusterIP') === 'ClusterIP' && (s.spec?.externalIPs?.length ?? 0) > 0);
  if (externallyAccessible(old) && !externallyAccessible(svc) && spec.externalTrafficPolicy === oldSpec.externalTrafficPolicy) delete spec.externalTrafficPolicy;
  if (spec.type !== 'LoadBalancer') svc.status = { ...svc.status, loadBalancer: {} };
}
