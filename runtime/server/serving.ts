import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { newBadRequest, newInternalError } from '../apimachinery/errors/index.js';
import { Cancellation } from './cancellation.js';
import type { GenericAPIServer } from './genericapiserver.js';
import { adaptRequest, DEFAULT_MAX_REQUEST_BODY_BYTES } from './http.js';

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
  /** How long in-flight non-long-running requests may take to finish; default 60 s. */
  drainTimeoutMs?: number;
}

const ALL_METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'] as const;

/**
 * Serves the head of a delegation chain on one fastify instance (kube's SecureServingInfo.Serve
 * + preparedGenericAPIServer.Run). Fastify only carries bytes: it routes nothing, parses no
 * body (handlers call req.readBody() or stream req.raw) and never writes a response of its own;
 * every request, including malformed URLs, goes through adaptRequest and the head's filter chain.
 */
export class Serving {
  readonly fastify: FastifyInstance;
  /** Aborted last in shutdown: every request still running sees its signal abort. */
  /** Requests being served, aborted together when the drain period is over. */
  private readonly live = new Set<Cancellation>();
  private stopped: Error | undefined;
  private readonly maxRequestBodyBytes: number;
  private draining = false;
  private shutdownPromise: Promise<void> | undefined;
  private hooks: Promise<void> | undefined;

  constructor(readonly server: GenericAPIServer, opts: ServingOptions = {}) {
    this.maxRequestBodyBytes = opts.maxRequestBodyBytes ?? DEFAULT_MAX_REQUEST_BODY_BYTES;
    const tls = opts.tls;
    this.fastify = Fastify({
      logger: false,
      return503OnClosing: false,
      routerOptions: { maxParamLength: 1 << 16 },
      ...(tls
        ? { https: { cert: tls.cert, key: tls.key, ...(tls.clientCA !== undefined ? { ca: tls.clientCA, requestCert: true, rejectUnauthorized: false } : {}) } }
        : {}),
      frameworkErrors: (_err: Error, request: FastifyRequest, reply: FastifyReply) => this.hijack(request, reply),
      clientErrorHandler: (err: Error & { code?: string }, socket: Socket) => respondToClientError(err, socket),
    }) as unknown as FastifyInstance;
    this.fastify.removeAllContentTypeParsers();
    // Leaves the body stream unread for the handler.
    this.fastify.addContentTypeParser('*', (_req: FastifyRequest, _payload: IncomingMessage, done: (err: Error | null, body?: unknown) => void) => done(null));
    this.fastify.route({ method: [...ALL_METHODS], url: '*', handler: (request, reply) => this.hijack(request, reply) });
    this.fastify.setNotFoundHandler((request, reply) => this.hijack(request, reply));
    this.fastify.server.on('upgrade', (raw: IncomingMessage, socket: Duplex, head: Buffer) => this.dispatchUpgrade(raw, socket, head));
    this.fastify.setErrorHandler((err, request, reply) => {
      server.config.logger.error('fastify error outside the handler chain', { method: request.method, URI: request.url, err });
      if (!reply.raw.headersSent) {
        reply.hijack();
        writeStatusDirect(reply.raw, newInternalError(err));
      }
    });
  }

  /**
   * Starts listening and runs the chain's post-start hooks in the background (see
   * postStartHooksDone). Resolves with the bound address once connections are accepted.
   */
  async listen(opts: ListenOptions): Promise<ServingAddress> {
    await this.fastify.listen({ host: opts.host, port: opts.port });
    const addr = this.fastify.server.address();
    if (addr === null || typeof addr === 'string') throw new Error(`unexpected listen address ${String(addr)}`);
    const host = addr.address;
    const scheme = this.fastify.initialConfig.https ? 'https' : 'http';
    this.hooks = this.server.runPostStartHooks();
    this.hooks.catch(() => undefined);
    return { host, port: addr.port, url: `${scheme}://${host.includes(':') ? `[${host}]` : host}:${addr.port}` };
  }

  /** Resolves when every post-start hook of the chain has finished; rejects with the first failure. */
  postStartHooksDone(): Promise<void> {
    return this.hooks ?? Promise.reject(new Error('not listening'));
  }

  /**
   * Graceful shutdown, in kube's order: readyz starts failing and pre-shutdown hooks run while
   * requests are still served; then no new connections or non-long-running requests are
   * accepted (503 `apiserver is shutting down`, Retry-After 1, on kept-alive connections);
   * long-running requests (watches) are ended through their signal; in-flight requests get up
   * to `drainTimeoutMs` to finish; whatever still runs then sees its signal abort and its
   * connection closed. Idempotent: later calls return the first one's promise.
   */
  shutdown(opts: ShutdownOptions = {}): Promise<void> {
    this.shutdownPromise ??= this.runShutdown(opts.drainTimeoutMs ?? 60_000);
    return this.shutdownPromise;
  }

  private async runShutdown(drainTimeoutMs: number): Promise<void> {
    const server = this.server;
    const waitGroup = server.config.nonLongRunningRequestWaitGroup;
    server.initiateShutdown();
    await server.runPreShutdownHooks();
    this.draining = true;
    waitGroup.close();
    const closed = this.fastify.close();
    waitGroup.terminateLongRunning();
    const drained = await waitGroup.wait(drainTimeoutMs);
    if (!drained) server.config.logger.info('shutdown: in-flight requests did not finish in time', { server: server.name, inFlight: waitGroup.inFlight });
    this.stopped = new Error('apiserver is shutting down');
    for (const c of this.live) c.abort(this.stopped);
    this.live.clear();
    // Let aborted handlers write their last bytes before the sockets go.
    await new Promise((resolve) => setImmediate(resolve));
    this.fastify.server.closeAllConnections();
    await closed;
  }

  private hijack(request: FastifyRequest, reply: FastifyReply): void {
    reply.hijack();
    this.dispatch(request.raw, reply.raw);
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
    if (head.length > 0) socket.unshift(head);
    const response = new ServerResponse(raw);
    response.assignSocket(socket as Socket);
    response.shouldKeepAlive = false;
    response.once('finish', () => socket.end());
    this.dispatch(raw, response);
  }

  private dispatch(raw: IncomingMessage, response: ServerResponse): void {
    // A client that vanishes mid-body, or a handler writing to raw after the end, must not
    // become an unhandled 'error' event that takes the process down.
    raw.on('error', () => undefined);
    response.on('error', (err) => this.server.config.logger.error('response error', { URI: raw.url, err }));
    if (this.draining) response.setHeader('Connection', 'close');
    const cancellation = new Cancellation();
    if (this.stopped !== undefined) cancellation.abort(this.stopped);
    else {
      this.live.add(cancellation);
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

function writeStatusDirect(response: ServerResponse, err: ReturnType<typeof newInternalError>): void {
  const body = JSON.stringify(err.status);
  response.writeHead(err.status.code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  response.end(body);
}

/** Malformed HTTP (node's parser rejected it): a 400 Status and a closed connection, never fastify's body. */
function respondToClientError(err: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(newBadRequest(`malformed HTTP request: ${err.code ?? err.message}`).status);
  socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
