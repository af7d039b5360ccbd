import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ClientCertificate } from '../exec/credential.js';
import type { CompletedRESTConfig } from './config.js';

/** One HTTP exchange as the transport sends it. */
export interface RoundTrip {
  readonly method: string;
  readonly url: URL;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer | undefined;
  /** Aborting destroys the request and its response stream. */
  readonly signal: AbortSignal;
  /** A client certificate replacing the configured one (an exec plugin's). */
  readonly cert?: ClientCertificate | undefined;
}

/**
 * HTTP/1.1 over node:http(s) with one keep-alive agent per client: the agent carries the TLS
 * settings (CA, client certificate and key, server name), which fetch cannot take without
 * undici's own dispatcher. A certificate given per request (an exec plugin's, which rotates)
 * gets an agent of its own; when it changes, the connections made with the previous one are
 * closed once idle (client-go closes them on rotation), so no request goes out with a
 * certificate the plugin has replaced.
 */
export class Transport {
  readonly agent: HttpAgent;
  private readonly secure: boolean;
  private readonly options: ConstructorParameters<typeof HttpsAgent>[0];
  private rotating: { readonly cert: ClientCertificate; readonly agent: HttpsAgent } | undefined;

  constructor(config: CompletedRESTConfig) {
    this.secure = config.baseURL.protocol === 'https:';
    const common = { keepAlive: true, maxSockets: config.maxSockets, scheduling: 'lifo' as const };
    this.options = { ...common, ...config.tls };
    this.agent = this.secure ? new HttpsAgent(this.options) : new HttpAgent(common);
  }

  private agentFor(cert: ClientCertificate | undefined): HttpAgent {
    if (cert === undefined || !this.secure) return this.agent;
    const current = this.rotating;
    if (current !== undefined && (current.cert === cert || (current.cert.cert === cert.cert && current.cert.key === cert.key))) return current.agent;
    if (current !== undefined) retire(current.agent);
    const agent = new HttpsAgent({ ...this.options, cert: cert.cert, key: cert.key });
    this.rotating = { cert, agent };
    return agent;
  }

  /** Resolves with the response once its headers arrived; the body is the caller's to read. */
  send(rt: RoundTrip): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const send = this.secure ? httpsRequest : httpRequest;
      // Not node's `signal` option: it destroys the socket with an error even after the response
      // arrived whole, when the socket may be back in the keep-alive pool with no error listener
      // (an uncaught exception), or serving another request.
      let response: IncomingMessage | undefined;
      const req = send(rt.url, { method: rt.method, headers: rt.headers, agent: this.agentFor(rt.cert) }, (res) => {
        response = res;
        resolve(res);
      });
      const onAbort = (): void => {
        if (response?.complete === true) response.destroy();
        else req.destroy(Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR', cause: rt.signal.reason as unknown }));
      };
      if (rt.signal.aborted) onAbort();
      else {
        rt.signal.addEventListener('abort', onAbort, { once: true });
        req.once('close', () => rt.signal.removeEventListener('abort', onAbort));
      }
      req.on('error', reject);
      req.end(rt.body);
    });
  }

  /** Closes idle connections and stops keeping new ones; requests under way finish. */
  close(): void {
    this.agent.destroy();
    this.rotating?.agent.destroy();
  }
}

/** Closes an agent's idle connections now and its busy ones when their response is done. */
function retire(agent: HttpAgent): void {
  // Agent#keepSocketAlive (documented, missing from @types/node): a falsy answer destroys the freed socket.
  Object.assign(agent, { keepSocketAlive: () => false });
  for (const sockets of Object.values(agent.freeSockets)) for (const s of sockets ?? []) s.destroy();
}

/** The whole body of a response; rejects when the stream breaks or the request's signal aborts. */
export async function readBody(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  if (!res.complete) {
    throw Object.assign(new Error('the connection closed before the response was complete'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
  }
  return Buffer.concat(chunks);
}
