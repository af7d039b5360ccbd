import { newNotAcceptable } from '../../apimachinery/errors/index.js';
import { parseAccept } from '../../apimachinery/serializer/accept.js';

/**
 * Output media type negotiation for resource endpoints (k8s.io/apiserver/pkg/endpoints/handlers/
 * negotiation): the first Accept clause, in goautoneg order, that a serializer and the endpoint
 * both accept wins; `as`/`g`/`v` ask for a transformed object (Table, PartialObjectMetadata).
 */

/** An output encoding the server offers. */
export interface SerializerInfo {
  /** `application/json`: also the Content-Type written. */
  readonly mediaType: string;
  readonly type: string;
  readonly subtype: string;
  /** Whether it can encode watch streams. */
  readonly streaming: boolean;
}

export const JSON_SERIALIZER: SerializerInfo = { mediaType: 'application/json', type: 'application', subtype: 'json', streaming: true };
export const YAML_SERIALIZER: SerializerInfo = { mediaType: 'application/yaml', type: 'application', subtype: 'yaml', streaming: false };

/** What resource endpoints encode to, in preference order (protobuf is not offered). */
export const RESOURCE_SERIALIZERS: readonly SerializerInfo[] = [JSON_SERIALIZER, YAML_SERIALIZER];

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface MediaTypeOptions {
  readonly serializer: SerializerInfo;
  /** The transformation asked for (`as=Table;g=meta.k8s.io;v=v1`); undefined for the object itself. */
  readonly convert: GroupVersionKind | undefined;
  /** `stream=watch` when asked. */
  readonly stream: string;
  readonly pretty: boolean;
}

/** What an endpoint can produce beyond its own objects (negotiation.EndpointRestrictions). */
export interface EndpointRestrictions {
  allowsMediaTypeTransform(type: string, subtype: string, convert: GroupVersionKind | undefined): boolean;
  allowsServerVersion(version: string): boolean;
  allowsStreamSchema(schema: string): boolean;
}

/** The restrictions of a resource endpoint (RequestScope): Table only with a convertor, as JSON or YAML. */
export function resourceEndpointRestrictions(opts: { tableConvertor: boolean }): EndpointRestrictions {
  return {
    allowsMediaTypeTransform(type, subtype, convert) {
      if (convert === undefined) return true;
      if (convert.group !== 'meta.k8s.io' || (convert.version !== 'v1' && convert.version !== 'v1beta1')) return false;
      switch (convert.kind) {
        case 'Table':
          return opts.tableConvertor && type === 'application' && (subtype === 'json' || subtype === 'yaml');
        case 'PartialObjectMetadata':
        case 'PartialObjectMetadataList':
          return true;
        default:
          return false;
      }
    },
    allowsServerVersion: (version) => version === 'v1',
    allowsStreamSchema: (schema) => schema === 'watch',
  };
}

/** Negotiates the encoding of a response; 406 NotAcceptable when no clause can be served. */
export function negotiateOutputMediaType(accept: string | undefined, restrictions: EndpointRestrictions): MediaTypeOptions {
  const found = negotiateMediaTypeOptions(accept ?? '', RESOURCE_SERIALIZERS, restrictions);
  if (found === undefined) throw newNotAcceptable(RESOURCE_SERIALIZERS.map((s) => s.mediaType));
  return found;
}

/** Negotiates the encoding of a watch stream: only streaming serializers qualify. */
export function negotiateOutputMediaTypeStream(accept: string | undefined, restrictions: EndpointRestrictions): MediaTypeOptions {
  const streaming = RESOURCE_SERIALIZERS.filter((s) => s.streaming);
  const found = negotiateMediaTypeOptions(accept ?? '', streaming, restrictions);
  if (found === undefined) throw newNotAcceptable(streaming.map((s) => `${s.mediaType};stream=watch`));
  return found;
}

function negotiateMediaTypeOptions(header: string, accepted: readonly SerializerInfo[], endpoint: EndpointRestrictions): MediaTypeOptions | undefined {
  const first = accepted[0];
  if (header.trim() === '' && first !== undefined) return { serializer: first, convert: undefined, stream: '', pretty: false };
  for (const clause of parseAccept(header)) {
    for (const s of accepted) {
      const typeMatches = clause.type === '*' ? clause.subtype === '*' : clause.type === s.type && (clause.subtype === '*' || clause.subtype === s.subtype);
      if (!typeMatches) continue;
      const options = acceptMediaTypeOptions(clause.params, s, endpoint);
      if (options !== undefined) return options;
    }
  }
  return undefined;
}

function acceptMediaTypeOptions(params: Readonly<Record<string, string>>, s: SerializerInfo, endpoint: EndpointRestrictions): MediaTypeOptions | undefined {
  let convert: { group: string; version: string; kind: string } | undefined;
  let stream = '';
  let pretty = false;
  for (const [k, v] of Object.entries(params)) {
    switch (k) {
      case 'as':
        convert = { group: '', version: '', ...convert, kind: v };
        break;
      case 'g':
        convert = { version: '', kind: '', ...convert, group: v };
        break;
      case 'v':
        convert = { group: '', kind: '', ...convert, version: v };
        break;
      case 'stream':
        if (v !== '' && (!s.streaming || !endpoint.allowsStreamSchema(v))) return undefined;
        stream = v;
        break;
      case 'sv':
        if (v !== '' && !endpoint.allowsServerVersion(v)) return undefined;
        break;
      case 'pretty':
        pretty = v === '1';
        break;
      default:
        break;
    }
  }
  if (!endpoint.allowsMediaTypeTransform(s.type, s.subtype, convert)) return undefined;
  return { serializer: s, convert, stream, pretty };
}
