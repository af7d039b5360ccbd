// Aggregated API servers for the aggregator's discovery and OpenAPI tests: in-process HTTPS
// servers that serve a group's discovery (aggregated, or legacy only) and OpenAPI v2/v3 with
// the project's own handlers (so ETags and hashes are kube's), require the front-proxy client
// certificate, record every request, and can be stopped and started again on the same port;
// and the APIService registration that reaches them through Service/Endpoints objects.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { APIService } from '../../apis/apiregistration/v1/types.js';
import { newSimpleClientset, type FakeClientset } from '../../generated/clientset/fake/index.js';
import { SharedInformerFactory } from '../../generated/informers/factory.js';
import { APIServiceRegistrationController } from '../../runtime/aggregator/controllers/registration.js';
import { APIServiceHandlerManager, type APIServiceRegistry } from '../../runtime/aggregator/registry.js';
import { EndpointsServiceResolver } from '../../runtime/aggregator/service-resolver.js';
import { newPathNotFound } from '../../runtime/apimachinery/errors/index.js';
import { silentLogger } from '../../runtime/client/cache/index.js';
import { ListerNotFoundError, newSharedInformerFactoryCore } from '../../runtime/client/index.js';
import { ensurePKI, type PKI } from '../../runtime/controlplane/certs.js';
import type { APIGroupDefinition } from '../../runtime/registry/types.js';
import { PathRecorderMux } from '../../runtime/server/mux.js';
import { DiscoveryManager, discoveryFromGroupDefinition, newDiscoveryHandler } from '../../runtime/server/discovery/index.js';
import { adaptRequest, type Handler } from '../../runtime/apimachinery/request/http.js';
import { newOpenAPIHandler, openAPIFromGroupDefinition, OpenAPIService } from '../../runtime/server/openapi/index.js';
import { until } from '../integration/assertions.js';

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
    createServer({ cert: o.pki.servingCertPEM, key: o.pki.servingKeyPEM, ca: o.pki.frontProxyCACertPEM, requestCert: true, rejectUnauthorized: true }, (raw, response) => {
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
    });
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

/** The services the tests' backends stand behind: their serving certificate names each. */
export const SERVICE_NAMES: readonly string[] = ['remote', 'legacy', 'wardle', 'nowhere'];

/** A test PKI whose serving certificate is valid for every test service (`<name>.default.svc`). */
export function testPKI(dir: string): Promise<PKI> {
  return ensurePKI(dir, { hosts: SERVICE_NAMES.map((n) => `${n}.default.svc`) });
}

export interface APIServiceOptions {
  readonly groupPriorityMinimum?: number;
  readonly versionPriority?: number;
  /** The Service in `default` the APIService points at; none: a local APIService. */
  readonly service?: string;
  readonly available?: 'True' | 'False';
}

/** An APIService `<version>.<group>`; service-backed ones carry the test CA as caBundle. */
export function apiService(name: string, pki: PKI, o: APIServiceOptions = {}): APIService {
  const dot = name.indexOf('.');
  return {
    apiVersion: 'apiregistration.k8s.io/v1',
    kind: 'APIService',
    metadata: { name },
    spec: {
      group: name.slice(dot + 1),
      version: name.slice(0, dot),
      groupPriorityMinimum: o.groupPriorityMinimum ?? 1000,
      versionPriority: o.versionPriority ?? 15,
      ...(o.service !== undefined ? { service: { namespace: 'default', name: o.service, port: 443 }, caBundle: Buffer.from(pki.caCertPEM).toString('base64') } : {}),
    },
    ...(o.available !== undefined ? { status: { conditions: [{ type: 'Available', status: o.available, reason: o.available === 'True' ? 'Passed' : 'FailedDiscoveryCheck' }] } } : {}),
  };
}

/** The Service `default/<name>` (port 443) and its Endpoints: 127.0.0.1 at `port`. */
export function serviceObjects(name: string, port: number): object[] {
  return [
    { apiVersion: 'v1', kind: 'Service', metadata: { namespace: 'default', name }, spec: { ports: [{ port: 443, targetPort: port }] } },
    { apiVersion: 'v1', kind: 'Endpoints', metadata: { namespace: 'default', name }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port }] }] },
  ];
}

/**
 * The aggregator's APIService registration as the control plane runs it, over the generated fake
 * clientset: the registration controller feeding the handler manager (the registry the merged
 * discovery and OpenAPI read), services resolved through Service and Endpoints objects,
 * backends reached with the front-proxy client certificate and each APIService's caBundle.
 */
export interface Registration {
  readonly cs: FakeClientset;
  readonly registry: APIServiceRegistry;
  close(): Promise<void>;
}

export async function startRegistration(pki: PKI, objects: readonly object[]): Promise<Registration> {
  const cs = newSimpleClientset(...objects);
  const factory = new SharedInformerFactory(cs, newSharedInformerFactoryCore({ tuning: { logger: silentLogger } }));
  const services = factory.core().v1().services();
  const endpoints = factory.core().v1().endpoints();
  // Asked for before start, so the factory starts them.
  services.informer();
  endpoints.informer();
  const registry = new APIServiceHandlerManager({
    mux: new PathRecorderMux('kube-aggregator'),
    localDelegate: async (_req, res) => res.writeError(newPathNotFound()),
    resolver: new EndpointsServiceResolver({
      service: (ns, name) => cached(() => services.lister().namespace(ns).get(name)),
      endpoints: (ns, name) => cached(() => endpoints.lister().namespace(ns).get(name)),
    }),
    proxyClientCertificate: { certPEM: pki.frontProxyClientCertPEM, keyPEM: pki.frontProxyClientKeyPEM },
  });
  const registration = new APIServiceRegistrationController({ informer: factory.apiregistration().v1().apiservices(), handling: registry });
  factory.start();
  await factory.waitForCacheSync();
  const stop = new AbortController();
  const running = registration.run(stop.signal);
  await registration.initiated();
  return {
    cs,
    registry,
    async close() {
      stop.abort();
      await running;
      await factory.base.shutdown();
      registry.close();
    },
  };
}

function cached<T>(get: () => T): T | undefined {
  try {
    return get();
  } catch (err) {
    if (err instanceof ListerNotFoundError) return undefined;
    throw err;
  }
}

export { until };
