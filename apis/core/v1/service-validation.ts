import { parseIP } from '../../../runtime/registry/allocator/cidr.js';
import type { FieldError } from '../../../runtime/apimachinery/validation/field.js';
import { isDNS1123Label, isDNS1123Subdomain, isValidPortNum } from '../../../runtime/apimachinery/validation/names.js';
import { validateLabels } from '../../../runtime/apimachinery/validation/objectmeta.js';
import type { IntOrString } from '../../meta/v1/types.js';
import { isValidIP, validateNonSpecialIP } from './endpoints-validation.js';
import { validateKubeFinalizerNames } from './objectmeta-validation.js';
import type { Service, ServicePort } from './types.js';

/**
 * The parts of kube's ValidateService (pkg/apis/core/validation) that a schema cannot say with
 * kube's words: one cause per port field, duplicates, and the cluster IP fields. The schema
 * still checks types and enums (type, protocol, ipFamilyPolicy) before these run.
 */

/** The clusterIP of a headless Service. */
export const CLUSTER_IP_NONE = 'None';

/** supportedPortProtocols. */
export const SUPPORTED_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const SUPPORTED_FAMILIES = ['IPv4', 'IPv6'];

/** Go's %#v of a []string, as kube shows list values (`[]string{"10.0.0.1"}`). */
export function goStrings(values: readonly string[] | undefined): string {
  return `[]string{${(values ?? []).map((v) => JSON.stringify(v)).join(', ')}}`;
}

/** An Invalid cause whose value is shown as Go prints it rather than as JSON. */
function invalidGo(field: string, goValue: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, detail: `${goValue}: ${detail}` };
}

export function isHeadless(svc: Service): boolean {
  const ips = svc.spec?.clusterIPs;
  return ips?.length === 1 && ips[0] === CLUSTER_IP_NONE;
}

/** ValidateService's checks kept in code (create and update). */
export function validateService(svc: Service): FieldError[] {
  const spec = svc.spec ?? {};
  const type = spec.type ?? 'ClusterIP';
  const ports = spec.ports ?? [];
  const errs: FieldError[] = validateKubeFinalizerNames(svc.metadata);
  if (ports.length === 0 && !isHeadless(svc) && type !== 'ExternalName') errs.push({ type: 'FieldValueRequired', field: 'spec.ports', detail: '' });
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, `spec.ports[${i}]`)));
  errs.push(...validateLabels(spec.selector, 'spec.selector'));
  // An externalIP is a valid IP, and only then one that is not special (ValidateNonSpecialIP).
  (spec.externalIPs ?? []).forEach((ip, i) => {
    const syntax = isValidIP(ip, `spec.externalIPs[${i}]`);
    errs.push(...(syntax.length > 0 ? syntax : validateNonSpecialIP(ip, `spec.externalIPs[${i}]`)));
  });
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if ((p.nodePort ?? 0) !== 0) errs.push({ type: 'FieldValueForbidden', field: `spec.ports[${i}].nodePort`, detail: "may not be used when `type` is 'ClusterIP'" });
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if ((p.nodePort ?? 0) === 0) return;
    const key = `${p.protocol ?? ''}/${p.nodePort}`;
    if (nodePorts.has(key)) errs.push({ type: 'FieldValueDuplicate', field: `spec.ports[${i}].nodePort`, badValue: p.nodePort, detail: '' });
    nodePorts.add(key);
  });
  const seen = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${p.protocol ?? ''}/${p.port}`;
    if (seen.has(key)) errs.push({ type: 'FieldValueDuplicate', field: `spec.ports[${i}]`, detail: goServicePortKey(p) });
    seen.add(key);
  });
  errs.push(...validateClusterIPsRelatedFields(svc));
  errs.push(...validateTypeDependentFields(svc));
  return errs;
}

const forbidden = (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail });
const ONLY_LOAD_BALANCER = "may only be used when `type` is 'LoadBalancer'";

/**
 * The fields only some types may have (ExternalName's, the load balancer's, the external
 * traffic policy): checked in code rather than by schema rules, because an update that changes
 * the type has them dropped by the strategy first (dropTypeDependentFields), as in kube.
 */
function validateTypeDependentFields(svc: Service): FieldError[] {
  const spec = svc.spec ?? {};
  const type = spec.type ?? 'ClusterIP';
  const errs: FieldError[] = [];
  if (type === 'ExternalName') {
    const notForExternalName = 'may not be set for ExternalName services';
    if ((spec.clusterIPs ?? []).length > 0) errs.push(forbidden('spec.clusterIPs', notForExternalName));
    if ((spec.ipFamilies ?? []).length > 0) errs.push(forbidden('spec.ipFamilies', notForExternalName));
    if (spec.ipFamilyPolicy !== undefined) errs.push(forbidden('spec.ipFamilyPolicy', notForExternalName));
    const name = (spec.externalName ?? '').replace(/\.$/, '');
    if (name === '') errs.push({ type: 'FieldValueRequired', field: 'spec.externalName', detail: '' });
    for (const msg of name === '' ? [] : isDNS1123Subdomain(name)) errs.push({ type: 'FieldValueInvalid', field: 'spec.externalName', badValue: name, detail: msg });
  }
  if (type !== 'LoadBalancer') {
    if (spec.allocateLoadBalancerNodePorts !== undefined) errs.push(forbidden('spec.allocateLoadBalancerNodePorts', ONLY_LOAD_BALANCER));
    if (spec.loadBalancerClass !== undefined) errs.push(forbidden('spec.loadBalancerClass', ONLY_LOAD_BALANCER));
  }
  const hc = spec.healthCheckNodePort ?? 0;
  if (hc !== 0 && !(type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local')) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.healthCheckNodePort', badValue: hc, detail: "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'" });
  }
  const externallyAccessible = type === 'LoadBalancer' || type === 'NodePort' || (type === 'ClusterIP' && (spec.externalIPs ?? []).length > 0);
  if (!externallyAccessible && spec.externalTrafficPolicy !== undefined) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.externalTrafficPolicy', badValue: spec.externalTrafficPolicy, detail: 'may only be set for externally-accessible services' });
  }
  return errs;
}

/** validateServicePort: name (required when there are several), port, protocol, targetPort. */
function validateServicePort(p: ServicePort, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = p.name ?? '';
  if (requireName && name === '') {
    errs.push({ type: 'FieldValueRequired', field: `${path}.name`, detail: '' });
  } else if (name !== '') {
    for (const msg of isDNS1123Label(name)) errs.push({ type: 'FieldValueInvalid', field: `${path}.name`, badValue: name, detail: msg });
    if (names.has(name)) errs.push({ type: 'FieldValueDuplicate', field: `${path}.name`, badValue: name, detail: '' });
    else names.add(name);
  }
  for (const msg of isValidPortNum(p.port)) errs.push({ type: 'FieldValueInvalid', field: `${path}.port`, badValue: p.port, detail: msg });
  const protocol = p.protocol ?? '';
  if (protocol === '') errs.push({ type: 'FieldValueRequired', field: `${path}.protocol`, detail: '' });
  else if (!SUPPORTED_PROTOCOLS.includes(protocol)) errs.push(notSupported(`${path}.protocol`, protocol, SUPPORTED_PROTOCOLS));
  errs.push(...validatePortNumOrName(p.targetPort ?? 0, `${path}.targetPort`));
  return errs;
}

/** validation.IsValidPortName: an IANA service name. */
function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** ValidatePortNumOrName. */
function validatePortNumOrName(port: IntOrString, field: string): FieldError[] {
  const msgs = typeof port === 'number' ? isValidPortNum(port) : isValidPortName(port);
  return msgs.map((detail) => ({ type: 'FieldValueInvalid', field, badValue: port, detail }));
}

/** field.NotSupported with its list of supported values. */
export function notSupported(field: string, value: string, supported: readonly string[]): FieldError {
  return { type: 'FieldValueNotSupported', field, badValue: value, detail: `supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}` };
}

/** Go's %#v of the core.ServicePort key kube uses to find duplicate ports. */
function goServicePortKey(p: ServicePort): string {
  return `core.ServicePort{Name:"", Protocol:${JSON.stringify(p.protocol ?? '')}, AppProtocol:(*string)(nil), Port:${p.port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`;
}

/**
 * ValidateServiceClusterIPsRelatedFields: clusterIP and clusterIPs agree, IPs and families are
 * valid, at most one IP per family. Also what allocation checks first (exported for it).
 */
export function validateClusterIPsRelatedFields(svc: Service): FieldError[] {
  const spec = svc.spec ?? {};
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const clusterIP = spec.clusterIP ?? '';
  const clusterIPs = spec.clusterIPs ?? [];
  if (clusterIP !== '') {
    if (clusterIPs.length === 0) errs.push({ type: 'FieldValueRequired', field: 'spec.clusterIPs', detail: '' });
    else if (clusterIPs[0] !== clusterIP) errs.push(invalidGo('spec.clusterIPs', goStrings(clusterIPs), 'first value must match `clusterIP`'));
  } else if (clusterIPs.length !== 0) {
    errs.push(invalidGo('spec.clusterIPs', goStrings(clusterIPs), 'must be empty when `clusterIP` is not specified'));
  }
  const families = new Set<string>();
  (spec.ipFamilies ?? []).forEach((f, i) => {
    if (!SUPPORTED_FAMILIES.includes(f)) errs.push(notSupported(`spec.ipFamilies[${i}]`, f, SUPPORTED_FAMILIES));
    if (families.has(f)) errs.push({ type: 'FieldValueDuplicate', field: `spec.ipFamilies[${i}]`, badValue: f, detail: '' });
    families.add(f);
  });
  let invalidIPs = false;
  clusterIPs.forEach((ip, i) => {
    if (i === 0 && ip === CLUSTER_IP_NONE) {
      if (clusterIPs.length > 1) {
        invalidIPs = true;
        errs.push(invalidGo('spec.clusterIPs', goStrings(clusterIPs), "'None' must be the first and only value"));
      }
      return;
    }
    if (parseIP(ip) === undefined) {
      invalidIPs = true;
      errs.push({ type: 'FieldValueInvalid', field: `spec.clusterIPs[${i}]`, badValue: ip, detail: 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)' });
    }
  });
  if (clusterIPs.length > 2) errs.push(invalidGo('spec.clusterIPs', goStrings(clusterIPs), 'may only hold up to 2 values'));
  if (invalidIPs) return errs;
  if (clusterIPs.length > 1 && parseIP(clusterIPs[0] as string)?.family === parseIP(clusterIPs[1] as string)?.family) {
    errs.push(invalidGo('spec.clusterIPs', goStrings(clusterIPs), 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(svc)) {
    const declared = spec.ipFamilies ?? [];
    clusterIPs.forEach((ip, i) => {
      const want = declared[i];
      if (want === undefined) return;
      const family = parseIP(ip)?.family;
      if (family !== want) errs.push({ type: 'FieldValueInvalid', field: `spec.clusterIPs[${i}]`, badValue: ip, detail: `expected an ${want} value as indicated by \`ipFamilies[${i}]\`` });
    });
  }
  return errs;
}

/**
 * ValidateServiceUpdate's own checks (validateUpgradeDowngradeClusterIPs and …IPFamilies): the
 * primary cluster IP and family never change once set, except to, from or on ExternalName; a
 * secondary one may only be released with ipFamilyPolicy SingleStack.
 */
export function validateServiceUpdate(svc: Service, old: Service): FieldError[] {
  if (svc.spec?.type === 'ExternalName' || old.spec?.type === 'ExternalName') return [];
  const errs = [...validateClusterIPsUpdate(svc, old), ...validateIPFamiliesUpdate(svc, old)];
  if (svc.spec?.type === 'LoadBalancer' && old.spec?.type === 'LoadBalancer' && svc.spec.loadBalancerClass !== old.spec.loadBalancerClass) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.loadBalancerClass', badValue: svc.spec.loadBalancerClass ?? null, detail: 'may not change once set' });
  }
  return errs;
}

function validateClusterIPsUpdate(svc: Service, old: Service): FieldError[] {
  if (isHeadless(svc) && isHeadless(old)) return [];
  const now = svc.spec?.clusterIPs ?? [];
  const before = old.spec?.clusterIPs ?? [];
  const shown = goStrings(now);
  const errs: FieldError[] = [];
  if (before.length === now.length) {
    before.forEach((ip, i) => {
      if (ip !== now[i]) errs.push(invalidGo(`spec.clusterIPs[${i}]`, shown, 'may not change once set'));
    });
  } else if (before.length > now.length) {
    if (now.length === 0) errs.push(invalidGo('spec.clusterIPs[0]', shown, 'primary clusterIP can not be unset'));
    if (before.length > 0 && now.length > 0 && now[0] !== before[0]) errs.push(invalidGo('spec.clusterIPs[0]', shown, 'may not change once set'));
    if (now.length === 1 && svc.spec?.ipFamilyPolicy !== 'SingleStack') {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.ipFamilyPolicy', badValue: svc.spec?.ipFamilyPolicy ?? null, detail: "must be set to 'SingleStack' when releasing the secondary clusterIP" });
    }
  } else if (before.length > 0 && now[0] !== before[0]) {
    errs.push(invalidGo('spec.clusterIPs[0]', shown, 'may not change once set'));
  }
  return errs;
}

function validateIPFamiliesUpdate(svc: Service, old: Service): FieldError[] {
  if (isHeadless(svc) !== isHeadless(old) || isHeadless(svc)) return [];
  const now = svc.spec?.ipFamilies ?? [];
  const before = old.spec?.ipFamilies ?? [];
  const errs: FieldError[] = [];
  if (before.length === now.length) {
    before.forEach((f, i) => {
      if (f !== now[i]) errs.push(invalidGo('spec.ipFamilies[0]', goFamilies(now), 'may not change once set'));
    });
  } else if (before.length > now.length) {
    if ((svc.spec?.clusterIPs ?? []).length === 0) errs.push(invalidGo('spec.ipFamilies[0]', goFamilies(now), 'primary ipFamily can not be unset'));
    if (now.length > 0 && now[0] !== before[0]) errs.push(invalidGo('spec.ipFamilies[0]', goStrings(svc.spec?.clusterIPs), 'may not change once set'));
    if (now.length === 1 && svc.spec?.ipFamilyPolicy !== 'SingleStack') {
      errs.push({ type: 'FieldValueInvalid', field: 'spec.ipFamilyPolicy', badValue: svc.spec?.ipFamilyPolicy ?? null, detail: "must be set to 'SingleStack' when releasing the secondary ipFamily" });
    }
  } else if (before.length > 0 && now.length > 0 && now[0] !== before[0]) {
    errs.push(invalidGo('spec.ipFamilies[0]', goStrings(svc.spec?.clusterIPs), 'may not change once set'));
  }
  return errs;
}

/** Go's %#v of a []core.IPFamily. */
function goFamilies(families: readonly string[]): string {
  return `[]core.IPFamily{${families.map((f) => JSON.stringify(f)).join(', ')}}`;
}
