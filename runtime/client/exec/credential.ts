import { createPrivateKey, X509Certificate } from 'node:crypto';
import { isJSONObject, ownField, type JSONObject } from '../../apimachinery/serializer/jsonvalue.js';

/**
 * The ExecCredential exchange (client.authentication.k8s.io v1 and v1beta1, identical on the
 * wire): the request a plugin reads from KUBERNETES_EXEC_INFO and the answer it prints.
 */

const KIND = 'ExecCredential';

/** spec.cluster, sent when the user's exec config has provideClusterInfo. */
export interface ExecCluster {
  readonly server: string;
  readonly tlsServerName?: string;
  readonly insecureSkipTLSVerify?: boolean;
  /** PEM bytes; sent base64-encoded, as Go encodes []byte. */
  readonly certificateAuthorityData?: string | Uint8Array;
  /** The cluster's `client.authentication.k8s.io/exec` extension. */
  readonly config?: unknown;
}

/** A client certificate and its key, PEM. */
export interface ClientCertificate {
  readonly cert: string;
  readonly key: string;
}

/** What a plugin answered: a token, a client certificate, or both, and until when they hold. */
export interface ExecCredentials {
  readonly token: string | undefined;
  readonly cert: ClientCertificate | undefined;
  /** Milliseconds since the epoch; undefined: valid until the server refuses it. */
  readonly expiresAt: number | undefined;
}

/** The plugin's input, KUBERNETES_EXEC_INFO, as client-go encodes it (spec.interactive always present). */
export function encodeExecRequest(apiVersion: string, interactive: boolean, cluster: ExecCluster | undefined): string {
  const spec: JSONObject = {};
  if (cluster !== undefined) spec['cluster'] = encodeCluster(cluster);
  spec['interactive'] = interactive;
  return JSON.stringify({ kind: KIND, apiVersion, spec });
}

function encodeCluster(c: ExecCluster): JSONObject {
  const ca = c.certificateAuthorityData;
  return {
    server: c.server,
    ...(c.tlsServerName !== undefined && c.tlsServerName !== '' ? { 'tls-server-name': c.tlsServerName } : {}),
    ...(c.insecureSkipTLSVerify === true ? { 'insecure-skip-tls-verify': true } : {}),
    ...(ca !== undefined && ca.length > 0 ? { 'certificate-authority-data': Buffer.from(ca).toString('base64') } : {}),
    ...(c.config !== undefined ? { config: c.config } : {}),
  };
}

/** An answer the plugin printed that cannot be used; the message is client-go's. */
export class ExecCredentialError extends Error {
  override readonly name = 'ExecCredentialError';
}

/**
 * Reads the plugin's standard output (refreshCredsLocked's checks, in its order and words): an
 * ExecCredential of the configured version with a status holding a token or a certificate and
 * key that belong together, and an optional RFC 3339 expirationTimestamp. Unknown fields are
 * ignored, as Go's decoder ignores them. The output is never quoted: it holds the secret.
 */
export function decodeExecResponse(stdout: Buffer | string, apiVersion: string): ExecCredentials {
  let value: unknown;
  try {
    value = JSON.parse(typeof stdout === 'string' ? stdout : stdout.toString('utf8'));
  } catch (e) {
    throw new ExecCredentialError(`decoding stdout: couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
  if (!isJSONObject(value)) throw new ExecCredentialError(`decoding stdout: expected an ExecCredential object, got ${Array.isArray(value) ? 'a list' : typeof value}`);
  const kind = ownField(value, 'kind');
  const version = ownField(value, 'apiVersion');
  if (kind === undefined || kind === '') throw new ExecCredentialError("decoding stdout: Object 'Kind' is missing in the plugin's output");
  if (typeof kind !== 'string' || typeof version !== 'string') throw new ExecCredentialError('decoding stdout: kind and apiVersion must be strings');
  if (kind !== KIND) throw new ExecCredentialError(`decoding stdout: no kind "${kind}" is registered for version "${version}"`);
  if (version !== apiVersion) throw new ExecCredentialError(`exec plugin is configured to use API version ${apiVersion}, plugin returned version ${version}`);
  const status = ownField(value, 'status');
  if (status === undefined || status === null) throw new ExecCredentialError("exec plugin didn't return a status field");
  if (!isJSONObject(status)) throw new ExecCredentialError('decoding stdout: status must be an object');
  const token = stringField(status, 'token');
  const certPEM = stringField(status, 'clientCertificateData');
  const keyPEM = stringField(status, 'clientKeyData');
  const expiration = stringField(status, 'expirationTimestamp');
  if (token === '' && certPEM === '' && keyPEM === '') throw new ExecCredentialError("exec plugin didn't return a token or cert/key pair");
  if ((certPEM === '') !== (keyPEM === '')) throw new ExecCredentialError('exec plugin returned only certificate or key, not both');
  return {
    token: token === '' ? undefined : token,
    cert: certPEM === '' ? undefined : checkedPair(certPEM, keyPEM),
    expiresAt: expiration === '' ? undefined : parseTime(expiration),
  };
}

function stringField(status: JSONObject, key: string): string {
  const v = ownField(status, key);
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new ExecCredentialError(`decoding stdout: status.${key} must be a string, got ${Array.isArray(v) ? 'a list' : typeof v}`);
  return v;
}

/** tls.X509KeyPair's checks: both parse and the key is the certificate's. */
function checkedPair(cert: string, key: string): ClientCertificate {
  try {
    const x509 = new X509Certificate(cert);
    if (!x509.checkPrivateKey(createPrivateKey(key))) throw new Error('tls: private key does not match public key');
  } catch (e) {
    throw new ExecCredentialError(`failed parsing client key/certificate: ${(e as Error).message}`, { cause: e });
  }
  return { cert, key };
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** metav1.Time's JSON form. */
function parseTime(s: string): number {
  const ms = RFC3339.test(s) ? Date.parse(s) : NaN;
  if (Number.isNaN(ms)) throw new ExecCredentialError(`decoding stdout: parsing time ${JSON.stringify(s)} as "2006-01-02T15:04:05Z07:00": not an RFC 3339 time`);
  return ms;
}
