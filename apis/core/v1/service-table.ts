import type { Service, ServicePort } from './types.js';

/**
 * The cells of kube's printService (pkg/printers/internalversion) that no JSONPath can compute,
 * as a server prints them (wide): `<none>` where there is nothing, ports as `80/TCP` or
 * `80:30080/TCP`, the selector as `app=demo`.
 */
export const servicePrinterCells = {
  'Cluster-IP': (svc: Service): string => svc.spec?.clusterIPs?.[0] ?? '<none>',
  'External-IP': externalIP,
  'Port(s)': (svc: Service): string => portString(svc.spec?.ports ?? []) || '<none>',
  Selector: (svc: Service): string => formatLabels(svc.spec?.selector),
};

/** getServiceExternalIP: external IPs, a load balancer's addresses (`<pending>` until it has some), or the ExternalName. */
function externalIP(svc: Service): string {
  const external = svc.spec?.externalIPs ?? [];
  switch (svc.spec?.type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = (svc.status?.loadBalancer?.ingress ?? []).map((i) => (i.ip !== undefined && i.ip !== '' ? i.ip : (i.hostname ?? ''))).filter((a) => a !== '');
      const all = [...ingress, ...external];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return svc.spec?.externalName ?? '';
    default:
      return '<unknown>';
  }
}

/** makePortString. */
function portString(ports: readonly ServicePort[]): string {
  return ports.map((p) => ((p.nodePort ?? 0) > 0 ? `${p.port}:${p.nodePort}/${p.protocol ?? ''}` : `${p.port}/${p.protocol ?? ''}`)).join(',');
}

/** labels.FormatLabels: `k=v` pairs in key order, `<none>` when empty. */
function formatLabels(selector: Readonly<Record<string, string>> | undefined): string {
  const keys = Object.keys(selector ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${(selector as Record<string, string>)[k]}`).join(',');
}
