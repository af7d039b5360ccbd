import { parseIPSloppy } from '../../../runtime/registry/allocator/cidr.js';
import type { FieldError } from '../../../runtime/apimachinery/validation/field.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum } from '../../../runtime/apimachinery/validation/names.js';
import type { EndpointAddress, EndpointPort, Endpoints } from './endpoints.js';
import { notSupported, SUPPORTED_PROTOCOLS } from './service-validation.js';

/**
 * kube's validateEndpointSubsets (pkg/apis/core/validation), which ValidateEndpointsCreate and
 * ValidateEndpointsUpdate apply after ObjectMeta's checks: every subset has an address, every
 * address a valid IP, every port a number, a protocol and (when there are several) a name. The
 * types publish none of this in their schema, as kube's OpenAPI does not.
 *
 * One difference, on purpose: kube also refuses an address that is unspecified, loopback or
 * link-local (ValidateNonSpecialIP). This server accepts them, because a Service routed to a
 * backend on this machine (an aggregated API server, a conversion or admission webhook started
 * by a test) can only be reached through such an address; its tests, and the controller tests of
 * the teams who embed it, do that. A Service's externalIPs keep the whole check.
 */
export function validateEndpointSubsets(ep: Endpoints): FieldError[] {
  const errs: FieldError[] = [];
  (ep.subsets ?? []).forEach((ss, i) => {
    const path = `subsets[${i}]`;
    const addresses = ss.addresses ?? [];
    const notReady = ss.notReadyAddresses ?? [];
    if (addresses.length === 0 && notReady.length === 0) errs.push({ type: 'FieldValueRequired', field: path, detail: 'must specify `addresses` or `notReadyAddresses`' });
    addresses.forEach((a, j) => errs.push(...validateEndpointAddress(a, `${path}.addresses[${j}]`)));
    notReady.forEach((a, j) => errs.push(...validateEndpointAddress(a, `${path}.notReadyAddresses[${j}]`)));
    const ports = ss.ports ?? [];
    ports.forEach((p, j) => errs.push(...validateEndpointPort(p, ports.length > 1, `${path}.ports[${j}]`)));
  });
  return errs;
}

function validateEndpointAddress(address: EndpointAddress, path: string): FieldError[] {
  const ip = address.ip ?? '';
  const isIP = parseIPSloppy(ip) !== undefined;
  const errs: FieldError[] = isIP ? [] : [ipSyntaxError(ip, `${path}.ip`)];
  const hostname = address.hostname ?? '';
  if (hostname !== '') errs.push(...invalid(isDNS1123Label(hostname), `${path}.hostname`, hostname));
  // A pointer in Go: an empty nodeName that was sent is checked too.
  if (address.nodeName !== undefined && address.nodeName !== null) errs.push(...invalid(isDNS1123Subdomain(address.nodeName), `${path}.nodeName`, address.nodeName));
  // ValidateNonSpecialIP's own parse: an address that is no IP is reported a second time.
  if (!isIP) errs.push({ type: 'FieldValueInvalid', field: `${path}.ip`, badValue: ip, detail: 'must be a valid IP address' });
  return errs;
}

function validateEndpointPort(port: EndpointPort, requireName: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = port.name ?? '';
  if (requireName && name === '') errs.push({ type: 'FieldValueRequired', field: `${path}.name`, detail: '' });
  else if (name !== '') errs.push(...invalid(isDNS1123Label(name), `${path}.name`, name));
  errs.push(...invalid(isValidPortNum(port.port ?? 0), `${path}.port`, port.port ?? 0));
  const protocol = port.protocol ?? '';
  if (protocol === '') errs.push({ type: 'FieldValueRequired', field: `${path}.protocol`, detail: '' });
  else if (!SUPPORTED_PROTOCOLS.includes(protocol)) errs.push(notSupported(`${path}.protocol`, protocol, SUPPORTED_PROTOCOLS));
  if (port.appProtocol !== undefined && port.appProtocol !== null) errs.push(...invalid(isQualifiedName(port.appProtocol), `${path}.appProtocol`, port.appProtocol));
  return errs;
}

/** validation.IsValidIP: an IPv4 or IPv6 address (IPv4 octets may have leading zeros). */
export function isValidIP(ip: string, field: string): FieldError[] {
  return parseIPSloppy(ip) === undefined ? [ipSyntaxError(ip, field)] : [];
}

function ipSyntaxError(ip: string, field: string): FieldError {
  return { type: 'FieldValueInvalid', field, badValue: ip, detail: 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)' };
}

/**
 * ValidateNonSpecialIP (Endpoints, EndpointSlices and a Service's externalIPs): not unspecified,
 * loopback, link-local or link-local multicast. As Go's net.IP methods do, an IPv4-mapped IPv6
 * address is judged as its IPv4 address.
 */
export function validateNonSpecialIP(ip: string, field: string): FieldError[] {
  const parsed = parseIPSloppy(ip);
  const fail = (detail: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue: ip, detail });
  if (parsed === undefined) return [fail('must be a valid IP address')];
  const v6 = parsed.value;
  const v4 = parsed.family === 'IPv4' ? v6 : v6 >> 32n === 0xffffn ? v6 & 0xffffffffn : undefined;
  const errs: FieldError[] = [];
  if (v4 !== undefined ? v4 === 0n : v6 === 0n) errs.push(fail(`may not be unspecified (${ip})`));
  if (v4 !== undefined ? v4 >> 24n === 127n : v6 === 1n) errs.push(fail('may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (v4 !== undefined ? v4 >> 16n === 0xa9fen : v6 >> 118n === 0x3fan) errs.push(fail('may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (v4 !== undefined ? v4 >> 8n === 0xe00000n : ((v6 >> 112n) & 0xff0fn) === 0xff02n) errs.push(fail('may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

function invalid(messages: readonly string[], field: string, badValue: unknown): FieldError[] {
  return messages.map((detail) => ({ type: 'FieldValueInvalid', field, badValue, detail }));
}
