// A loopback HTTP server that answers as the recorded kube-apiserver 1.32: its discovery, its
// objects (test/fixtures/kube-1.32) and kube's framing of every verb: GET of one object (the
// recorded bytes), LIST as a `<Kind>List` whose items carry no kind or apiVersion,
// newline-delimited WATCH events with bookmarks, create / update / patch / apply echoing what was
// sent at a new resourceVersion, deletes answered with a Status, and Status errors in kube's
// shape (replay-status.ts). It is a recording, not a registry: no defaulting, validation or
// server-side apply merge (apply stores the applied configuration merged as a JSON merge patch;
// the field manager's merge is tested against the real server in test/endpoints/apply). Every
// request is kept, so tests can compare what a client sent with what client-go sends.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { servedResources, recordedDiscovery, recordedObjects, type JSONObject, type RecordedResource } from './recorded.js';
import { ReplayDiscovery } from './replay-discovery.js';
import { type Route, routeOf, selects } from './replay-route.js';
import { handleWrite } from './replay-writes.js';
import { ReplayStore, type StoredEvent, type WatchSink } from './replay-store.js';
import { badRequest, notFound, type StatusAnswer, tooOldResourceVersion } from './replay-status.js';

/** One request as the server read it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

export interface ReplayOptions {
  /** Serve `/api` aggregated (derived from the recorded `/api/v1`, as kube 1.32 serves it); false: legacy only. Default true. */
  readonly coreAggregated?: boolean;
}

/** Bodies over this are refused: the replay server reads only what tests send. */
const MAX_BODY_BYTES = 3 * 1024 * 1024;

export class ReplayServer {
  readonly requests: RecordedRequest[] = [];
  readonly store = new ReplayStore();
  readonly resources: readonly RecordedResource[];
  private readonly discovery: ReplayDiscovery;
  private readonly sockets = new Set<Socket>();
  private readonly streams = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    options: ReplayOptions,
  ) {
    const recorded = recordedDiscovery();
    this.resources = servedResources(recorded);
    this.discovery = new ReplayDiscovery(recorded, options.coreAggregated ?? true);
    this.store.seed(recordedObjects(this.resources));
    server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  /** Starts on a free loopback port with every recorded object stored. */
  static async start(options: ReplayOptions = {}): Promise<ReplayServer> {
    let self: ReplayServer | undefined;
    const server = createServer((req, res) => self!.serve(req, res));
    self = new ReplayServer(server, options);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return self;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The resource discovery lists for a group, version and kind. */
  resourceFor(group: string, version: string, kind: string): RecordedResource {
    const r = this.resources.find((x) => x.group === group && x.version === version && x.kind === kind);
    if (r === undefined) throw new Error(`no recorded resource serves ${group}/${version} ${kind}`);
    return r;
  }

  /** The requests read so far whose path is `path`. */
  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    for (const s of this.streams) s.end();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://replay');
      const seen: RecordedRequest = { method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      this.requests.push(seen);
      try {
        this.answer(seen, res);
      } catch (e) {
        // A body the replay cannot read is the client's fault as kube sees it: 400, never a crash.
        writeStatus(res, badRequest(e instanceof Error ? e.message : String(e)));
      }
    });
  }

  private answer(req: RecordedRequest, res: ServerResponse): void {
    if (req.method === 'GET') {
      const d = this.discovery.answer(req.path, req.headers.accept);
      if (d !== undefined) return write(res, d.code, d.contentType, d.body);
    }
    const route = routeOf(req.path, this.resources);
    // Paths no resource is installed at get the mux's plain-text 404, as kube-apiserver's.
    if (route === undefined) return write(res, 404, 'text/plain; charset=utf-8', '404 page not found\n');
    // Subresources other than status (scale, exec, eviction…) are not replayed: no recording of their answers.
    if (route.subresource !== undefined && route.subresource !== 'status') return write(res, 404, 'text/plain; charset=utf-8', '404 page not found\n');
    // A verb discovery does not list has no route: go-restful's 405 (subresources list their own verbs).
    if (route.subresource === undefined && !route.resource.verbs.includes(verbOf(req, route))) return write(res, 405, 'text/plain; charset=utf-8', '405: Method Not Allowed');
    if (req.method === 'GET' && route.name === undefined) {
      const watch = req.query.get('watch');
      if (watch === 'true' || watch === '1') return this.watch(req, route, res);
      return this.list(req, route, res);
    }
    if (req.method === 'GET') return this.get(route, res);
    const answer = handleWrite(this.store, req, route, () => ({ uid: randomUUID(), creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }));
    if ('text' in answer) return write(res, answer.code, 'application/json', answer.text);
    writeStatus(res, answer);
  }

  private get(route: Route, res: ServerResponse): void {
    const stored = this.store.get(route.resource, route.namespace, route.name!);
    if (stored === undefined) return writeStatus(res, notFound(route.resource, route.name!));
    write(res, 200, 'application/json', stored.text ?? JSON.stringify(stored.object));
  }

  /** A `<Kind>List` at the current resourceVersion; items without kind and apiVersion, as kube's typed lists encode them. */
  private list(req: RecordedRequest, route: Route, res: ServerResponse): void {
    const matched = this.selected(req, route);
    if ('code' in matched) return writeStatus(res, matched);
    const limit = Number(req.query.get('limit') ?? '0');
    const start = req.query.has('continue') ? Number(JSON.parse(Buffer.from(req.query.get('continue')!, 'base64url').toString('utf8')).start) : 0;
    const page = limit > 0 ? matched.slice(start, start + limit) : matched.slice(start);
    const metadata: JSONObject = { resourceVersion: String(this.store.rv) };
    if (limit > 0 && start + limit < matched.length) {
      metadata['continue'] = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: this.store.rv, start: start + limit })).toString('base64url');
      metadata['remainingItemCount'] = matched.length - start - limit;
    }
    const r = route.resource;
    const items = page.map((o) => withoutTypeMeta(o));
    write(res, 200, 'application/json', JSON.stringify({ kind: `${r.kind}List`, apiVersion: r.group === '' ? r.version : `${r.group}/${r.version}`, metadata, items }));
  }

  private selected(req: RecordedRequest, route: Route): JSONObject[] | StatusAnswer {
    const all = this.store.list(route.resource, route.namespace).map((s) => s.object);
    return selects(all, req.query.get('labelSelector') ?? '', req.query.get('fieldSelector') ?? '');
  }

  /**
   * A watch: from no resourceVersion or "0", ADDED for every current object first; from N, the
   * events after N, or one ERROR event (410 Expired) when N was compacted. With
   * allowWatchBookmarks a BOOKMARK at the current resourceVersion follows the initial events
   * (carrying `k8s.io/initial-events-end` when sendInitialEvents asked for them).
   */
  private watch(req: RecordedRequest, route: Route, res: ServerResponse): void {
    const matched = this.selected(req, route);
    if ('code' in matched) return writeStatus(res, matched);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    this.streams.add(res);
    const send = (type: string, object: unknown) => res.write(`${JSON.stringify({ type, object })}\n`);
    const rvParam = req.query.get('resourceVersion') ?? '';
    const r = route.resource;
    if (rvParam === '' || rvParam === '0') {
      for (const o of matched) send('ADDED', o);
    } else {
      const from = Number(rvParam);
      if (!Number.isSafeInteger(from) || from < this.store.oldest) {
        send('ERROR', tooOldResourceVersion(Number.isSafeInteger(from) ? from : 0, this.store.oldest).body);
        this.streams.delete(res);
        return void res.end();
      }
      for (const e of this.store.since(r, route.namespace, from)) send(e.type, e.object);
    }
    if (req.query.get('allowWatchBookmarks') === 'true') {
      const metadata: JSONObject = { resourceVersion: String(this.store.rv), creationTimestamp: null };
      if (req.query.get('sendInitialEvents') === 'true') metadata['annotations'] = { 'k8s.io/initial-events-end': 'true' };
      send('BOOKMARK', { kind: r.kind, apiVersion: r.group === '' ? r.version : `${r.group}/${r.version}`, metadata });
    }
    const sink: WatchSink = { resource: r, namespace: route.namespace, send: (e: StoredEvent) => send(e.type, e.object) };
    this.store.sinks.add(sink);
    const end = () => {
      this.store.sinks.delete(sink);
      this.streams.delete(res);
      res.end();
    };
    const timeout = Number(req.query.get('timeoutSeconds') ?? '0');
    const timer = timeout > 0 ? setTimeout(end, timeout * 1000) : undefined;
    res.on('close', () => {
      if (timer !== undefined) clearTimeout(timer);
      this.store.sinks.delete(sink);
      this.streams.delete(res);
    });
  }
}

/** The verb of a request as kube's RequestInfo names it. */
function verbOf(req: RecordedRequest, route: Route): string {
  const one = route.name !== undefined;
  switch (req.method) {
    case 'GET':
      return one ? 'get' : req.query.get('watch') === 'true' || req.query.get('watch') === '1' ? 'watch' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return one ? 'delete' : 'deletecollection';
    default:
      return req.method.toLowerCase();
  }
}

function withoutTypeMeta(o: JSONObject): JSONObject {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = o;
  return rest;
}

/** kube-apiserver's headers on every answer it writes (Audit-Id: one per request). */
function write(res: ServerResponse, code: number, contentType: string, body: string): void {
  res.writeHead(code, { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private', 'Audit-Id': randomUUID(), 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function writeStatus(res: ServerResponse, s: StatusAnswer): void {
  write(res, s.code, 'application/json', JSON.stringify(s.body));
}
