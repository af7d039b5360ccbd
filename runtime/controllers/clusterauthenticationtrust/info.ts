import type { X509Certificate } from 'node:crypto';
import { CABundle } from '../../authentication/clientcert.js';

/**
 * The content of kube-system/extension-apiserver-authentication (kube's
 * pkg/controlplane/controller/clusterauthenticationtrust): how the control plane authenticates
 * clients, published so that aggregated servers can trust the same clients and front proxy.
 */

export const AUTHENTICATION_CONFIGMAP_NAMESPACE = 'kube-system';
export const AUTHENTICATION_CONFIGMAP_NAME = 'extension-apiserver-authentication';

/** The ConfigMap's keys, as kube writes them (header lists and allowed names as JSON string arrays). */
export const AUTHENTICATION_CONFIGMAP_KEYS = {
  clientCA: 'client-ca-file',
  requestHeaderCA: 'requestheader-client-ca-file',
  requestHeaderAllowedNames: 'requestheader-allowed-names',
  requestHeaderUsernameHeaders: 'requestheader-username-headers',
  requestHeaderUIDHeaders: 'requestheader-uid-headers',
  requestHeaderGroupHeaders: 'requestheader-group-headers',
  requestHeaderExtraHeadersPrefix: 'requestheader-extra-headers-prefix',
} as const;

/** ClusterAuthenticationInfo: PEM bundles and header lists; an absent CA is none. */
export interface ClusterAuthenticationInfo {
  /** The CA bundle of client certificates (--client-ca-file). */
  readonly clientCA?: string;
  /** The CA bundle of front proxies (--requestheader-client-ca-file). */
  readonly requestHeaderCA?: string;
  readonly requestHeaderAllowedNames?: readonly string[];
  readonly requestHeaderUsernameHeaders?: readonly string[];
  readonly requestHeaderUIDHeaders?: readonly string[];
  readonly requestHeaderGroupHeaders?: readonly string[];
  readonly requestHeaderExtraHeaderPrefixes?: readonly string[];
}

const K = AUTHENTICATION_CONFIGMAP_KEYS;

/**
 * getConfigMapDataFor: client-ca-file when there is a client CA; the request-header keys only
 * with a request-header CA, every header list written (an empty one as `[]`).
 */
export function configMapDataFor(info: ClusterAuthenticationInfo): Record<string, string> {
  const data: Record<string, string> = {};
  if (info.clientCA !== undefined && info.clientCA !== '') data[K.clientCA] = info.clientCA;
  if (info.requestHeaderCA === undefined || info.requestHeaderCA === '') return data;
  data[K.requestHeaderUsernameHeaders] = JSON.stringify(info.requestHeaderUsernameHeaders ?? []);
  data[K.requestHeaderUIDHeaders] = JSON.stringify(info.requestHeaderUIDHeaders ?? []);
  data[K.requestHeaderGroupHeaders] = JSON.stringify(info.requestHeaderGroupHeaders ?? []);
  data[K.requestHeaderExtraHeadersPrefix] = JSON.stringify(info.requestHeaderExtraHeaderPrefixes ?? []);
  data[K.requestHeaderCA] = info.requestHeaderCA;
  data[K.requestHeaderAllowedNames] = JSON.stringify(info.requestHeaderAllowedNames ?? []);
  return data;
}

/**
 * getClusterAuthenticationInfoFor: reads the ConfigMap's data back; an absent or empty key is
 * nothing. A header list that is not a JSON array of strings, or a CA key without a certificate,
 * is an error naming the key (the controller then retries, as kube's does).
 */
export function authenticationInfoFor(data: Readonly<Record<string, string>> | undefined): ClusterAuthenticationInfo {
  const get = (key: string): string => (data !== undefined && Object.hasOwn(data, key) ? (data[key] ?? '') : '');
  const list = (key: string): readonly string[] | undefined => {
    const text = get(key);
    if (text === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new Error(`${key}: ${(err as Error).message}`, { cause: err });
    }
    // Go's json.Unmarshal of null into a slice leaves it empty.
    if (value === null) return [];
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new Error(`${key}: must be a JSON array of strings`);
    return value as string[];
  };
  const ca = (key: string): string | undefined => {
    const text = get(key);
    if (text === '') return undefined;
    new CABundle(text, key);
    return text;
  };
  const info = {
    requestHeaderGroupHeaders: list(K.requestHeaderGroupHeaders),
    requestHeaderExtraHeaderPrefixes: list(K.requestHeaderExtraHeadersPrefix),
    requestHeaderAllowedNames: list(K.requestHeaderAllowedNames),
    requestHeaderUsernameHeaders: list(K.requestHeaderUsernameHeaders),
    requestHeaderUIDHeaders: list(K.requestHeaderUIDHeaders),
    requestHeaderCA: ca(K.requestHeaderCA),
    clientCA: ca(K.clientCA),
  };
  return Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined)) as ClusterAuthenticationInfo;
}

/**
 * combinedClusterAuthenticationInfo: what is published keeps what was there (another API server's
 * CAs and headers, an older CA during a rotation) and adds what this server requires: header
 * lists as an ordered union, CA bundles as the union of their certificates without duplicates,
 * certificates expired for more than five minutes dropped.
 */
export function combinedAuthenticationInfo(lhs: ClusterAuthenticationInfo, rhs: ClusterAuthenticationInfo, nowMs: number): ClusterAuthenticationInfo {
  const clientCA = combineCertificates(lhs.clientCA, rhs.clientCA, nowMs);
  const requestHeaderCA = combineCertificates(lhs.requestHeaderCA, rhs.requestHeaderCA, nowMs);
  return {
    requestHeaderAllowedNames: unique(lhs.requestHeaderAllowedNames, rhs.requestHeaderAllowedNames),
    requestHeaderExtraHeaderPrefixes: unique(lhs.requestHeaderExtraHeaderPrefixes, rhs.requestHeaderExtraHeaderPrefixes),
    requestHeaderGroupHeaders: unique(lhs.requestHeaderGroupHeaders, rhs.requestHeaderGroupHeaders),
    requestHeaderUsernameHeaders: unique(lhs.requestHeaderUsernameHeaders, rhs.requestHeaderUsernameHeaders),
    requestHeaderUIDHeaders: unique(lhs.requestHeaderUIDHeaders, rhs.requestHeaderUIDHeaders),
    ...(clientCA !== undefined ? { clientCA } : {}),
    ...(requestHeaderCA !== undefined ? { requestHeaderCA } : {}),
  };
}

function unique(lhs: readonly string[] | undefined, rhs: readonly string[] | undefined): readonly string[] {
  return [...new Set([...(lhs ?? []), ...(rhs ?? [])])];
}

const EXPIRY_SLACK_MS = 5 * 60_000;

/** combineCertLists: the PEM of both bundles' certificates, in order, deduplicated, unexpired; undefined when none is left. */
function combineCertificates(lhs: string | undefined, rhs: string | undefined, nowMs: number): string | undefined {
  const certs: X509Certificate[] = [];
  for (const [pem, source] of [
    [lhs, 'existing'],
    [rhs, 'required'],
  ] as const) {
    if (pem !== undefined && pem !== '') certs.push(...new CABundle(pem, source).roots);
  }
  const kept: X509Certificate[] = [];
  for (const c of certs) {
    if (Date.parse(c.validTo) <= nowMs - EXPIRY_SLACK_MS) continue;
    if (!kept.some((k) => k.raw.equals(c.raw))) kept.push(c);
  }
  return kept.length === 0 ? undefined : kept.map((c) => pemOf(c)).join('');
}

/** pem.Encode of a CERTIFICATE block: base64 in lines of 64, each line ending in a newline. */
function pemOf(cert: X509Certificate): string {
  const lines = cert.raw.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
