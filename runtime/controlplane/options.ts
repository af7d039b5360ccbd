import { join, resolve } from 'node:path';
import { parseIP, type CIDR } from '../registry/allocator/cidr.js';
import { DEFAULT_NODE_PORT_RANGE, type PortRange } from '../registry/allocator/range.js';
import { DEFAULT_SERVICE_CLUSTER_IP_RANGE, parseServiceClusterIPRange, parseServiceNodePortRange } from './service/ranges.js';
import { boolFlag, durationFlag, given, intFlag, OptionsError, parseFlags, REQUEST_HEADER_FLAGS, SERVING_FLAGS, stringSliceFlag } from '../server/options/flags.js';
import { completeStorageOptions, STORAGE_FLAGS, storageOptionsFromFlags, storageUsage, type CompletedStorageOptions, type StorageOptions } from '../server/options/storage.js';
import {
  anonymousAuthWithAuthorization,
  AUTHORIZATION_FLAGS,
  authorizationOptionsFromFlags,
  authorizationUsage,
  completeAuthorizationOptions,
  type AuthorizationOptions,
  type CompletedAuthorizationOptions,
} from '../server/options/authorization.js';
import {
  completeServiceAccountOptions,
  SERVICE_ACCOUNT_FLAGS,
  SERVICE_ACCOUNT_USAGE,
  serviceAccountOptionsFromFlags,
  type CompletedServiceAccountOptions,
  type ServiceAccountOptions,
} from '../server/options/serviceaccount.js';
import {
  completeLeaderElectionOptions,
  LEADER_ELECTION_FLAGS,
  LEADER_ELECTION_USAGE,
  leaderElectionOptionsFromFlags,
  normalizeLeaderElectFlag,
  type CompletedLeaderElectionOptions,
  type LeaderElectionOptions,
} from './leaderelection/options.js';
import { workersFlag, WORKERS_USAGE, type WorkersValue } from './workers/flag.js';

/** The flags of the control plane command, with kube-apiserver's names where they exist. */
export interface ServerRunOptions extends StorageOptions, AuthorizationOptions, ServiceAccountOptions, LeaderElectionOptions {
  securePort?: number;
  bindAddress?: string;
  /** kube's --advertise-address: the IP the `kubernetes` Endpoints name this server by. */
  advertiseAddress?: string;
  dataDir?: string;
  maxRequestsInflight?: number;
  maxMutatingRequestsInflight?: number;
  requestTimeoutSeconds?: number;
  /** kube's --shutdown-delay-duration in ms: requests are still served this long after SIGTERM while /readyz fails. */
  shutdownDelayDurationMs?: number;
  /** kube's --shutdown-send-retry-after: during shutdown, new requests get 429 + Retry-After until the drain is over. */
  shutdownSendRetryAfter?: boolean;
  /** kube's --shutdown-watch-termination-grace-period in ms: how long shutdown waits for ended watches. */
  shutdownWatchTerminationGracePeriodMs?: number;
  /** Requests without credentials are system:anonymous (kube's --anonymous-auth); false: 401. */
  anonymousAuth?: boolean;
  /** PEM bundle that signs client certificates; default the control plane's own CA. */
  clientCAFile?: string;
  /** kube's --tls-cert-file and --tls-private-key-file: the serving certificate (chain) and key; default one signed by the cluster CA in <data-dir>/pki. */
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  /** PEM bundle that signs front proxies' client certificates; default the control plane's front-proxy CA. */
  requestheaderClientCAFile?: string;
  /** CNs a front proxy's certificate may carry; empty allows any. Default front-proxy-client with the default CA, any with a given one. */
  requestheaderAllowedNames?: readonly string[];
  requestheaderUsernameHeaders?: readonly string[];
  requestheaderGroupHeaders?: readonly string[];
  requestheaderExtraHeadersPrefix?: readonly string[];
  /** CSV of static bearer tokens: token,user,uid,"group1,group2". */
  tokenAuthFile?: string;
  /** kube's --service-cluster-ip-range: the CIDR (or an IPv4 and an IPv6 one) Service cluster IPs come from. Default 10.0.0.0/24. */
  serviceClusterIPRange?: string;
  /** kube's --service-node-port-range: the ports NodePort and LoadBalancer Services get. Default 30000-32767. */
  serviceNodePortRange?: string;
  /** kube's --event-ttl in ms: how long an Event is kept after its last write. Default 1h. */
  eventTTLMs?: number;
  /**
   * --workers: how many server processes serve the secure port (runControlPlane's primary forks
   * them; startControlPlane itself always serves from the calling process).
   */
  workers?: WorkersValue;
}

/** Options with every default resolved; only completeOptions makes one. */
export interface CompletedServerRunOptions extends CompletedStorageOptions {
  /** --authorization-mode and the webhook's flags. */
  readonly authorization: CompletedAuthorizationOptions;
  /** The service-account token flags (issuers, keys, audiences). */
  readonly serviceAccounts: CompletedServiceAccountOptions;
  /** kube-controller-manager's --leader-elect flags. */
  readonly leaderElection: CompletedLeaderElectionOptions;
  readonly securePort: number;
  readonly bindAddress: string;
  /** An IP as given (never the unspecified address); undefined: chosen from the bind address and the host's interfaces. */
  readonly advertiseAddress: string | undefined;
  readonly dataDir: string;
  readonly maxRequestsInflight: number;
  readonly maxMutatingRequestsInflight: number;
  readonly requestTimeoutSeconds: number;
  readonly shutdownDelayDurationMs: number;
  readonly shutdownSendRetryAfter: boolean;
  readonly shutdownWatchTerminationGracePeriodMs: number;
  readonly anonymousAuth: boolean;
  /** Absolute; undefined: the control plane's own CA. */
  readonly clientCAFile: string | undefined;
  /** Absolute, both or neither. */
  readonly tlsCertFile: string | undefined;
  readonly tlsPrivateKeyFile: string | undefined;
  /** Absolute; undefined: the control plane's front-proxy CA. */
  readonly requestheaderClientCAFile: string | undefined;
  readonly requestheaderAllowedNames: readonly string[];
  readonly requestheaderUsernameHeaders: readonly string[];
  readonly requestheaderGroupHeaders: readonly string[];
  readonly requestheaderExtraHeadersPrefix: readonly string[];
  /** Absolute; undefined: no token authentication. */
  readonly tokenAuthFile: string | undefined;
  /** The primary range first; its first IP is the `kubernetes` Service's. */
  readonly serviceClusterIPRanges: readonly CIDR[];
  readonly serviceNodePortRange: PortRange;
  /** Whole seconds every write of an Event gives it to live (kube: uint64(EventTTL.Seconds())); 0 keeps Events forever. */
  readonly eventTTLSeconds: number;
  readonly completed: true;
}

/** kube-apiserver's --event-ttl default. */
const DEFAULT_EVENT_TTL_MS = 60 * 60 * 1000;

/** The CN of the front-proxy client certificate the control plane makes (certs.ts). */
export const FRONT_PROXY_CLIENT_NAME = 'front-proxy-client';

export { OptionsError };

export function completeOptions(o: ServerRunOptions, warn: (message: string) => void = (m) => process.stderr.write(`W ${m}\n`)): CompletedServerRunOptions {
  const storage = completeStorageOptions(o, { etcdPrefix: '/registry' });
  const authorization = completeAuthorizationOptions(o);
  const dataDir = resolve(o.dataDir ?? '.kube-ts');
  const securePort = o.securePort ?? 6443;
  if (!Number.isInteger(securePort) || securePort < 0 || securePort > 65535) throw new OptionsError(`--secure-port ${securePort} must be between 0 and 65535`);
  if ((o.tlsCertFile === undefined) !== (o.tlsPrivateKeyFile === undefined)) throw new OptionsError('--tls-cert-file and --tls-private-key-file must be given together');
  const advertise = o.advertiseAddress === undefined ? undefined : parseIP(o.advertiseAddress);
  if (o.advertiseAddress !== undefined && advertise === undefined) throw new OptionsError(`--advertise-address: ${JSON.stringify(o.advertiseAddress)} is not an IP address`);
  const headers = (flag: string, given: readonly string[] | undefined, dflt: readonly string[]): readonly string[] => {
    const names = (given ?? dflt).map((h) => h.trim());
    if (names.some((h) => h === '')) throw new OptionsError(`--${flag}: empty header name`);
    return names;
  };
  return {
    securePort,
    bindAddress: o.bindAddress ?? '127.0.0.1',
    // kube takes the unspecified address for "not given".
    advertiseAddress: advertise === undefined || advertise.value === 0n ? undefined : o.advertiseAddress,
    dataDir,
    ...storage,
    authorization,
    serviceAccounts: completeServiceAccountOptions(o, { pkiDir: join(dataDir, 'pki') }),
    leaderElection: completeLeaderElectionOptions(o),
    maxRequestsInflight: o.maxRequestsInflight ?? 400,
    maxMutatingRequestsInflight: o.maxMutatingRequestsInflight ?? 200,
    requestTimeoutSeconds: o.requestTimeoutSeconds ?? 60,
    shutdownDelayDurationMs: o.shutdownDelayDurationMs ?? 0,
    shutdownSendRetryAfter: o.shutdownSendRetryAfter ?? false,
    shutdownWatchTerminationGracePeriodMs: o.shutdownWatchTerminationGracePeriodMs ?? 0,
    // kube's default, then kube's rule: never anonymous with AlwaysAllow.
    anonymousAuth: anonymousAuthWithAuthorization(o.anonymousAuth ?? true, authorization, warn),
    clientCAFile: o.clientCAFile === undefined ? undefined : resolve(o.clientCAFile),
    tlsCertFile: o.tlsCertFile === undefined ? undefined : resolve(o.tlsCertFile),
    tlsPrivateKeyFile: o.tlsPrivateKeyFile === undefined ? undefined : resolve(o.tlsPrivateKeyFile),
    requestheaderClientCAFile: o.requestheaderClientCAFile === undefined ? undefined : resolve(o.requestheaderClientCAFile),
    // kubeadm's setup: only the aggregator's own proxy client may assert users.
    requestheaderAllowedNames: o.requestheaderAllowedNames ?? (o.requestheaderClientCAFile === undefined ? [FRONT_PROXY_CLIENT_NAME] : []),
    requestheaderUsernameHeaders: headers('requestheader-username-headers', o.requestheaderUsernameHeaders, ['X-Remote-User']),
    requestheaderGroupHeaders: headers('requestheader-group-headers', o.requestheaderGroupHeaders, ['X-Remote-Group']),
    requestheaderExtraHeadersPrefix: headers('requestheader-extra-headers-prefix', o.requestheaderExtraHeadersPrefix, ['X-Remote-Extra-']),
    tokenAuthFile: o.tokenAuthFile === undefined ? undefined : resolve(o.tokenAuthFile),
    serviceClusterIPRanges: serviceClusterIPRanges(o.serviceClusterIPRange ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE),
    serviceNodePortRange: serviceNodePortRange(o.serviceNodePortRange),
    eventTTLSeconds: Math.floor((o.eventTTLMs ?? DEFAULT_EVENT_TTL_MS) / 1000),
    completed: true,
  };
}

function serviceClusterIPRanges(value: string): readonly CIDR[] {
  const parsed = parseServiceClusterIPRange(value);
  if (typeof parsed === 'string') throw new OptionsError(parsed);
  return parsed;
}

function serviceNodePortRange(value: string | undefined): PortRange {
  if (value === undefined) return DEFAULT_NODE_PORT_RANGE;
  const parsed = parseServiceNodePortRange(value);
  if (typeof parsed === 'string') throw new OptionsError(parsed);
  return parsed;
}

const USAGE = `Usage: npm start -- [flags]

  --secure-port N                 HTTPS port (0 picks a free port; the kubeconfig carries it). Default 6443.
  --bind-address IP               Address to listen on. Default 127.0.0.1.
  --advertise-address IP          The address the \`kubernetes\` Endpoints name this server by, reachable by the rest of the
                                  cluster (its serving certificate covers it). Default the bind address, or the host's first
                                  non-loopback address when that is loopback or unspecified.
  --data-dir DIR                  Certificates, admin.kubeconfig and the SQLite store. Default ./.kube-ts.
  --tls-cert-file FILE            Serving certificate (PEM, intermediates after it), e.g. one naming a load balancer.
  --tls-private-key-file FILE     Its key. Default: a certificate signed by the cluster CA in <data-dir>/pki.
${storageUsage({ sqliteFile: 'kube.db', etcdPrefix: '/registry' })}  --max-requests-inflight N       Read-only requests in flight before 429. Default 400.
  --max-mutating-requests-inflight N  Mutating requests in flight before 429. Default 200.
  --request-timeout SECONDS       Default request timeout. Default 60.
  --shutdown-delay-duration D     After SIGTERM, keep serving this long while /readyz fails (Go duration). Default 0s.
  --shutdown-send-retry-after     During shutdown, answer new requests 429 + Retry-After + Connection: close until the
                                  requests in flight are answered, instead of closing the listener at once.
  --shutdown-watch-termination-grace-period D  How long shutdown waits for the watches it ends (Go duration). Default 0s.
  --anonymous-auth=false          Refuse requests without credentials (401) instead of serving them as system:anonymous
                                  (who may do only what the bootstrap policy grants system:unauthenticated: health, version).
${authorizationUsage()}${SERVICE_ACCOUNT_USAGE}  --client-ca-file FILE           CA bundle for client certificates (user = CN, groups = O). Default the cluster CA.
  --token-auth-file FILE          Static bearer tokens, CSV: token,user,uid,"group1,group2".
  --service-cluster-ip-range CIDR[,CIDR]  Where Service cluster IPs come from (one per IP family). Default 10.0.0.0/24.
  --service-node-port-range N-M   Ports NodePort and LoadBalancer Services get. Default 30000-32767.
  --event-ttl D                   How long Events are kept after their last write (Go duration). Default 1h0m0s.
${WORKERS_USAGE}${LEADER_ELECTION_USAGE}  --requestheader-client-ca-file FILE        CA bundle for front proxies. Default the front-proxy CA.
  --requestheader-allowed-names CN[,CN…]     CNs a front proxy may have; empty for any. Default front-proxy-client.
  --requestheader-username-headers H[,H…]    Default X-Remote-User.
  --requestheader-group-headers H[,H…]       Default X-Remote-Group.
  --requestheader-extra-headers-prefix P[,P…]  Default X-Remote-Extra-.
`;

/** Parses argv (kube's `--flag value` and `--flag=value` forms). Throws OptionsError with the usage on bad input. */
export function parseServerRunOptions(argv: readonly string[]): ServerRunOptions & { help: boolean } {
  const values = parseFlags(
    normalizeLeaderElectFlag(argv),
    {
      ...LEADER_ELECTION_FLAGS,
      ...SERVING_FLAGS,
      ...REQUEST_HEADER_FLAGS,
      ...STORAGE_FLAGS,
      ...AUTHORIZATION_FLAGS,
      ...SERVICE_ACCOUNT_FLAGS,
      'advertise-address': { type: 'string' },
      'max-requests-inflight': { type: 'string' },
      'max-mutating-requests-inflight': { type: 'string' },
      'token-auth-file': { type: 'string' },
      'tls-cert-file': { type: 'string' },
      'tls-private-key-file': { type: 'string' },
      'shutdown-delay-duration': { type: 'string' },
      'shutdown-send-retry-after': { type: 'string' },
      'shutdown-watch-termination-grace-period': { type: 'string' },
      'service-cluster-ip-range': { type: 'string' },
      'service-node-port-range': { type: 'string' },
      'event-ttl': { type: 'string' },
      workers: { type: 'string' },
    },
    USAGE,
  );
  const opts = given<ServerRunOptions>({
    securePort: intFlag('secure-port', values['secure-port']),
    bindAddress: values['bind-address'],
    advertiseAddress: values['advertise-address'],
    dataDir: values['data-dir'],
    ...storageOptionsFromFlags(values),
    ...authorizationOptionsFromFlags(values),
    ...serviceAccountOptionsFromFlags(values),
    maxRequestsInflight: intFlag('max-requests-inflight', values['max-requests-inflight']),
    maxMutatingRequestsInflight: intFlag('max-mutating-requests-inflight', values['max-mutating-requests-inflight']),
    requestTimeoutSeconds: intFlag('request-timeout', values['request-timeout']),
    shutdownDelayDurationMs: durationFlag('shutdown-delay-duration', values['shutdown-delay-duration']),
    shutdownSendRetryAfter: boolFlag('shutdown-send-retry-after', values['shutdown-send-retry-after']),
    shutdownWatchTerminationGracePeriodMs: durationFlag('shutdown-watch-termination-grace-period', values['shutdown-watch-termination-grace-period']),
    anonymousAuth: boolFlag('anonymous-auth', values['anonymous-auth']),
    clientCAFile: values['client-ca-file'],
    tlsCertFile: values['tls-cert-file'],
    tlsPrivateKeyFile: values['tls-private-key-file'],
    tokenAuthFile: values['token-auth-file'],
    serviceClusterIPRange: values['service-cluster-ip-range'],
    serviceNodePortRange: values['service-node-port-range'],
    eventTTLMs: durationFlag('event-ttl', values['event-ttl']),
    workers: workersFlag(values['workers']),
    ...leaderElectionOptionsFromFlags(values),
    requestheaderClientCAFile: values['requestheader-client-ca-file'],
    requestheaderAllowedNames: stringSliceFlag(values['requestheader-allowed-names']),
    requestheaderUsernameHeaders: stringSliceFlag(values['requestheader-username-headers']),
    requestheaderGroupHeaders: stringSliceFlag(values['requestheader-group-headers']),
    requestheaderExtraHeadersPrefix: stringSliceFlag(values['requestheader-extra-headers-prefix']),
  });
  return { ...opts, help: values.help ?? false };
}

export { USAGE };
