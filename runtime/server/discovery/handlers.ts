import type { IncomingMessage } from 'node:http';
import { newNotAcceptable, newPathNotFound } from '../../apimachinery/errors/index.js';
import type { APIRequest, APIResponse, Handler } from '../../apimachinery/request/http.js';
import { ifNoneMatchHits, writeNotModified } from './conditional.js';
import { apiVersions } from './documents.js';
import type { DiscoveryManager } from './manager.js';
import { aggregatedContentType, DISCOVERY_MEDIA_TYPES, negotiateDiscovery } from './negotiation.js';
import { encodeDocument, type DiscoverySnapshot, type EncodedDocument } from './snapshot.js';

export interface DiscoveryHandlerOptions {
  /** Answers paths and methods discovery does not own (the next server of the chain). Default: 404 NotFound Status. */
  readonly notFound?: Handler;
}

/** A handler to mount on a path mux: exactly `path`, or every path below it when `prefix`. */
export interface DiscoveryRoute {
  readonly path: string;
  readonly prefix: boolean;
  readonly handler: Handler;
}

/**
 * The discovery endpoints: `/api` and `/apis` (aggregated v2/v2beta1 or legacy, negotiated per
 * Accept clause), `/api/<v>`, `/apis/<g>`, `/apis/<g>/<v>` (legacy only). Anything else below
 * /api/ or /apis/, and non-GET/HEAD methods, go to `notFound`; so do group versions the manager
 * does not know, which lets a later server of the chain answer for them.
 */
export function newDiscoveryHandler(manager: DiscoveryManager, options: DiscoveryHandlerOptions = {}): Handler {
  const notFound = options.notFound ?? writePathNotFound;
  return async (req, res) => {
    const parts = discoveryPath(req.path);
    if (parts === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return notFound(req, res);
    const snapshot = manager.snapshot();
    const [root, first, second] = parts;
    if (first === undefined) return serveRoot(req, res, root, snapshot);
    const group = root === 'api' ? '' : first;
    const version = root === 'api' ? first : second;
    const doc = version === undefined ? snapshot.apiGroup(group) : snapshot.apiResourceList(group, version);
    if (doc === undefined) return notFound(req, res);
    if (negotiateDiscovery(req.headers.accept, false) === undefined) return res.writeError(newNotAcceptable(DISCOVERY_MEDIA_TYPES));
    res.writeBytes(200, doc.body, 'application/json');
  };
}

/** The routes to register for newDiscoveryHandler: `/api`, `/api/`, `/apis`, `/apis/`. */
export function discoveryRoutes(manager: DiscoveryManager, options: DiscoveryHandlerOptions = {}): DiscoveryRoute[] {
  const handler = newDiscoveryHandler(manager, options);
  return [
    { path: '/api', prefix: false, handler },
    { path: '/api/', prefix: true, handler },
    { path: '/apis', prefix: false, handler },
    { path: '/apis/', prefix: true, handler },
  ];
}

function serveRoot(req: APIRequest, res: APIResponse, root: 'api' | 'apis', snapshot: DiscoverySnapshot): void {
  const format = negotiateDiscovery(req.headers.accept, true);
  if (format === undefined) return res.writeError(newNotAcceptable(DISCOVERY_MEDIA_TYPES));
  if (format === 'legacy') {
    const doc = root === 'api' ? encodeDocument(apiVersions(snapshot.core, serverAddress(req.raw))) : snapshot.apiGroupList();
    return res.writeBytes(200, doc.body, 'application/json');
  }
  writeAggregated(req, res, snapshot.aggregated(root, format.aggregated), aggregatedContentType(format.aggregated));
}

function writeAggregated(req: APIRequest, res: APIResponse, doc: EncodedDocument, contentType: string): void {
  res.setHeader('ETag', doc.etag);
  res.setHeader('Vary', 'Accept');
  res.setHeader('Cache-Control', 'public');
  if (ifNoneMatchHits(req.headers, doc.etag)) return writeNotModified(res);
  res.writeBytes(200, doc.body, contentType);
}

/**
 * [root] for /api and /apis, [root, a] and [root, a, b] for the paths below them (an optional
 * trailing slash allowed); undefined for anything else.
 */
function discoveryPath(path: string): ['api' | 'apis', string?, string?] | undefined {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const segments = trimmed.split('/').slice(1);
  const [root, ...rest] = segments;
  if (root !== 'api' && root !== 'apis') return undefined;
  if (rest.some((s) => s === '')) return undefined;
  const max = root === 'api' ? 1 : 2;
  if (rest.length > max) return undefined;
  return [root, ...rest.map(decodeSegment)] as ['api' | 'apis', string?, string?];
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** host:port the client addressed (the Host header), else the local socket address. */
function serverAddress(raw: IncomingMessage): string {
  const host = raw.headers.host;
  if (host !== undefined && host !== '') return host;
  const socket = raw.socket;
  const address = socket.localAddress ?? '127.0.0.1';
  const shown = address.includes(':') ? `[${address}]` : address;
  return `${shown}:${socket.localPort ?? 443}`;
}

const writePathNotFound: Handler = async (_req, res) => {
  res.writeError(newPathNotFound());
};
