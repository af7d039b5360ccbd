import type { Namespace, Service } from './types.js';

export { setSecretDefaults } from './secret-defaults.js';
export { setEventDefaults } from './event-defaults.js';

/** Seconds a client sticks to one endpoint under ClientIP session affinity, unless configured. */
const DEFAULT_CLIENT_IP_AFFINITY_SECONDS = 10800;

/** The label every named namespace carries with its own name, so namespaces can be selected by name. */
const METADATA_NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * SetDefaults_Namespace and SetDefaults_NamespaceStatus of Kubernetes: a
 * named namespace is labelled with its name, and its phase starts Active.
 * Runs after the schema's `@default` values; mutates in place.
 */
export function setNamespaceDefaults(obj: Namespace): void {
  const name = obj.metadata?.name;
  if (name !== undefined && name !== '') {
    obj.metadata = { ...obj.metadata, labels: { ...obj.metadata?.labels, [METADATA_NAME_LABEL]: name } };
  }
  obj.status ??= {};
  obj.status.phase ??= 'Active';
}

/**
 * SetDefaults_Service of Kubernetes, for the defaults that depend on other
 * fields (type, sessionAffinity and each port's protocol are schema
 * `@default`s, applied before this runs). Mutates in place.
 */
export function setServiceDefaults(obj: Service): void {
  const spec = obj.spec;
  if (spec === undefined) return;
  const type = spec.type ?? 'ClusterIP';

  if (spec.sessionAffinity === 'ClientIP') {
    if (spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_AFFINITY_SECONDS } };
    }
  } else {
    delete spec.sessionAffinityConfig;
  }

  for (const port of spec.ports ?? []) {
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port;
  }

  const externallyAccessible = type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && (spec.externalIPs?.length ?? 0) > 0);
  if (externallyAccessible) spec.externalTrafficPolicy ??= 'Cluster';

  if (type === 'ClusterIP' || type === 'NodePort' || type === 'LoadBalancer') spec.internalTrafficPolicy ??= 'Cluster';

  if (type === 'LoadBalancer') {
    spec.allocateLoadBalancerNodePorts ??= true;
    for (const ingress of obj.status?.loadBalancer?.ingress ?? []) {
      if (ingress.ip !== undefined && ingress.ip !== '') ingress.ipMode ??= 'VIP';
    }
  }
}
