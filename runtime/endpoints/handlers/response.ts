import type { KubeObject, ObjectList } from '../../registry/rest.js';
import type { APIRequest, APIResponse } from '../../apimachinery/request/http.js';
import { negotiateOutputMediaType, type MediaTypeOptions, type SerializerInfo } from '../negotiation/negotiate.js';
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
 * `*apps.Deployment`, `*wardle.FlunderList`).
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

/** `?pretty=true`, or a curl/wget User-Agent (isPrettyPrint). */
function isPrettyPrint(req: APIRequest): boolean {
  const pretty = req.query.get('pretty');
  if (pretty !== null) return !(pretty === '0' || pretty.toLowerCase() === 'false');
  const ua = headerValue(req.headers['user-agent']) ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget');
}
