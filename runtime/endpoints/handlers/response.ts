import type { KubeObject, ObjectList } from '../../registry/rest.js';
import { toStatusError } from '../../apimachinery/errors/index.js';
import type { APIRequest, APIResponse } from '../../apimachinery/request/http.js';
import { encodeStatusProtobuf } from '../../apimachinery/serializer/protobuf/status.js';
import {
  DEFAULT_ENDPOINT_RESTRICTIONS,
  JSON_SERIALIZER,
  negotiateOutputMediaType,
  PROTOBUF_SERIALIZER,
  tryNegotiateOutputMediaType,
  type MediaTypeOptions,
  type SerializerInfo,
} from '../negotiation/negotiate.js';
import type { TableSource } from '../table/convertor.js';
import { parseTableOptions, transformObject, type TableOptions } from '../table/transform.js';
import type { MaybePromise, RequestScope } from './scope.js';
import { encodeYAML } from '../../apimachinery/serializer/yaml-encode.js';

/**
 * Writing results (handlers/response.go transformResponseObject + responsewriters): the
 * negotiated encoding, the `as=` transformation, lists with `items: []` never null.
 */

/** What a request asked to receive; negotiated before any storage call, as kube does. */
export interface ResponseTarget {
  readonly media: MediaTypeOptions;
  /** Set when a Table was asked for (includeObject validated). */
  readonly table: TableOptions | undefined;
}

/** Negotiates the response (406) and, for Tables, parses TableOptions (400). */
export function negotiateResponse(req: APIRequest, scope: RequestScope): ResponseTarget {
  const media = negotiateOutputMediaType(headerValue(req.headers['accept']), scope.restrictions);
  const table = media.convert?.kind === 'Table' ? parseTableOptions(req.query) : undefined;
  return { media, table };
}

export function headerValue(h: string | string[] | undefined): string | undefined {
  return Array.isArray(h) ? h.join(',') : h;
}

type VersionedList = KubeObject & { items: KubeObject[] };

/**
 * A hub list as the request version's `<Kind>List`, each item converted with kind and apiVersion
 * set; a promise only when the items' conversion is asynchronous. A typed list's ListMeta omits
 * an empty continue; a custom resource's UnstructuredList always has the key (the storage's
 * UpdateList calls SetContinue, which writes "" too).
 */
export function versionedList(scope: RequestScope, list: ObjectList): MaybePromise<VersionedList> {
  const metadata: Record<string, unknown> = { resourceVersion: list.metadata.resourceVersion };
  if (list.metadata.continue !== undefined && list.metadata.continue !== '') metadata['continue'] = list.metadata.continue;
  else if (scope.unstructured === true) metadata['continue'] = '';
  if (list.metadata.remainingItemCount !== undefined) metadata['remainingItemCount'] = list.metadata.remainingItemCount;
  const kind = scope.subresource === '' ? scope.definition.listKind : `${scope.codec.kind}List`;
  const build = (items: KubeObject[]): VersionedList => ({ kind, apiVersion: scope.codec.apiVersion, metadata, items }) as VersionedList;
  const items = scope.codec.fromHubSharedList(list.items);
  return items instanceof Promise ? items.then(build) : build(items);
}

/** The body to encode for `obj` (a versioned object, list or Status) under the negotiated target. */
export function transformResponse(scope: RequestScope, target: ResponseTarget, obj: KubeObject, isList: boolean): unknown {
  const convert = target.media.convert;
  if (convert === undefined) return obj;
  return transformObject(obj as TableSource, isList, convert, scope.tableConvertor, target.table, goTypeName(scope, obj, isList));
}

/** Internal API packages whose Go name is not the group's first label (or whose registry keeps another group's type). */
const INTERNAL_PACKAGES: Readonly<Record<string, string>> = { '': 'core', 'internal.apiserver.k8s.io': 'apiserverinternal', 'events.k8s.io': 'core' };

/**
 * Go's %T of the object kube's handler transforms: the registry's own type, so custom resources'
 * `*unstructured.Unstructured(List)` and otherwise the internal version's (`*core.ConfigMapList`,
 * `*apps.Deployment`).
 */
function goTypeName(scope: RequestScope, obj: KubeObject, isList: boolean): string {
  if (scope.unstructured === true) return isList ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
  const pkg = Object.hasOwn(INTERNAL_PACKAGES, scope.group) ? INTERNAL_PACKAGES[scope.group] : scope.group.split('.')[0];
  const kind = typeof obj.kind === 'string' && obj.kind !== '' ? obj.kind : isList ? `${scope.codec.kind}List` : scope.codec.kind;
  return `*${pkg}.${kind}`;
}

/** Writes a versioned object or list with the negotiated encoding. */
export function writeObject(req: APIRequest, res: APIResponse, scope: RequestScope, target: ResponseTarget, code: number, obj: KubeObject, isList = false): void {
  const body = transformResponse(scope, target, obj, isList);
  res.writeBytes(code, encodeShared(target.media.serializer, body, target.media.pretty || isPrettyPrint(req)), target.media.serializer.mediaType);
}

/** Encodings of frozen (shared, never mutated) objects, per media type and indentation. */
const sharedEncodings = new WeakMap<object, Map<string, string>>();

/**
 * encode, remembered for frozen bodies: an object served from the watch cache is encoded once
 * per version and media type however many gets read it (kube's CachingObject does the same for
 * watch events).
 */
function encodeShared(serializer: SerializerInfo, body: unknown, pretty: boolean): string {
  if (typeof body !== 'object' || body === null || !Object.isFrozen(body)) return encode(serializer, body, pretty);
  let byMedia = sharedEncodings.get(body);
  if (byMedia === undefined) {
    byMedia = new Map();
    sharedEncodings.set(body, byMedia);
  }
  const key = pretty ? `${serializer.mediaType} pretty` : serializer.mediaType;
  let text = byMedia.get(key);
  if (text === undefined) {
    text = encode(serializer, body, pretty);
    byMedia.set(key, text);
  }
  return text;
}

/** Encodes with a serializer; pretty JSON is indented as json.MarshalIndent does. */
export function encode(serializer: SerializerInfo, body: unknown, pretty: boolean): string {
  if (serializer.subtype === 'yaml') return encodeYAML(body);
  return pretty ? `${JSON.stringify(body, null, 2)}\n` : JSON.stringify(body);
}

/**
 * responsewriters.ErrorNegotiated, for errors of resource endpoints (and paths below a group
 * version that name none): the Status in the encoding the Accept header asks for, negotiated
 * again without the endpoint's restrictions (DefaultEndpointRestrictions: no `as=`, no `sv=`) over
 * the scope's serializer, which in kube always has protobuf (built-in codecs and custom resources'
 * alike), so `Accept: application/vnd.kubernetes.protobuf` gets the Status as protobuf even where
 * the object would have been refused. When nothing matches (`text/html`, `as=Table`), the Status
 * as indented JSON (WriteRawJSON). Retry-After from the details, as every error writer.
 */
export function writeErrorNegotiated(req: APIRequest, res: APIResponse, err: unknown): void {
  const status = toStatusError(err).status;
  const retry = status.details?.retryAfterSeconds;
  if (retry !== undefined && retry > 0) res.setHeader('Retry-After', String(retry));
  const media = tryNegotiateOutputMediaType(headerValue(req.headers['accept']), DEFAULT_ENDPOINT_RESTRICTIONS);
  if (media === undefined) return res.writeBytes(status.code, JSON.stringify(status, null, 2), JSON_SERIALIZER.mediaType);
  const serializer = media.serializer;
  if (serializer === PROTOBUF_SERIALIZER) return res.writeBytes(status.code, Buffer.from(encodeStatusProtobuf(status as unknown as Record<string, unknown>)), serializer.mediaType);
  // Only JSON has a pretty serializer.
  res.writeBytes(status.code, encode(serializer, status, serializer === JSON_SERIALIZER && (media.pretty || isPrettyPrint(req))), serializer.mediaType);
}

/**
 * isPrettyPrint: a non-empty `pretty` parameter as strconv.ParseBool reads it (anything it cannot
 * parse is false), otherwise a curl, Wget or browser (`Mozilla/5.0`) User-Agent.
 */
function isPrettyPrint(req: APIRequest): boolean {
  const pretty = req.query.get('pretty');
  if (pretty !== null && pretty !== '') return GO_TRUE.has(pretty);
  const ua = headerValue(req.headers['user-agent']) ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}

/** What strconv.ParseBool reads as true. */
const GO_TRUE: ReadonlySet<string> = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
