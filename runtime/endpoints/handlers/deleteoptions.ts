import type { DeleteOptions as MetaDeleteOptions } from '../../../apis/meta/v1/options.js';
import { newInvalid, StatusError, toStatusError } from '../../apimachinery/errors/index.js';
import { hasField, isJSONObject, jsonTypeName, ownField } from '../../apimachinery/serializer/jsonvalue.js';
import { decodeRequestBody, type DecodeCancellation } from '../../apimachinery/serializer/body.js';
import type { FieldError } from '../../apimachinery/validation/field.js';
import type { DeleteOptions } from '../../registry/rest.js';
import type { APIRequest } from '../../apimachinery/request/http.js';
import { queryBool, queryInt, queryString, queryStrings } from './queryparams.js';
import { validateDryRun } from './writeoptions.js';

/**
 * DeleteOptions of a DELETE: from the body when there is one (JSON, YAML or protobuf, kind and
 * apiVersion optional: kubectl sends `{"propagationPolicy":"Background"}`), else from the query. Validated
 * as ValidateDeleteOptions (422 on DeleteOptions.meta.k8s.io).
 */
export async function readDeleteOptions(req: APIRequest): Promise<{ options: DeleteOptions; raw: MetaDeleteOptions }> {
  const body = await req.readBody();
  const raw = body.length > 0 ? await decodeDeleteOptionsBody(body, String(req.headers['content-type'] ?? ''), req) : deleteOptionsFromQuery(req.query);
  validateDeleteOptions(raw);
  return {
    raw: { ...raw, kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' },
    options: {
      dryRun: (raw.dryRun ?? []).length > 0,
      gracePeriodSeconds: raw.gracePeriodSeconds,
      preconditions: raw.preconditions,
      propagationPolicy: raw.propagationPolicy,
      orphanDependents: raw.orphanDependents,
    },
  };
}

function deleteOptionsFromQuery(query: URLSearchParams): MetaDeleteOptions {
  const out: MetaDeleteOptions = {};
  const grace = queryInt(query, 'gracePeriodSeconds');
  if (grace !== undefined) out.gracePeriodSeconds = grace;
  const orphan = queryBool(query, 'orphanDependents');
  if (orphan !== undefined) out.orphanDependents = orphan;
  if (query.has('propagationPolicy')) out.propagationPolicy = queryString(query, 'propagationPolicy') as MetaDeleteOptions['propagationPolicy'];
  const dryRun = queryStrings(query, 'dryRun');
  if (dryRun.length > 0) out.dryRun = dryRun;
  return out;
}

type FieldType = 'int' | 'string' | 'bool' | 'strings' | 'preconditions';
const FIELDS: Readonly<Record<string, FieldType>> = {
  gracePeriodSeconds: 'int',
  propagationPolicy: 'string',
  orphanDependents: 'bool',
  dryRun: 'strings',
  preconditions: 'preconditions',
  ignoreStoreReadErrorWithClusterBreakingPotential: 'bool',
};

/** What a DELETE body decodes into; a protobuf envelope may name DeleteOptions under any apiVersion. */
const DELETE_OPTIONS = { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' };

/**
 * The body decoded as delete.go decodes it: the meta internal scheme's non-strict codec into a
 * metav1.DeleteOptions. Its errors are not API errors there (scope.err of the decoder's error),
 * so every one is a 500 with the decoder's text; only the media type's 415 is a Status.
 */
async function decodeDeleteOptionsBody(body: Buffer, contentType: string, cancel: DecodeCancellation): Promise<MetaDeleteOptions> {
  let value: unknown;
  try {
    ({ value } = await decodeRequestBody(body, contentType, { into: DELETE_OPTIONS }, cancel));
  } catch (err) {
    if (err instanceof StatusError && err.code === 400) throw toStatusError(new Error(err.message));
    throw err;
  }
  const message = decodeDeleteOptionsError(value);
  if (message !== undefined) throw toStatusError(new Error(message));
  return (isJSONObject(value) ? Object.fromEntries(Object.keys(FIELDS).flatMap((k) => (hasField(value, k) && value[k] !== null ? [[k, value[k]]] : []))) : {}) as MetaDeleteOptions;
}

/** The meta internal scheme (metainternalversionscheme.Scheme), named by where kube-apiserver makes it. */
const META_INTERNAL_SCHEME = 'pkg/apis/meta/internalversion/scheme/register.go:27';

/**
 * Why kube's decoder cannot decode `value` into DeleteOptions: the apiVersion/kind probe
 * (json.SimpleMetaFactory.Interpret), a kind the scheme does not have (DeleteOptions is
 * registered unversioned, so any apiVersion works for it), then Go's first type error in
 * document order. null decodes as empty options.
 */
function decodeDeleteOptionsError(value: unknown): string | undefined {
  if (value === null) return undefined;
  const probe = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
  if (!isJSONObject(value)) return `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonTypeName(value)} into Go value of type ${probe}`;
  for (const field of ['apiVersion', 'kind']) {
    const v = ownField(value, field);
    if (v !== undefined && v !== null && typeof v !== 'string')
      return `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonTypeName(v)} into Go struct field .${field} of type string`;
  }
  const apiVersion = typeof value['apiVersion'] === 'string' ? value['apiVersion'] : '';
  if (apiVersion.split('/').length > 2) return `unexpected GroupVersion string: ${apiVersion}`;
  const kind = typeof value['kind'] === 'string' && value['kind'] !== '' ? value['kind'] : 'DeleteOptions';
  if (kind !== 'DeleteOptions') {
    const slash = apiVersion === '/' ? -1 : apiVersion.indexOf('/');
    let group = slash < 0 ? '' : apiVersion.slice(0, slash);
    let version = slash < 0 ? (apiVersion === '/' ? '' : apiVersion) : apiVersion.slice(slash + 1);
    if (version === '' && (group === '' || group === 'meta.k8s.io')) [group, version] = ['meta.k8s.io', 'v1'];
    return `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(group === '' ? version : `${group}/${version}`)} in scheme ${JSON.stringify(META_INTERNAL_SCHEME)}`;
  }
  for (const key of Object.keys(value)) {
    const type = hasField(FIELDS, key) ? FIELDS[key] : undefined;
    const v = value[key];
    if (type === undefined || v === null) continue;
    const e = fieldTypeError(key, type, v);
    if (e !== undefined) return e;
  }
  return undefined;
}

/** Go's error for a DeleteOptions field of the wrong JSON type. */
function fieldTypeError(key: string, type: FieldType, v: unknown): string | undefined {
  const at = (struct: string, path: string, goType: string, got: unknown): string => `json: cannot unmarshal ${goValue(got)} into Go struct field ${struct}.${path} of type ${goType}`;
  switch (type) {
    case 'int':
      return typeof v === 'number' && Number.isInteger(v) ? undefined : at('DeleteOptions', key, 'int64', v);
    case 'string':
      return typeof v === 'string' ? undefined : at('DeleteOptions', key, key === 'propagationPolicy' ? 'v1.DeletionPropagation' : 'string', v);
    case 'bool':
      return typeof v === 'boolean' ? undefined : at('DeleteOptions', key, 'bool', v);
    case 'strings': {
      if (!Array.isArray(v)) return at('DeleteOptions', key, '[]string', v);
      const bad = v.find((x) => x !== null && typeof x !== 'string');
      return bad === undefined ? undefined : at('DeleteOptions', key, 'string', bad);
    }
    case 'preconditions': {
      if (!isJSONObject(v)) return at('DeleteOptions', key, 'v1.Preconditions', v);
      for (const k of Object.keys(v)) {
        const x = v[k];
        if ((k === 'uid' || k === 'resourceVersion') && x !== null && typeof x !== 'string') return at('Preconditions', `preconditions.${k}`, k === 'uid' ? 'types.UID' : 'string', x);
      }
      return undefined;
    }
  }
}

/** How Go's UnmarshalTypeError names the JSON value: `number 1.5` for a non-integer into an integer. */
function goValue(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? 'number' : `number ${String(v)}`;
  return jsonTypeName(v);
}

const PROPAGATION_POLICIES = ['Foreground', 'Background', 'Orphan', 'nil'];

function validateDeleteOptions(o: MetaDeleteOptions): void {
  const errs: FieldError[] = [];
  if (o.orphanDependents !== undefined && o.propagationPolicy !== undefined) {
    errs.push({ type: 'FieldValueInvalid', field: 'propagationPolicy', badValue: o.propagationPolicy, detail: 'orphanDependents and deletionPropagation cannot be both set' });
  }
  if (o.propagationPolicy !== undefined && !PROPAGATION_POLICIES.slice(0, 3).includes(o.propagationPolicy)) {
    errs.push({
      type: 'FieldValueNotSupported',
      field: 'propagationPolicy',
      badValue: o.propagationPolicy,
      detail: `supported values: ${PROPAGATION_POLICIES.map((v) => JSON.stringify(v)).join(', ')}`,
    });
  }
  errs.push(...validateDryRun(o.dryRun ?? []));
  if (errs.length > 0) throw newInvalid({ group: 'meta.k8s.io', kind: 'DeleteOptions' }, '', errs);
}
