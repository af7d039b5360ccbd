import { X509Certificate } from 'node:crypto';
import type { ClientRequest, OutgoingHttpHeaders } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import { checkServerIdentity as defaultCheckServerIdentity, type TLSSocket } from 'node:tls';
import type { CachedAPIService } from './apiservice.js';
import type { ResolvedEndpoint } from './service-resolver.js';

/** The client certificate the aggregator presents to aggregated servers (--proxy-client-cert-file/--proxy-client-key-file). */
export interface ProxyClientCertificate {
  readonly certPEM: string;
  readonly keyPEM: string;
}

/** How to talk TLS to the server behind an APIService (kube-aggregator's transport config for it). */
export interface BackendTLSConfig {
  /** PEM roots from spec.caBundle; undefined: the system roots. */
  readonly ca: string | undefined;
  /** spec.insecureSkipTLSVerify: the server's certificate is not verified at all. */
  readonly insecureSkipTLSVerify: boolean;
  /** The name the server's certificate must carry: `<service>.<namespace>.svc`. */
  readonly serverName: string;
  /** The front-proxy client certificate and key. */
  readonly certPEM: string;
  readonly keyPEM: string;
}

/** The TLS configuration of a service-backed APIService (remote.BuildTransportConfig); undefined for a local one. */
export function backendTLSConfig(svc: CachedAPIService, client: ProxyClientCertificate): BackendTLSConfig | undefined {
  const ref = svc.spec?.service;
  if (ref === undefined || ref === null) return undefined;
  const bundle = svc.spec?.caBundle;
  return {
    ca: bundle === undefined || bundle === '' ? undefined : Buffer.from(bundle, 'base64').toString('utf8'),
    insecureSkipTLSVerify: svc.spec?.insecureSkipTLSVerify === true,
    serverName: `${ref.name ?? ''}.${ref.namespace ?? ''}.svc`,
    certPEM: client.certPEM,
    keyPEM: client.keyPEM,
  };
}

export function sameTLSConfig(a: BackendTLSConfig | undefined, b: BackendTLSConfig | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.ca === b.ca && a.insecureSkipTLSVerify === b.insecureSkipTLSVerify && a.serverName === b.serverName && a.certPEM === b.certPEM && a.keyPEM === b.keyPEM;
}

export interface BackendRequestOptions {
  readonly method: string;
  /** Path and query, as sent. */
  readonly path: string;
  readonly headers: OutgoingHttpHeaders;
  /** Aborting destroys the request and its connection. */
  readonly signal?: AbortSignal;
}

/** A connection that could not be made in time (dial timeout). */
export class ConnectTimeoutError extends Error {
  override readonly name = 'ConnectTimeoutError';
  readonly code = 'ETIMEDOUT';
}

/**
 * The transport of one service-backed APIService: a keep-alive HTTPS agent with the backend's
 * TLS configuration, shared by proxied requests and availability checks, rebuilt by its owner
 * when that configuration changes. A caBundle holding no certificate is a build error (kube's
 * transport.New fails on it), reported by every request instead of dialling.
 */
export class BackendTransport {
  readonly agent: Agent;
  readonly buildError: Error | undefined;

  constructor(
    readonly tls: BackendTLSConfig,
    private readonly o: { readonly connectTimeoutMs: number },
  ) {
    this.buildError = tls.ca !== undefined && !hasCertificate(tls.ca) ? new Error('unable to load root certificates: unable to parse bytes as PEM block') : undefined;
    this.agent = new Agent({
      keepAlive: true,
      maxSockets: 256,
      cert: tls.certPEM,
      key: tls.keyPEM,
      ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
      rejectUnauthorized: !tls.insecureSkipTLSVerify,
      servername: tls.serverName,
      // The certificate must name the service whatever address the endpoints gave.
      checkServerIdentity: (_host, cert) => defaultCheckServerIdentity(tls.serverName, cert),
    });
  }

  /**
   * Starts a request to `endpoint`. Connecting (TCP and TLS handshake) must finish within the
   * connect timeout, after which the request fails with ConnectTimeoutError; once connected
   * there is no time limit (watches stay open). The caller ends the request and listens for
   * 'response', 'upgrade' and 'error'.
   */
  request(endpoint: ResolvedEndpoint, r: BackendRequestOptions): ClientRequest {
    const req = httpsRequest({
      agent: this.agent,
      host: endpoint.host,
      port: endpoint.port,
      method: r.method,
      path: r.path,
      headers: r.headers,
      servername: this.tls.serverName,
      ...(r.signal !== undefined ? { signal: r.signal } : {}),
    });
    req.once('socket', (socket) => {
      const tlsSocket = socket as TLSSocket;
      // A kept-alive connection is ready at once.
      if (!tlsSocket.connecting && tlsSocket.encrypted && !tlsSocket.pending) return;
      const timer = setTimeout(() => req.destroy(new ConnectTimeoutError(`dial tcp ${endpoint.host}:${endpoint.port}: i/o timeout`)), this.o.connectTimeoutMs);
      const clear = (): void => clearTimeout(timer);
      socket.once('secureConnect', clear);
      socket.once('close', clear);
      req.once('error', clear);
    });
    return req;
  }

  /**
   * The transport was replaced: idle connections close now, busy ones (a watch, an exec) when
   * their exchange is over, so nothing in flight is cut.
   */
  retire(): void {
    for (const sockets of Object.values(this.agent.freeSockets)) for (const s of sockets ?? []) s.destroy();
    this.agent.on('free', (socket) => socket.destroy());
  }

  /** Closes every connection, busy ones included. */
  destroy(): void {
    this.agent.destroy();
  }
}

function hasCertificate(pem: string): boolean {
  for (const block of pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []) {
    try {
      new X509Certificate(block);
      return true;
    } catch {
      // Not a certificate; the next block may be.
    }
  }
  return false;
}
