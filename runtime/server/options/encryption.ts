import { readFileSync } from 'node:fs';
import type { GroupResource } from '../../apimachinery/errors/index.js';
import { decodeYAML } from '../../apimachinery/serializer/yaml.js';
import { isJSONObject, jsonTypeName, ownField } from '../../apimachinery/serializer/jsonvalue.js';
import { childPath, formatFieldError, type FieldError } from '../../apimachinery/validation/field.js';
import { AES_KEY_SIZES } from '../../storage/value/aes.js';
import { newResourceTransformers, type EncryptionRule, type ProviderConfig, type ResourceTransformers } from '../../storage/value/resources.js';
import { SECRETBOX_KEY_SIZE } from '../../storage/value/secretbox.js';
import { OptionsError } from './flags.js';

/**
 * --encryption-provider-config (k8s.io/apiserver/pkg/server/options/encryptionconfig): reads an
 * EncryptionConfiguration (apiserver.config.k8s.io/v1, YAML or JSON), validates it as kube's
 * ValidateEncryptionConfiguration does (same field paths and wording) and builds the
 * transformer of every resource. KMS providers need a plugin this server does not talk to: they
 * are refused, not ignored.
 */

const API_VERSION = 'apiserver.config.k8s.io/v1';
const KIND = 'EncryptionConfiguration';
const KEYED = ['aesgcm', 'aescbc', 'secretbox'] as const;
type Keyed = (typeof KEYED)[number];
const PROVIDER_NAMES = ['kms', ...KEYED, 'identity'] as const;

interface RawKey {
  readonly name: string;
  readonly secret: string;
}
type RawProvider = { readonly [P in (typeof PROVIDER_NAMES)[number]]?: P extends Keyed ? { readonly keys: readonly RawKey[] } : object };
interface RawRule {
  readonly resources: readonly string[];
  readonly providers: readonly RawProvider[];
}

/** The per-resource transformers of the file; OptionsError naming the flag and the file for anything wrong. */
export function loadEncryptionConfig(file: string): ResourceTransformers {
  let rules: EncryptionRule[];
  try {
    rules = parseEncryptionConfiguration(readConfigFile(file), file);
  } catch (e) {
    throw new OptionsError(`--encryption-provider-config ${file}: error while parsing file: ${(e as Error).message}`, { cause: e });
  }
  try {
    return newResourceTransformers(rules);
  } catch (e) {
    throw new OptionsError(`--encryption-provider-config ${file}: error while building transformers: ${(e as Error).message}`, { cause: e });
  }
}

function readConfigFile(file: string): string {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (e) {
    throw new Error(`error while loading file: error reading encryption provider configuration file ${JSON.stringify(file)}: ${(e as Error).message}`, { cause: e });
  }
  if (data.length === 0) throw new Error(`error while loading file: encryption provider configuration file ${JSON.stringify(file)} is empty`);
  return data.toString('utf8');
}

/** Decodes and validates a configuration's text; throws kube's message (decoding names `file`). */
export function parseEncryptionConfiguration(text: string, file: string): EncryptionRule[] {
  let raw: RawRule[];
  try {
    raw = decodeConfiguration(decodeYAML(text).value);
  } catch (e) {
    throw new Error(`error decoding encryption provider configuration file ${JSON.stringify(file)}: ${(e as Error).message}`, { cause: e });
  }
  const errs = validateEncryptionConfiguration(raw);
  if (errs.length > 0) {
    const messages = [...new Set(errs.map(formatFieldError))];
    throw new Error(messages.length === 1 ? (messages[0] as string) : `[${messages.join(', ')}]`);
  }
  return raw.map((r) => ({ resources: r.resources.map(parseGroupResource), providers: r.providers.map(providerConfig) }));
}

// --- decoding: the JSON shapes Go's decoder accepts, and its words for the others -----------

/** A value Go's json.Unmarshal refuses; `field` is its dotted path from the document root. */
function unmarshalError(v: unknown, struct: string, field: string, goType: string): Error {
  return new Error(`json: cannot unmarshal ${jsonTypeName(v)} into Go struct field ${struct}.${field} of type ${goType}`);
}

function objectField(o: object, name: string, struct: string, field: string, goType: string): object | undefined {
  const v = ownField(o, name);
  if (v === undefined || v === null) return undefined;
  if (!isJSONObject(v)) throw unmarshalError(v, struct, field, goType);
  return v;
}

function listField<T>(o: object, name: string, struct: string, field: string, goType: string, item: (v: unknown) => T): T[] {
  const v = ownField(o, name);
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw unmarshalError(v, struct, field, `[]${goType}`);
  return v.map(item);
}

function stringValue(v: unknown, struct: string, field: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw unmarshalError(v, struct, field, 'string');
  return v;
}

function decodeConfiguration(doc: unknown): RawRule[] {
  if (!isJSONObject(doc))
    throw new Error(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonTypeName(doc)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  const apiVersion = ownField(doc, 'apiVersion');
  const kind = ownField(doc, 'kind');
  if (typeof kind !== 'string' || kind === '') throw new Error("Object 'Kind' is missing");
  if (typeof apiVersion !== 'string' || apiVersion === '') throw new Error("Object 'apiVersion' is missing");
  if (apiVersion !== API_VERSION || kind !== KIND) throw new Error(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`);
  return listField(doc, 'resources', KIND, 'resources', 'v1.ResourceConfiguration', (rule) => {
    if (rule === null) return { resources: [], providers: [] };
    if (!isJSONObject(rule)) throw unmarshalError(rule, KIND, 'resources', 'v1.ResourceConfiguration');
    return {
      resources: listField(rule, 'resources', 'ResourceConfiguration', 'resources.resources', 'string', (r) => stringValue(r, 'ResourceConfiguration', 'resources.resources')),
      providers: listField(rule, 'providers', 'ResourceConfiguration', 'resources.providers', 'v1.ProviderConfiguration', decodeProvider),
    };
  });
}

function decodeProvider(p: unknown): RawProvider {
  const struct = 'ProviderConfiguration';
  if (p === null) return {};
  if (!isJSONObject(p)) throw unmarshalError(p, 'ResourceConfiguration', 'resources.providers', 'v1.ProviderConfiguration');
  const out: { [name: string]: object } = {};
  for (const name of PROVIDER_NAMES) {
    const field = `resources.providers.${name}`;
    const goType = name === 'kms' ? 'v1.KMSConfiguration' : name === 'identity' ? 'v1.IdentityConfiguration' : name === 'secretbox' ? 'v1.SecretboxConfiguration' : 'v1.AESConfiguration';
    const cfg = objectField(p, name, struct, field, goType);
    if (cfg === undefined) continue;
    out[name] = (KEYED as readonly string[]).includes(name) ? { keys: listField(cfg, 'keys', goType.slice(3), `${field}.keys`, 'v1.Key', (k) => decodeKey(k, `${field}.keys`)) } : cfg;
  }
  return out;
}

function decodeKey(k: unknown, field: string): RawKey {
  if (k === null) return { name: '', secret: '' };
  if (!isJSONObject(k)) throw unmarshalError(k, 'AESConfiguration', field, 'v1.Key');
  return { name: stringValue(ownField(k, 'name'), 'Key', `${field}.name`), secret: stringValue(ownField(k, 'secret'), 'Key', `${field}.secret`) };
}

// --- validation (kube's validation_encryption.go) ---------------------------------------------

/** schema.ParseGroupResource: the resource up to the first dot, the group after it. */
function parseGroupResource(s: string): GroupResource {
  const dot = s.indexOf('.');
  return dot < 0 ? { group: '', resource: s } : { group: s.slice(dot + 1), resource: s.slice(0, dot) };
}

const invalid = (field: string, badValue: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue, detail });
const required = (field: string, detail: string): FieldError => ({ type: 'FieldValueRequired', field, detail });

export function validateEncryptionConfiguration(rules: readonly RawRule[]): FieldError[] {
  const root = 'resources';
  if (rules.length === 0) return [required(root, `at least one ${root} is required`)];
  const errs: FieldError[] = [];
  for (const [i, rule] of rules.entries()) {
    const r = childPath(childPath(root, i), 'resources');
    const p = childPath(childPath(root, i), 'providers');
    if (rule.resources.length === 0) errs.push(required(r, `at least one ${r} is required`));
    errs.push(...validateResourceOverlap(rule.resources, r), ...validateResourceNames(rule.resources, r));
    if (rule.providers.length === 0) errs.push(required(p, `at least one ${p} is required`));
    for (const [j, provider] of rule.providers.entries()) errs.push(...validateProvider(provider, childPath(p, j)));
  }
  return errs;
}

function validateResourceOverlap(resources: readonly string[], path: string): FieldError[] {
  const grs = resources.map(parseGroupResource);
  const same = (a: GroupResource, b: GroupResource): boolean => a.group === b.group && a.resource === b.resource;
  let duplicate = false;
  let overlap = false;
  for (const [i, a] of grs.entries()) {
    for (const [j, b] of grs.entries()) {
      if (i === j) continue;
      // kube's loop: only the first duplicate pair skips the overlap checks (`*.` twice is both).
      if (same(a, b) && !duplicate) {
        duplicate = true;
        continue;
      }
      if ((a.group === '*' && a.resource === '*') || (a.group === b.group && (a.resource === '*' || b.resource === '*'))) overlap = true;
    }
  }
  const errs: FieldError[] = [];
  if (duplicate) errs.push(invalid(path, resources, 'the same resource cannot be specified multiple times'));
  if (overlap) errs.push(invalid(path, resources, "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked"));
  return errs;
}

function resourceNameError(res: string): string | undefined {
  const gr = parseGroupResource(res);
  if (/[A-Z]/.test(res)) return 'resource name should not contain capital letters';
  if (res === '*') return "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources";
  if (['apiserveripinfo', 'serviceipallocations', 'servicenodeportallocations'].includes(res)) return 'resources which do not have REST API/s cannot be encrypted';
  if (gr.group === 'events.k8s.io') return "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file";
  if (gr.group === 'extensions') return "'extensions' group has been removed and cannot be used for encryption";
  if (gr.group === '*' && gr.resource !== '*') return 'encrypting the same resource across groups is not supported';
  return undefined;
}

function validateResourceNames(resources: readonly string[], path: string): FieldError[] {
  return resources.flatMap((res, j) => {
    const detail = resourceNameError(res);
    return detail === undefined ? [] : [invalid(childPath(path, j), res, detail)];
  });
}

function validateProvider(provider: RawProvider, path: string): FieldError[] {
  const found = PROVIDER_NAMES.filter((n) => provider[n] !== undefined);
  if (found.length === 0) return [invalid(path, provider, 'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity')];
  if (found.length > 1) return [invalid(path, provider, 'more than one provider specified in a single element, should split into different list elements')];
  const name = found[0] as (typeof PROVIDER_NAMES)[number];
  if (name === 'kms') return [{ type: 'FieldValueForbidden', field: childPath(path, 'kms'), detail: 'KMS providers are not supported by this server; use aesgcm, aescbc or secretbox' }];
  if (name === 'identity') return [];
  const sizes = name === 'secretbox' ? [SECRETBOX_KEY_SIZE] : AES_KEY_SIZES;
  return validateKeys(provider[name]?.keys ?? [], childPath(childPath(path, name), 'keys'), sizes);
}

function validateKeys(keys: readonly RawKey[], path: string, sizes: readonly number[]): FieldError[] {
  if (keys.length === 0) return [required(path, 'at least one keys is required')];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  for (const [i, key] of keys.entries()) {
    const p = childPath(path, i);
    if (key.name === '') errs.push(required(childPath(p, 'name'), 'name is a mandatory field for a key'));
    // Each key's prefix is `<name>:`: a second key of one name could never be read.
    else if (names.has(key.name)) errs.push({ type: 'FieldValueDuplicate', field: childPath(p, 'name'), badValue: key.name, detail: '' });
    names.add(key.name);
    if (key.secret === '') {
      errs.push(required(childPath(p, 'secret'), 'secret is a mandatory field for a key'));
      continue;
    }
    const secret = decodeStdBase64(key.secret);
    if (secret === undefined) errs.push(invalid(childPath(p, 'secret'), 'REDACTED', 'secrets must be base64 encoded'));
    else if (!sizes.includes(secret.length)) errs.push(invalid(childPath(p, 'secret'), 'REDACTED', `secret is not of the expected length, got ${secret.length}, expected one of [${sizes.join(' ')}]`));
  }
  return errs;
}

/** Go's base64.StdEncoding.DecodeString: padded standard alphabet, line breaks ignored; undefined when invalid. */
function decodeStdBase64(s: string): Buffer | undefined {
  const text = s.replace(/[\r\n]/g, '');
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return undefined;
  return Buffer.from(text, 'base64');
}

function providerConfig(p: RawProvider): ProviderConfig {
  for (const type of KEYED) {
    const cfg = p[type];
    if (cfg !== undefined) return { type, keys: cfg.keys.map((k) => ({ name: k.name, secret: decodeStdBase64(k.secret) as Buffer })) };
  }
  return { type: 'identity' };
}
