import { newNotAcceptable, newPathNotFound } from '../../apimachinery/errors/index.js';
import { clauseMatches, parseAccept } from '../../apimachinery/serializer/accept.js';
import { ifNoneMatchHits, writeNotModified } from '../discovery/conditional.js';
import type { APIRequest, APIResponse, Handler } from '../../apimachinery/request/http.js';
import { serverRelativeURL, type OpenAPIService, type ServedDocument } from './service.js';

export interface OpenAPIHandlerOptions {
  /** Answers unknown documents and non-GET/HEAD methods. Default: 404 NotFound Status. */
  readonly notFound?: Handler;
}

/** A handler to mount on a path mux: exactly `path`, or every path below it when `prefix`. */
export interface OpenAPIRoute {
  readonly path: string;
  readonly prefix: boolean;
  readonly handler: Handler;
}

const V3_PREFIX = '/openapi/v3/';
/** The protobuf Swagger 2.0 media type kube-openapi answers with. */
export const PROTOBUF_V2_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const PROTOBUF_V2_SUBTYPE = 'com.github.proto-openapi.spec.v2.v1.0+protobuf';
const PROTOBUF_V2_DEPRECATED_SUBTYPE = 'com.github.proto-openapi.spec.v2@v1.0+protobuf';
const JSON_ONLY: readonly string[] = ['application/json'];
const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** `/openapi/v3`, `/openapi/v3/<key>` (JSON only) and `/openapi/v2` (JSON or protobuf) on one handler. */
export function newOpenAPIHandler(service: OpenAPIService, options: OpenAPIHandlerOptions = {}): Handler {
  const notFound = options.notFound ?? writePathNotFound;
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return notFound(req, res);
    if (req.path === '/openapi/v3' || req.path === '/openapi/v3/') return serveRoot(req, res, service.root());
    if (req.path === '/openapi/v2') return serveV2(req, res, service);
    if (!req.path.startsWith(V3_PREFIX)) return notFound(req, res);
    const key = safeDecode(req.path.slice(V3_PREFIX.length));
    const doc = key === undefined ? undefined : service.groupVersion(key);
    if (key === undefined || doc === undefined) return notFound(req, res);
    serveGroupVersion(req, res, key, doc);
  };
}

/** The routes to register for newOpenAPIHandler. */
export function openAPIRoutes(service: OpenAPIService, options: OpenAPIHandlerOptions = {}): OpenAPIRoute[] {
  const handler = newOpenAPIHandler(service, options);
  return [
    { path: '/openapi/v3', prefix: false, handler },
    { path: V3_PREFIX, prefix: true, handler },
    { path: '/openapi/v2', prefix: false, handler },
  ];
}

/** The root ignores Accept, as kube-openapi's does. */
function serveRoot(req: APIRequest, res: APIResponse, root: ServedDocument): void {
  serveContent(req, res, root, `"${root.hash}"`);
}

function serveGroupVersion(req: APIRequest, res: APIResponse, key: string, doc: ServedDocument): void {
  res.setHeader('Vary', 'Accept');
  if (!acceptsJSON(req)) return res.writeError(newNotAcceptable(JSON_ONLY));
  const etag = `"${doc.hash}"`;
  res.setHeader('ETag', etag);
  const hash = req.query.get('hash');
  if (hash !== null && hash !== '') {
    if (hash !== doc.hash) return redirect(res, serverRelativeURL(key, doc.hash));
    res.setHeader('Cache-Control', 'public, immutable');
    res.setHeader('Expires', new Date(Date.now() + ONE_YEAR_MS).toUTCString());
  }
  serveContent(req, res, doc, etag);
}

/** The media types of /openapi/v2 in kube-openapi's order: the first one a clause covers is served. */
const V2_FORMATS: ReadonlyArray<{ readonly subtype: string; readonly contentType: string; readonly protobuf: boolean }> = [
  { subtype: 'json', contentType: 'application/json', protobuf: false },
  // What kubectl and client-go send; answered with the current name.
  { subtype: PROTOBUF_V2_DEPRECATED_SUBTYPE, contentType: PROTOBUF_V2_CONTENT_TYPE, protobuf: true },
  { subtype: PROTOBUF_V2_SUBTYPE, contentType: PROTOBUF_V2_CONTENT_TYPE, protobuf: true },
];

/**
 * Swagger 2.0 as JSON or as gnostic's protobuf Document, by Accept (clauses in preference
 * order, `*` ranges taking the first format); both forms carry the JSON document's ETag.
 * Nothing acceptable: 406.
 */
function serveV2(req: APIRequest, res: APIResponse, service: OpenAPIService): void {
  res.setHeader('Vary', 'Accept');
  for (const clause of parseAccept(req.headers.accept)) {
    const format = V2_FORMATS.find((f) => clauseMatches(clause, 'application', f.subtype));
    if (format === undefined) continue;
    const doc = format.protobuf ? service.swaggerV2Protobuf() : service.swaggerV2();
    return serveContent(req, res, doc, `"${doc.hash}"`, format.contentType);
  }
  res.writeError(newNotAcceptable(V2_FORMATS.map((f) => `application/${f.subtype}`)));
}

function acceptsJSON(req: APIRequest): boolean {
  return parseAccept(req.headers.accept).some((c) => clauseMatches(c, 'application', 'json'));
}

/** http.ServeContent's conditional handling: If-None-Match first, else If-Modified-Since (second precision). */
function serveContent(req: APIRequest, res: APIResponse, doc: ServedDocument, etag: string, contentType = 'application/json'): void {
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', doc.lastModified.toUTCString());
  if (ifNoneMatchHits(req.headers, etag)) return writeNotModified(res);
  if (req.headers['if-none-match'] === undefined && notModifiedSince(req, doc.lastModified)) return writeNotModified(res);
  res.writeBytes(200, doc.body, contentType);
}

function notModifiedSince(req: APIRequest, lastModified: Date): boolean {
  const since = req.headers['if-modified-since'];
  if (since === undefined) return false;
  const t = Date.parse(since);
  return Number.isFinite(t) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(t / 1000);
}

function redirect(res: APIResponse, location: string): void {
  res.setHeader('Location', location);
  res.writeBytes(301, `<a href="${location}">Moved Permanently</a>.\n\n`, 'text/html; charset=utf-8');
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

const writePathNotFound: Handler = async (_req, res) => {
  res.writeError(newPathNotFound());
};
