// Aggregated API servers for the aggregator's discovery and OpenAPI tests: in-process HTTPS
// servers that serve a group's discovery (aggregated, or legacy only) and OpenAPI v2/v3 with
// the project's own handlers (so ETags and hashes are kube's), require the front-proxy client
// certificate, record every request, and can be stopped and started again on the same port.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import { Agent } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { PKI } from '../../runtime/controlplane/certs.js';
import type { APIGroupDefinition } from '../../runtime/registry/types.js';
import type { BackendResolver, BackendTransport } from '../../runtime/aggregator/discovery-backend.js';
import { DiscoveryManager, discoveryFromGroupDefinition, newDiscoveryHandler } from '../../runtime/server/discovery/index.js';
import { adaptRequest, type Handler } from '../../runtime/server/http.js';
import { newOpenAPIHandler, openAPIFromGroupDefinition, OpenAPIService } from '../../runtime/server/openapi/index.js';

export interface RecordedRequest {
  readonly path: string;
  readonly status: number;
  readonly accept: string;
  readonly ifNoneMatch: string | undefined;
  readonly user: string | undefined;
  readonly clientCN: string | undefined;
}

export interface BackendOptions {
  readonly pki: PKI;
  readonly group: APIGroupDefinition;
  /** Serve only legacy discovery (a server from before aggregated discovery). */
  readonly legacyOnly?: boolean;
}

/** One aggregated API server. */
export interface Backend {
  readonly port: number;
  readonly discovery: DiscoveryManager;
  readonly openapi: OpenAPIService;
  readonly requests: RecordedRequest[];
  /** Requests for `path` (query ignored). */
  requestsFor(path: string): RecordedRequest[];
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

/** A group definition under another group name (its schemas keep their names). */
export function renamedGroup(def: APIGroupDefinition, name: string): APIGroupDefinition {
  return { ...def, name };
}

export async function startBackend(o: BackendOptions): Promise<Backend> {
  const discovery = new DiscoveryManager();
  for (const gv of discoveryFromGroupDefinition(o.group)) discovery.setGroupVersion(gv.group, gv.version, gv.resources, gv);
  const openapi = new OpenAPIService();
  for (const gv of openAPIFromGroupDefinition(o.group)) openapi.setGroupVersion(gv.group, gv.version, gv.document);
  const discoveryHandler = newDiscoveryHandler(discovery);
  const openapiHandler = newOpenAPIHandler(openapi);
  const handler: Handler = async (req, res) => {
    if (o.legacyOnly === true && (req.path === '/apis' || req.path === '/api')) req.headers.accept = 'application/json';
    return req.path.startsWith('/openapi/') ? openapiHandler(req, res) : discoveryHandler(req, res);
  };
  const requests: RecordedRequest[] = [];
  const serve = (): Server =>
    createServer(
      { cert: o.pki.servingCertPEM, key: o.pki.servingKeyPEM, ca: o.pki.frontProxyCACertPEM, requestCert: true, rejectUnauthorized: true },
      (raw, response) => {
        const peer = (raw.socket as TLSSocket).getPeerCertificate();
        const header = (name: string): string | undefined => {
          const v = raw.headers[name];
          return Array.isArray(v) ? v.join(',') : v;
        };
        response.on('finish', () =>
          requests.push({
            path: raw.url ?? '',
            status: response.statusCode,
            accept: header('accept') ?? '',
            ifNoneMatch: header('if-none-match'),
            user: header('x-remote-user'),
            clientCN: peer?.subject?.CN,
          }),
        );
        const { req, res } = adaptRequest(raw, response);
        handler(req, res).catch((err: unknown) => res.writeError(err));
      },
    );
  let server = serve();
  const listen = (port: number): Promise<void> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    discovery,
    openapi,
    requests,
    requestsFor: (path) => requests.filter((r) => r.path.split('?')[0] === path),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    start: async () => {
      server = serve();
      await listen(port);
    },
  };
}

/**
 * Reaches backends by port, as the aggregator does: the front-proxy client certificate, the
 * backend's serving CA. `ports` maps `<namespace>/<name>` of an APIService's service to a port;
 * an unknown service is unreachable.
 */
export function testBackendResolver(pki: PKI, ports: Map<string, number>): BackendResolver & { close(): void } {
  const agent = new Agent({ keepAlive: true, ca: pki.caCertPEM, cert: pki.frontProxyClientCertPEM, key: pki.frontProxyClientKeyPEM });
  return {
    async transportFor(apiService): Promise<BackendTransport> {
      const svc = apiService.spec?.service;
      const port = svc === undefined || svc === null ? undefined : ports.get(`${svc.namespace}/${svc.name}`);
      if (port === undefined) throw new Error(`service "${svc?.name}" not found`);
      return { baseURL: `https://127.0.0.1:${port}`, agent };
    },
    close: () => agent.destroy(),
  };
}

/** Polls `fn` until it returns a value (bounded and generous: only the outcome is asserted). */
export async function until<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}${last !== undefined ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
