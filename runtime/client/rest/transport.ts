import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { CompletedRESTConfig } from './config.js';

/** One HTTP exchange as the transport sends it. */
export interface RoundTrip {
  readonly method: string;
  readonly url: URL;
  readonly headers: OutgoingHttpHeaders;
  readonly body: Buffer | undefined;
  /** Aborting destroys the request and its response stream. */
  readonly signal: AbortSignal;
}

/**
 * HTTP/1.1 over node:http(s) with one keep-alive agent per client: the agent carries the TLS
 * settings (CA, client certificate and key, server name), which fetch cannot take without
 * undici's own dispatcher.
 */
export class Transport {
  readonly agent: HttpAgent;
  private readonly secure: boolean;

  constructor(config: CompletedRESTConfig) {
    this.secure = config.baseURL.protocol === 'https:';
    const common = { keepAlive: true, maxSockets: config.maxSockets, scheduling: 'lifo' as const };
    this.agent = this.secure ? new HttpsAgent({ ...common, ...config.tls }) : new HttpAgent(common);
  }

  /** Resolves with the response once its headers arrived; the body is the caller's to read. */
  send(rt: RoundTrip): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const send = this.secure ? httpsRequest : httpRequest;
      // Not node's `signal` option: it destroys the socket with an error even after the response
      // arrived whole, when the socket may be back in the keep-alive pool with no error listener
      // (an uncaught exception), or serving another request.
      let response: IncomingMessage | undefined;
      const req = send(rt.url, { method: rt.method, headers: rt.headers, agent: this.agent }, (res) => {
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
  }
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
