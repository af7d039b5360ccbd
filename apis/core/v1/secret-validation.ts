import { JSONSyntaxError, scanJSON } from '../../../runtime/apimachinery/serializer/json-scan.js';
import type { FieldError } from '../../../runtime/apimachinery/validation/field.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../runtime/apimachinery/validation/objectmeta.js';
import type { Secret } from './types.js';
import { validateKubeFinalizerNames } from './objectmeta-validation.js';

/** corev1.MaxSecretSize: the bytes of all values of a Secret together. */
export const MAX_SECRET_SIZE = 1024 * 1024;

/** The secret types kube-apiserver checks for required keys (corev1.SecretType*), and the keys. */
export const SecretType = {
  Opaque: 'Opaque',
  ServiceAccountToken: 'kubernetes.io/service-account-token',
  Dockercfg: 'kubernetes.io/dockercfg',
  DockerConfigJSON: 'kubernetes.io/dockerconfigjson',
  BasicAuth: 'kubernetes.io/basic-auth',
  SSHAuth: 'kubernetes.io/ssh-auth',
  TLS: 'kubernetes.io/tls',
} as const;

export const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';
export const DOCKER_CONFIG_KEY = '.dockercfg';
export const DOCKER_CONFIG_JSON_KEY = '.dockerconfigjson';
export const BASIC_AUTH_USERNAME_KEY = 'username';
export const BASIC_AUTH_PASSWORD_KEY = 'password';
export const SSH_AUTH_PRIVATE_KEY = 'ssh-privatekey';
export const TLS_CERT_KEY = 'tls.crt';
export const TLS_PRIVATE_KEY_KEY = 'tls.key';

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
const CONFIG_KEY_MESSAGE =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
const IMMUTABLE_SET = 'field is immutable when `immutable` is set';

/** Field paths as Go's field.Path.Key writes them: `data[tls.crt]`, the key unquoted. */
const key = (parent: string, k: string): string => `${parent}[${k}]`;
const required = (field: string): FieldError => ({ type: 'FieldValueRequired', field, detail: '' });

/**
 * kube's ValidateSecret beyond ObjectMeta (which the generic store checks): data keys as
 * IsConfigMapKey, 1 MiB of values in total, and the keys each well-known type requires.
 * Runs after stringData was merged into data, as kube's does after conversion.
 */
export function validateSecret(secret: Secret): FieldError[] {
  const errs: FieldError[] = validateKubeFinalizerNames(secret.metadata);
  const data = secret.data ?? {};
  let total = 0;
  for (const [k, value] of Object.entries(data)) {
    for (const msg of isConfigMapKey(k)) errs.push({ type: 'FieldValueInvalid', field: key('data', k), badValue: k, detail: msg });
    total += decodedLength(value);
  }
  // kube 1.32's field.TooLong wording ("may not be more than" came with 1.34).
  if (total > MAX_SECRET_SIZE) errs.push({ type: 'FieldValueTooLong', field: 'data', badValue: '<value omitted>', detail: `may not be more than ${MAX_SECRET_SIZE} bytes` });
  errs.push(...validateRequiredKeys(secret, data));
  return errs;
}

/** kube's ValidateSecretUpdate beyond ObjectMeta: the type never changes, nor an immutable Secret's data. */
export function validateSecretUpdate(secret: Secret, old: Secret): FieldError[] {
  const errs: FieldError[] = validateKubeFinalizerNames(secret.metadata);
  if ((secret.type ?? '') !== (old.type ?? '')) errs.push({ type: 'FieldValueInvalid', field: 'type', badValue: secret.type ?? '', detail: FIELD_IMMUTABLE_ERROR_MSG });
  if (old.immutable === true) {
    if (secret.immutable !== true) errs.push({ type: 'FieldValueForbidden', field: 'immutable', detail: IMMUTABLE_SET });
    if (!sameData(secret.data, old.data)) errs.push({ type: 'FieldValueForbidden', field: 'data', detail: IMMUTABLE_SET });
  }
  errs.push(...validateSecret(secret));
  return errs;
}

function validateRequiredKeys(secret: Secret, data: Readonly<Record<string, string>>): FieldError[] {
  const has = (k: string) => Object.hasOwn(data, k);
  switch (secret.type ?? '') {
    case SecretType.ServiceAccountToken: {
      const annotations = secret.metadata?.annotations ?? {};
      const name = Object.hasOwn(annotations, SERVICE_ACCOUNT_NAME_KEY) ? annotations[SERVICE_ACCOUNT_NAME_KEY] : '';
      return name === undefined || name === '' ? [required(key('metadata.annotations', SERVICE_ACCOUNT_NAME_KEY))] : [];
    }
    case SecretType.Dockercfg:
      return requiredJSON(data, DOCKER_CONFIG_KEY);
    case SecretType.DockerConfigJSON:
      return requiredJSON(data, DOCKER_CONFIG_JSON_KEY);
    case SecretType.BasicAuth:
      // Either may be empty, but one must be present.
      return has(BASIC_AUTH_USERNAME_KEY) || has(BASIC_AUTH_PASSWORD_KEY) ? [] : [required(key('data', BASIC_AUTH_USERNAME_KEY)), required(key('data', BASIC_AUTH_PASSWORD_KEY))];
    case SecretType.SSHAuth:
      return has(SSH_AUTH_PRIVATE_KEY) && decodedLength(data[SSH_AUTH_PRIVATE_KEY] ?? '') > 0 ? [] : [required(key('data', SSH_AUTH_PRIVATE_KEY))];
    case SecretType.TLS:
      return [...(has(TLS_CERT_KEY) ? [] : [required(key('data', TLS_CERT_KEY))]), ...(has(TLS_PRIVATE_KEY_KEY) ? [] : [required(key('data', TLS_PRIVATE_KEY_KEY))])];
    default:
      return [];
  }
}

/** The key must be present and its value a JSON object (kube unmarshals it into a map). */
function requiredJSON(data: Readonly<Record<string, string>>, k: string): FieldError[] {
  if (!Object.hasOwn(data, k)) return [required(key('data', k))];
  const problem = goUnmarshalMapError(Buffer.from(data[k] ?? '', 'base64'));
  return problem === undefined ? [] : [{ type: 'FieldValueInvalid', field: key('data', k), badValue: '<secret contents redacted>', detail: problem }];
}

/** The error text of Go's json.Unmarshal into map[string]interface{}, or undefined when it succeeds. */
export function goUnmarshalMapError(bytes: Uint8Array): string | undefined {
  try {
    scanJSON(bytes);
  } catch (e) {
    if (e instanceof JSONSyntaxError) return e.message;
    throw e;
  }
  const value: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
  if (value === null || (typeof value === 'object' && !Array.isArray(value))) return undefined;
  const what = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
  return `json: cannot unmarshal ${what} into Go value of type map[string]interface {}`;
}

/** validation.IsConfigMapKey. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!CONFIG_KEY.test(value)) errs.push(CONFIG_KEY_MESSAGE);
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

function decodedLength(base64: string): number {
  return Buffer.from(base64, 'base64').length;
}

/**
 * reflect.DeepEqual of the decoded maps. Absent and empty are one here: Go drops an empty map
 * when it stores the object (omitempty), so a stored Secret never holds one.
 */
function sameData(a: Readonly<Record<string, string>> = {}, b: Readonly<Record<string, string>> = {}): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && Buffer.from(a[k] ?? '', 'base64').equals(Buffer.from(b[k] ?? '', 'base64')));
}
