import { createServer as createHTTPServer, ServerResponse, type IncomingMessage, type Server as HTTPServer } from 'node:http';
import { createSecureServer, type Http2Session } from 'node:http2';
import { Server as NetServer, type Socket } from 'node:net';
import type { Server as TLSServer, TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerFactoryHandler } from 'fastify';
import { newBadRequest, newInternalError } from '../apimachinery/errors/index.js';
import { Cancellation } from '../apimachinery/request/cancellation.js';
import type { GenericAPIServer } from './genericapiserver.js';
import { adaptRequest, DEFAULT_MAX_REQUEST_BODY_BYTES } from '../apimachinery/request/http.js';

export interface ServingOptions {
  /** PEM serving certificate and key: HTTPS. Absent: plain HTTP (tests, loopback). */
  tls?: {
    cert: string | Buffer;
    key: string | Buffer;
    /**
     * PEM CA bundle for client certificates. Given, clients are asked for a certificate, which
     * is optional and not rejected at the TLS layer: an authenticator checks `socket.authorized`
     * and the peer certificate.
     */
    clientCA?: string | Buffer;
  };
  /** Default 3 MiB (413 beyond). */
  maxRequestBodyBytes?: number;
}

export interface ListenOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
}

export interface ServingAddress {
  host: string;
  port: number;
  /** `https://127.0.0.1:6443`, `http://[::1]:8080`. */
  url: string;
}

export interface ShutdownOptions {
  /**
   * How long in-flight non-long-running requests may take to finish; default the config's
   * shutdownTimeoutMs (the request timeout, as kube's ShutdownTimeout).
   */
  drainTimeoutMs?: number;
}

/**
 * How long connections get to close by themselves once every request is answered (a response
 * being flushed, a chunk terminator, a client reading slowly) before they are destroyed; kube
 * gives net/http's Shutdown 2 s once drained.
 */
const CONNECTION_CLOSE_GRACE_MS = 2_000;

/** The methods of the catch-all route; any other method reaches the not-found handler, which hands it over as well. */
const ALL_METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'] as const;

/**
 * Serves the head of a delegation chain (kube's SecureServingInfo.Serve +
 * preparedGenericAPIServer.Run) through fastify, which only carries bytes: one catch-all route,
 * the not-found handler and fastify's own errors (a malformed URL, an over-long path) all hijack
 * the reply in fastify's first hook, before it looks at a Content-Type or reads a body, and hand
 * node's request and response to adaptRequest and the head's filter chain. So fastify routes
 * nothing, parses no body (handlers call req.readBody() or stream req.raw) and writes no answer
 * of its own: a `Content-Type: foo` is the chain's 415, a bad URL its 404 or 400.
 *
 * The node server is made by fastify's serverFactory, here, not by fastify, because Serving must
 * own it: it is node's HTTP/2 secure server with HTTP/1.1 fallback (ALPN h2, http/1.1) for TLS,
 * plain HTTP otherwise; its raw 'request' listener counts a request as in flight (max-in-flight)
 * and on its connection before fastify is handed the request, so a read storm queued behind
 * routing is already counted; and graceful shutdown needs the connections and HTTP/2 sessions
 * it tracks (which carry a request, which are idle, GOAWAY), the listener it closes itself and
 * upgrades dispatched from the server's 'upgrade' event. Fastify never listens and never closes
 * a connection (forceCloseConnections off, no 503 while closing).
 */
export class Serving {
  readonly fastify: FastifyInstance;
  /** node's http server, or for TLS its HTTP/2 secure server with HTTP/1.1 fallback (same API for HTTP/1.1). */
  readonly httpServer: HTTPServer;
  /** Requests being served and their responses: aborted together when the drain period is over. */
  private readonly live = new Map<Cancellation, ServerResponse>();
  /** Open HTTP/1.1 connections and the number of requests each is serving (0: idle between requests). */
  private readonly connections = new Map<Socket, number>();
  /** Open HTTP/2 connections: shutdown sends each a GOAWAY, and they close once their streams end. */
  private readonly sessions = new Set<Http2Session>();
  private stopped: Error | undefined;
  private readonly maxRequestBodyBytes: number;
  private readonly tls: boolean;
  /** Set once new connections are refused and idle ones closed: answers carry `Connection: close`. */
  private closing = false;
  private shutdownPromise: Promise<void> | undefined;
  private hooks: Promise<void> | undefined;

  constructor(
    readonly server: GenericAPIServer,
    opts: ServingOptions = {},
  ) {
    this.maxRequestBodyBytes = opts.maxRequestBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_BYTES;
    const tls = opts.tls;
    this.tls = tls !== undefined;
    this.fastify = Fastify({
      logger: false,
      // Shutdown is Serving's: fastify neither answers 503 nor closes connections.
      return503OnClosing: false,
      forceCloseConnections: false,
      routerOptions: { maxParamLength: 1 << 16 },
      serverFactory: (handler: FastifyServerFactoryHandler) =>
        createNodeServer(tls, (raw, response) => {
          guardPausedParser(raw, response);
          this.admit(raw, response);
          handler(raw, response);
        }),
      frameworkErrors: (_err: Error, request: FastifyRequest, reply: FastifyReply) => this.hijack(request, reply),
      clientErrorHandler: (err: Error & { code?: string }, socket: Socket) => respondToClientError(err, socket),
      // No route has a fastify schema: without factories of its own fastify would load and set
      // up its ajv and fast-json-stringify compilers at construction (~30 ms of every start).
      schemaController: { compilersFactory: { buildValidator: unusedSchemaCompiler, buildSerializer: unusedSchemaCompiler } },
    });
    this.httpServer = this.fastify.server;
    // Before routing's result is used, before any Content-Type check or body parser.
    this.fastify.addHook('onRequest', (request, reply, done) => {
      this.hijack(request, reply);
      done();
    });
    // Never reached (the hook has hijacked every request); no parser is left that could read a body if it were.
    this.fastify.removeAllContentTypeParsers();
    this.fastify.addContentTypeParser('*', (_request: FastifyRequest, _payload: IncomingMessage, done: (err: Error | null, body?: unknown) => void) => done(null));
    this.fastify.route({ method: [...ALL_METHODS], url: '*', handler: (request, reply) => this.hijack(request, reply) });
    this.fastify.setNotFoundHandler((request, reply) => this.hijack(request, reply));
    this.httpServer.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => this.track(socket));
    if (tls) this.httpServer.on('session', (session: Http2Session) => this.trackSession(session));
    this.httpServer.on('upgrade', (raw: IncomingMessage, socket: Duplex, head: Buffer) => this.dispatchUpgrade(raw, socket, head));
  }

  /**
   * Replaces the serving certificate and client CAs (kube's dynamic serving certificates): TLS
   * handshakes from now on use them; open connections keep what they negotiated. Whether client
   * certificates are asked for is fixed at construction.
   */
  setSecureContext(tls: { cert: string | Buffer; key: string | Buffer; clientCA?: string | Buffer }): void {
    if (!this.tls) throw new Error('not serving TLS');
    (this.httpServer as unknown as TLSServer).setSecureContext({ cert: tls.cert, key: tls.key, ...(tls.clientCA !== undefined ? { ca: tls.clientCA } : {}) });
  }

  /**
   * Starts listening and runs the chain's post-start hooks in the background (see
   * postStartHooksDone), kube's order, unless startPostStartHooks has run them already.
   * Resolves with the bound address once connections are accepted.
   */
  async listen(opts: ListenOptions): Promise<ServingAddress> {
    // Routes are registered when fastify boots; the listener is Serving's own (one address, no
    // 'localhost' fan-out over IPv4 and IPv6 as fastify.listen does).
    await this.fastify.ready();
    await new Promise<void>((resolve, reject) => {
      this.httpServer.once('error', reject);
      this.httpServer.listen({ host: opts.host, port: opts.port }, () => {
        this.httpServer.off('error', reject);
        resolve();
      });
    });
    const addr = this.httpServer.address();
    if (addr === null || typeof addr === 'string') throw new Error(`unexpected listen address ${String(addr)}`);
    const host = addr.address;
    const scheme = this.tls ? 'https' : 'http';
    void this.startPostStartHooks();
    return { host, port: addr.port, url: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${addr.port}` };
  }

  /**
   * Runs the chain's post-start hooks now, before listen (which then only listens) or before
   * connections are taken from elsewhere: for a server that must take no connection before it is
   * ready. A --workers worker is one: its primary, which hands it connections only once it says
   * it is ready, is the load balancer that, in kube, takes a replica into rotation only once its
   * /readyz passes. No hook may need the bound port (the control plane's own clients are in
   * process). Idempotent; resolves as postStartHooksDone.
   */
  startPostStartHooks(): Promise<void> {
    if (this.hooks === undefined) {
      this.hooks = this.server.runPostStartHooks();
      this.hooks.catch(() => undefined);
    }
    return this.hooks;
  }

  /** Resolves when every post-start hook of the chain has finished; rejects with the first failure. */
  postStartHooksDone(): Promise<void> {
    return this.hooks ?? Promise.reject(new Error('not listening'));
  }

  /**
   * Graceful shutdown, in kube's order (RunWithContext), each step signalled on the config's
   * lifecycleSignals:
   * 1. /readyz fails; pre-shutdown hooks run and --shutdown-delay-duration passes while requests
   *    are still served.
   * 2. No new request is accepted: new non-long-running requests get 503 `apiserver is shutting
   *    down` (or, with --shutdown-send-retry-after, 429 + Retry-After + Connection: close, and the
   *    listener stays open until the drain is over); without it the listener closes now and idle
   *    kept-alive connections are closed. Every answer from now on carries `Connection: close`.
   * 3. Watches and other long-running requests are ended through their signal (a watch ends its
   *    chunked stream cleanly); every request in flight is answered, for up to `drainTimeoutMs`.
   * 4. The listener closes; connections close once their last answer is written (2 s of grace);
   *    whatever still runs then sees its signal abort and its connection destroyed.
   * Every request the server has read is answered unless the drain timeout passes first.
   * Idempotent: later calls return the first one's promise.
   */
  shutdown(opts: ShutdownOptions = {}): Promise<void> {
    this.shutdownPromise ??= this.runShutdown(opts.drainTimeoutMs ?? this.server.config.shutdownTimeoutMs);
    return this.shutdownPromise;
  }

  private async runShutdown(drainTimeoutMs: number): Promise<void> {
    const server = this.server;
    const config = server.config;
    const signals = config.lifecycleSignals;
    const waitGroup = config.nonLongRunningRequestWaitGroup;
    server.initiateShutdown();
    signals.shutdownInitiated.signal();
    await Promise.all([
      sleep(config.shutdownDelayDurationMs).then(() => signals.afterShutdownDelayDuration.signal()),
      server.runPreShutdownHooks().then(() => signals.preShutdownHooksStopped.signal()),
    ]);

    signals.notAcceptingNewRequest.signal();
    waitGroup.close();
    if (!config.shutdownSendRetryAfter) this.stopListening();
    waitGroup.terminateLongRunning();
    const [drained, watchesEnded] = await Promise.all([waitGroup.wait(drainTimeoutMs), waitGroup.waitLongRunning(Math.max(config.shutdownWatchTerminationGracePeriodMs, CONNECTION_CLOSE_GRACE_MS))]);
    if (!drained) config.logger.info('shutdown: in-flight requests did not finish in time', { server: server.name, inFlight: waitGroup.inFlight });
    if (!watchesEnded) config.logger.info('shutdown: long-running requests did not end in time', { server: server.name, longRunning: waitGroup.longRunningCount });
    signals.inFlightRequestsDrained.signal();

    this.stopListening();
    const closed = await this.connectionsClosed(CONNECTION_CLOSE_GRACE_MS);
    this.stopped = new Error('apiserver is shutting down');
    if (!closed) {
      for (const c of this.live.keys()) c.abort(this.stopped);
      this.live.clear();
      // Let aborted handlers write their last bytes before the sockets go.
      await new Promise((resolve) => setImmediate(resolve));
      for (const socket of this.connections.keys()) socket.destroy();
      for (const session of this.sessions) session.destroy();
    }
    await new Promise<void>((resolve) => closeListener(this.httpServer, () => resolve()));
    // Every connection is gone: fastify's close only runs its onClose hooks now (it never
    // listened, so it leaves the server alone).
    await this.fastify.close();
    signals.httpServerStoppedListening.signal();
  }

  /**
   * Refuses new connections and closes the idle ones (kube: net/http's Server.Shutdown, which
   * also disables keep-alive). A connection serving a request stays open until its answer is
   * written, which carries `Connection: close`. Idle connections are destroyed, not ended: bytes
   * a client sends on them from now on are never read, so a request the server has not read
   * fails at the client (a reset) and is known not to have been served.
   */
  private stopListening(): void {
    if (this.closing) return;
    this.closing = true;
    closeListener(this.httpServer);
    for (const [socket, active] of this.connections) if (active === 0) socket.destroy();
    // GOAWAY: the client opens no new stream here (one it sent meanwhile is refused, which it
    // may safely retry elsewhere); the streams already open are answered, then the session closes.
    for (const session of this.sessions) session.close();
    for (const response of this.live.values()) closeAfter(response);
  }

  /** Resolves true once every connection has closed, false when `timeoutMs` passes first. */
  private connectionsClosed(timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    return new Promise((resolve) => {
      const poll = (): void => {
        for (const [socket, active] of this.connections) if (active === 0) socket.destroy();
        if (this.connections.size === 0 && this.sessions.size === 0) resolve(true);
        else if (performance.now() >= deadline) resolve(false);
        else setTimeout(poll, 10);
      };
      poll();
    });
  }

  private track(socket: Socket): void {
    if (this.closing) {
      socket.destroy();
      return;
    }
    // An HTTP/2 connection is tracked as its session.
    if ((socket as TLSSocket).alpnProtocol === 'h2') return;
    this.connections.set(socket, 0);
    socket.once('close', () => this.connections.delete(socket));
  }

  private trackSession(session: Http2Session): void {
    if (this.closing) {
      session.close();
      return;
    }
    this.sessions.add(session);
    session.once('close', () => this.sessions.delete(session));
    // A client that goes away mid-stream must not become an unhandled 'error' event.
    session.on('error', () => undefined);
  }

  /** Counts a request on its connection until its response closes; idle connections may be closed by shutdown. */
  private countOnConnection(raw: IncomingMessage, response: ServerResponse): void {
    const socket = raw.socket;
    const active = this.connections.get(socket);
    if (active === undefined) return;
    this.connections.set(socket, active + 1);
    response.once('close', () => {
      const n = this.connections.get(socket);
      if (n === undefined) return;
      this.connections.set(socket, n - 1);
      // A request answered during shutdown leaves its connection idle: close it now rather than
      // wait for the next poll, before the client can send another request on it.
      if (n === 1 && this.closing && !socket.destroyed) socket.destroySoon();
    });
  }

  /**
   * A request to switch protocols (kubectl exec and port-forward, websockets) reaches node's
   * 'upgrade' event with its socket already detached from the HTTP parser and no response
   * object. It goes through the same filter chain with a response bound to that socket
   * (`req.raw.upgrade` is true): a handler answering normally gets the connection closed after
   * its answer; one that switches protocols (the aggregator's proxy) writes the 101 and pipes
   * `req.raw.socket` itself. Bytes read past the headers are put back on the socket first.
   */
  private dispatchUpgrade(raw: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => undefined);
    // No longer an HTTP connection: shutdown ends it through the request's signal (it is
    // long-running), never as an idle keep-alive connection.
    this.connections.delete(socket as Socket);
    if (head.length > 0) socket.unshift(head);
    const response = new ServerResponse(raw);
    response.assignSocket(socket as Socket);
    response.shouldKeepAlive = false;
    response.once('finish', () => socket.end());
    this.admit(raw, response);
    this.dispatch(raw, response);
  }

  /**
   * The bookkeeping of a request the server has read, from node's raw 'request' event (or an
   * upgrade), before fastify or any filter sees it.
   */
  private admit(raw: IncomingMessage, response: ServerResponse): void {
    // A client that vanishes mid-body, or a handler writing to raw after the end, must not
    // become an unhandled 'error' event that takes the process down.
    raw.on('error', () => undefined);
    response.on('error', (err) => this.server.config.logger.error('response error', { URI: raw.url, err }));
    this.countOnConnection(raw, response);
    // In flight from now, before fastify routes it and before any filter runs: see RequestsInFlight.
    this.server.config.requestsInFlight.arrive(raw, response);
    if (this.closing) closeAfter(response);
  }

  /** Takes the request from fastify, which has only routed it, to the filter chain. */
  private hijack(request: FastifyRequest, reply: FastifyReply): void {
    if (reply.sent) return;
    reply.hijack();
    this.dispatch(request.raw, reply.raw);
  }

  private dispatch(raw: IncomingMessage, response: ServerResponse): void {
    const cancellation = new Cancellation();
    if (this.stopped !== undefined) cancellation.abort(this.stopped);
    else {
      this.live.set(cancellation, response);
      response.once('close', () => this.live.delete(cancellation));
    }
    const { req, res } = adaptRequest(raw, response, { maxRequestBodyBytes: this.maxRequestBodyBytes, cancellation });
    this.server.handlerChain(req, res).catch((err: unknown) => {
      // Panic recovery is the chain's outermost filter; reaching here means a custom chain lacks it.
      this.server.config.logger.error('unhandled error from the handler chain', { method: req.method, URI: raw.url, err });
      if (!response.headersSent) writeStatusDirect(response, newInternalError(err));
      else if (!response.writableEnded) response.destroy();
    });
  }
}

function unusedSchemaCompiler(): never {
  throw new Error('fastify route schemas are not used: requests are handed to the handler chain unparsed');
}

/**
 * kube-apiserver offers h2 and http/1.1 by ALPN: client-go and kubectl then multiplex every
 * request and watch on one connection. node hands HTTP/2 streams over as compatibility
 * request/response objects with the same surface as HTTP/1.1's (see http.ts for the few
 * differences), and HTTP/1.1 connections to its ordinary HTTP/1.1 server code.
 */
function createNodeServer(tls: ServingOptions['tls'], onRequest: (raw: IncomingMessage, response: ServerResponse) => void): HTTPServer {
  if (tls === undefined) return createHTTPServer({ maxHeaderSize: MAX_HEADER_BYTES }, onRequest);
  const options = {
    allowHTTP1: true,
    cert: tls.cert,
    key: tls.key,
    settings: { maxHeaderListSize: MAX_HEADER_BYTES },
    ...(tls.clientCA !== undefined ? { ca: tls.clientCA, requestCert: true, rejectUnauthorized: false } : {}),
  };
  const server = createSecureServer(options, onRequest as never);
  // The HTTP/1.1 fallback runs node's HTTP/1.1 connection code, which reads its parser's header
  // limit from the server object; the HTTP/2 server has no option for it.
  Object.assign(server, { maxHeaderSize: MAX_HEADER_BYTES });
  return server as unknown as HTTPServer;
}

/**
 * The request line and headers a request may have: kube-apiserver's net/http MaxHeaderBytes
 * (1 MiB), so long label and field selectors in the URL are read, where node's default
 * (16 KiB) would refuse them with 431/400. On HTTP/2, nghttp2 also limits one header field,
 * `:path` included, to 64 KiB.
 */
const MAX_HEADER_BYTES = 1 << 20;

/**
 * An HTTP/1.1 answer not yet started gets `Connection: close` and its connection is closed
 * after it (an HTTP/2 stream has no such header: its session's GOAWAY does that).
 */
function closeAfter(response: ServerResponse): void {
  if (response.req.httpVersionMajor === 1 && !response.headersSent) response.shouldKeepAlive = false;
}

/**
 * Stops accepting connections, leaving every open one alone. Not node's http Server.close():
 * that also destroys the connections node deems idle, which include a kept-alive connection
 * whose previous answer is written while its next request is read and being served (its parser
 * is idle) — the answer to that request would be lost with the connection.
 */
function closeListener(server: NetServer, done?: () => void): void {
  if (!server.listening) {
    done?.();
    return;
  }
  NetServer.prototype.close.call(server, () => done?.());
}

/**
 * Node's HTTP/1 server lets a connection's parser read the socket's stream handle directly. When
 * a request arrives while the previous answer is still draining (a large answer and a busy event
 * loop: a client creating several big CRDs in a row on one kept-alive connection), node pauses
 * the socket and the parser; but over TLS bytes still reach the paused parser that way, which
 * fails the next request with HPE_PAUSED (answered 400 "malformed HTTP request"). Seen with node
 * 20.20. A 'data' listener makes node read the connection as a stream from then on (it
 * unconsumes the handle), where a pause holds. Only connections that can meet the pause are
 * switched, when an answer leaves the socket draining or a request finds it paused (pipelined):
 * reading every connection as a stream costs about a tenth of a GET's CPU (test/bench/README.md).
 */
function guardPausedParser(raw: IncomingMessage, response: ServerResponse): void {
  const socket = raw.socket;
  if (raw.httpVersionMajor !== 1 || readAsStream.has(socket)) return;
  if (socket.isPaused()) {
    switchToStream(socket);
    return;
  }
  response.once('prefinish', () => {
    if (socket.writableNeedDrain) switchToStream(socket);
  });
}

const readAsStream = new WeakSet<Socket>();

function switchToStream(socket: Socket): void {
  if (readAsStream.has(socket)) return;
  readAsStream.add(socket);
  socket.on('data', ignoreData);
}

/** The 'data' listener of switchToStream: node's own listener reads the bytes. */
function ignoreData(): void {}

function sleep(ms: number): Promise<void> {
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}

function writeStatusDirect(response: ServerResponse, err: ReturnType<typeof newInternalError>): void {
  const body = JSON.stringify(err.status);
  response.writeHead(err.status.code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
}

/** Malformed HTTP (node's parser rejected it): a 400 Status and a closed connection, never fastify's body. */
function respondToClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(newBadRequest(`malformed HTTP request: ${err.code ?? err.message}`).status);
  socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
