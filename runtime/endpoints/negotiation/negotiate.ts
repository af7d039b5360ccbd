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
export const PROTOBUF_SERIALIZER: SerializerInfo = { mediaType: 'application/vnd.kubernetes.protobuf', type: 'application', subtype: 'vnd.kubernetes.protobuf', streaming: true };

/** What the endpoints of built-in kinds encode objects to, in preference order (no protobuf: the gap to kube, whose codecs serve it). */
export const RESOURCE_SERIALIZERS: readonly SerializerInfo[] = [JSON_SERIALIZER, YAML_SERIALIZER];

/**
 * The media types of a custom resource's serializer (1.32's unstructuredNegotiatedSerializer):
 * protobuf is listed (406 and 415 name it) though objects are never encoded in it
 * (StandardSerializers leave it out).
 */
export const CUSTOM_RESOURCE_SERIALIZERS: readonly SerializerInfo[] = [JSON_SERIALIZER, YAML_SERIALIZER, PROTOBUF_SERIALIZER];

/**
 * The media types an error Status is written in (the scope's NegotiatedSerializer, built-in codecs and
 * custom resources' alike): a Status has a protobuf form wherever the objects have none.
 */
export const STATUS_SERIALIZERS: readonly SerializerInfo[] = [JSON_SERIALIZER, YAML_SERIALIZER, PROTOBUF_SERIALIZER];

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
  /**
   * The media types of the endpoint's serializer (NegotiatedSerializer.SupportedMediaTypes): what
   * is negotiated over and what a 406 lists. Default RESOURCE_SERIALIZERS.
   */
  readonly serializers?: readonly SerializerInfo[];
}

/**
 * negotiation.DefaultEndpointRestrictions: no transformation, no server version, watch streams.
 * What an error is negotiated with (ErrorNegotiated), over STATUS_SERIALIZERS.
 */
export const DEFAULT_ENDPOINT_RESTRICTIONS: EndpointRestrictions = {
  allowsMediaTypeTransform: (_type, _subtype, convert) => convert === undefined,
  allowsServerVersion: () => false,
  allowsStreamSchema: (schema) => schema === 'watch',
  serializers: STATUS_SERIALIZERS,
};

/**
 * The restrictions of a resource endpoint (RequestScope): Table only with a convertor, as JSON or
 * YAML. A custom resource's (`customResource`) negotiate over CUSTOM_RESOURCE_SERIALIZERS and
 * refuse protobuf for the object itself (its StandardSerializers); protobuf is refused for
 * PartialObjectMetadata too, which kube encodes and we cannot.
 */
export function resourceEndpointRestrictions(opts: { tableConvertor: boolean; customResource?: boolean }): EndpointRestrictions {
  const customResource = opts.customResource === true;
  return {
    ...(customResource ? { serializers: CUSTOM_RESOURCE_SERIALIZERS } : {}),
    allowsMediaTypeTransform(type, subtype, convert) {
      if (customResource && type === PROTOBUF_SERIALIZER.type && subtype === PROTOBUF_SERIALIZER.subtype) return false;
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
  const found = tryNegotiateOutputMediaType(accept, restrictions);
  if (found === undefined) throw newNotAcceptable((restrictions.serializers ?? RESOURCE_SERIALIZERS).map((s) => s.mediaType));
  return found;
}

/** negotiateOutputMediaType, undefined where that throws 406. */
export function tryNegotiateOutputMediaType(accept: string | undefined, restrictions: EndpointRestrictions): MediaTypeOptions | undefined {
  return negotiateMediaTypeOptions(accept ?? '', restrictions.serializers ?? RESOURCE_SERIALIZERS, restrictions);
}

/**
 * Negotiates the encoding of a watch stream (NegotiateOutputMediaTypeStream): over all the
 * endpoint's serializers, a match without a stream serializer fails too; the 406 lists the
 * streaming ones with `;stream=watch`.
 */
export function negotiateOutputMediaTypeStream(accept: string | undefined, restrictions: EndpointRestrictions): MediaTypeOptions {
  const serializers = restrictions.serializers ?? RESOURCE_SERIALIZERS;
  const found = negotiateMediaTypeOptions(accept ?? '', serializers, restrictions);
  if (found === undefined || !found.serializer.streaming) throw newNotAcceptable(serializers.filter((s) => s.streaming).map((s) => `${s.mediaType};stream=watch`));
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
