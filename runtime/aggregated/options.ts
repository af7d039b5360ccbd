import { resolve } from 'node:path';
import { boolFlag, given, intFlag, OptionsError, parseFlags, REQUEST_HEADER_FLAGS, SERVING_FLAGS, stringSliceFlag } from '../server/options/flags.js';
import { completeStorageOptions, STORAGE_FLAGS, storageOptionsFromFlags, storageUsage, type CompletedStorageOptions, type StorageOptions } from '../server/options/storage.js';
import { isBuiltinGroup } from '../controlplane/groups.js';
import { completeDelegationOptions, DELEGATION_FLAGS, DELEGATION_USAGE, delegationOptionsFromFlags, type CompletedDelegationOptions, type DelegationOptions } from './delegation-options.js';
import type { APIGroupDefinition } from '../registry/types.js';

/**
 * The flags of the standalone aggregated API server (sample-apiserver's RecommendedOptions,
 * reduced to what this runtime has), with kube's names where they exist.
 */
export interface AggregatedServerOptions extends StorageOptions, DelegationOptions {
  /** --groups: which of the server's groups to serve; default every one a control plane does not own itself. */
  groups?: readonly string[];
  securePort?: number;
  bindAddress?: string;
  /** Serving CA and certificate (when generated), the SQLite store, the audit log's default place. */
  dataDir?: string;
  requestTimeoutSeconds?: number;
  /** Serving certificate and key files; both or neither. Neither: a CA and a certificate made in <data-dir>/pki. */
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  /** The Service the aggregator reaches this server through: its DNS names go into the generated certificate. */
  serviceName?: string;
  serviceNamespace?: string;
  /** More hosts (DNS names or IPs) for the generated certificate. */
  tlsSANs?: readonly string[];
  /**
   * The front-proxy CA of the control plane. Default: the control plane's ConfigMap (with its
   * allowed names and headers, which the flags below then do not override); without an
   * authentication kubeconfig, .kube-ts/pki/front-proxy-ca.crt (`npm start`'s).
   */
  requestheaderClientCAFile?: string;
  /** Default front-proxy-client (the control plane's proxy certificate); empty allows any CN the CA signed. */
  requestheaderAllowedNames?: readonly string[];
  requestheaderUsernameHeaders?: readonly string[];
  requestheaderUIDHeaders?: readonly string[];
  requestheaderGroupHeaders?: readonly string[];
  requestheaderExtraHeadersPrefix?: readonly string[];
  /** CA bundle of client certificates this server trusts directly (users are CN, groups O); default the ConfigMap's client-ca-file, or none. */
  clientCAFile?: string;
  /**
   * Requests without credentials are system:anonymous everywhere (authorization then decides:
   * 403 unless allowed). Default true when requests are authorized by the control plane (kube's
   * delegated authentication); otherwise false: only /healthz, /livez and /readyz answer
   * anonymous requests, everything else is 401.
   */
  anonymousAuth?: boolean;
  /** A kubeconfig of the control plane: namespace lookups (NamespaceLifecycle) and the default of the delegation kubeconfigs; absent: no namespace checks. */
  kubeconfig?: string;
  /** Audit events (level Metadata) as JSON lines to this file, `-` for stdout; absent: no audit. */
  auditLogPath?: string;
}

/** Options with every default resolved; only completeAggregatedOptions makes one. */
export interface CompletedAggregatedOptions extends CompletedStorageOptions {
  readonly delegation: CompletedDelegationOptions;
  readonly groups: readonly APIGroupDefinition[];
  readonly securePort: number;
  readonly bindAddress: string;
  readonly dataDir: string;
  readonly requestTimeoutSeconds: number;
  /** Absolute paths, or undefined to generate. */
  readonly tlsCertFile: string | undefined;
  readonly tlsPrivateKeyFile: string | undefined;
  /** SANs of a generated serving certificate. */
  readonly servingHosts: readonly string[];
  /** Absolute; undefined: from the control plane's ConfigMap. */
  readonly requestheaderClientCAFile: string | undefined;
  readonly requestheaderAllowedNames: readonly string[];
  readonly requestheaderUsernameHeaders: readonly string[];
  readonly requestheaderUIDHeaders: readonly string[];
  readonly requestheaderGroupHeaders: readonly string[];
  readonly requestheaderExtraHeadersPrefix: readonly string[];
  readonly clientCAFile: string | undefined;
  readonly anonymousAuth: boolean;
  readonly kubeconfig: string | undefined;
  /** Absolute, `-`, or undefined. */
  readonly auditLogPath: string | undefined;
  readonly completed: true;
}

/**
 * The Service the APIService names, as sample-apiserver's README deploys it: `api`, in a
 * namespace named after the group (the first label of the first group served).
 */
export const DEFAULT_SERVICE_NAME = 'api';
/** The data dir of `npm start`, whose front-proxy CA is trusted by default. */
const CONTROL_PLANE_FRONT_PROXY_CA = '.kube-ts/pki/front-proxy-ca.crt';

export { OptionsError };

/**
 * Of the groups a server is given, those a standalone server may serve: not the control plane's
 * own groups, which live in the control plane's storage.
 */
export function servableGroups(groups: readonly APIGroupDefinition[]): readonly APIGroupDefinition[] {
  return groups.filter((g) => !isBuiltinGroup(g.name));
}

/** Completes the flags of a server given `apiGroups` (the project's generated index). */
export function completeAggregatedOptions(o: AggregatedServerOptions, apiGroups: readonly APIGroupDefinition[]): CompletedAggregatedOptions {
  const available = servableGroups(apiGroups);
  const groupNames = [...new Set(o.groups ?? available.map((g) => g.name))];
  if (groupNames.length === 0) {
    throw new OptionsError(o.groups === undefined ? "no group to serve: the server was given none but the control plane's own" : '--groups: at least one group is required');
  }
  const groups = groupNames.map((name) => {
    const g = available.find((a) => a.name === name);
    if (g === undefined) throw new OptionsError(`--groups: ${JSON.stringify(name)} is not a group of apis/ a standalone server can serve (available: ${available.map((a) => a.name).join(', ')})`);
    return g;
  });
  // sample-apiserver's prefix is /registry/<its group>.
  const storage = completeStorageOptions(o, { etcdPrefix: `/registry/${[...groupNames].sort().join('+')}` });
  const securePort = o.securePort ?? 8443;
  if (!Number.isInteger(securePort) || securePort < 0 || securePort > 65535) throw new OptionsError(`--secure-port ${securePort} must be between 0 and 65535`);
  if ((o.tlsCertFile === undefined) !== (o.tlsPrivateKeyFile === undefined)) throw new OptionsError('--tls-cert-file and --tls-private-key-file must be given together');
  const bindAddress = o.bindAddress ?? '127.0.0.1';
  const service = { name: o.serviceName ?? DEFAULT_SERVICE_NAME, namespace: o.serviceNamespace ?? groupNames[0]!.split('.')[0]! };
  const headers = (flag: string, given: readonly string[] | undefined, dflt: readonly string[]): readonly string[] => {
    const names = (given ?? dflt).map((h) => h.trim());
    if (names.some((h) => h === '')) throw new OptionsError(`--${flag}: empty header name`);
    return names;
  };
  const wildcard = bindAddress === '0.0.0.0' || bindAddress === '::';
  const delegation = completeDelegationOptions(o, o.kubeconfig);
  const lookup = delegation.authenticationKubeconfig !== undefined && !delegation.authenticationSkipLookup;
  return {
    delegation,
    groups,
    securePort,
    bindAddress,
    dataDir: resolve(o.dataDir ?? '.kube-ts-aggregated'),
    ...storage,
    requestTimeoutSeconds: o.requestTimeoutSeconds ?? 60,
    tlsCertFile: o.tlsCertFile === undefined ? undefined : resolve(o.tlsCertFile),
    tlsPrivateKeyFile: o.tlsPrivateKeyFile === undefined ? undefined : resolve(o.tlsPrivateKeyFile),
    // The aggregator checks the certificate against the Service's DNS name (kube's
    // <service>.<namespace>.svc), whatever address the Endpoints give.
    servingHosts: [
      ...new Set([
        `${service.name}.${service.namespace}.svc`,
        `${service.name}.${service.namespace}.svc.cluster.local`,
        'localhost',
        '127.0.0.1',
        '::1',
        ...(wildcard ? [] : [bindAddress]),
        ...(o.tlsSANs ?? []),
      ]),
    ],
    requestheaderClientCAFile: o.requestheaderClientCAFile !== undefined ? resolve(o.requestheaderClientCAFile) : lookup ? undefined : resolve(CONTROL_PLANE_FRONT_PROXY_CA),
    requestheaderAllowedNames: o.requestheaderAllowedNames ?? ['front-proxy-client'],
    requestheaderUsernameHeaders: headers('requestheader-username-headers', o.requestheaderUsernameHeaders, ['X-Remote-User']),
    requestheaderUIDHeaders: headers('requestheader-uid-headers', o.requestheaderUIDHeaders, ['X-Remote-Uid']),
    requestheaderGroupHeaders: headers('requestheader-group-headers', o.requestheaderGroupHeaders, ['X-Remote-Group']),
    requestheaderExtraHeadersPrefix: headers('requestheader-extra-headers-prefix', o.requestheaderExtraHeadersPrefix, ['X-Remote-Extra-']),
    clientCAFile: o.clientCAFile === undefined ? undefined : resolve(o.clientCAFile),
    anonymousAuth: o.anonymousAuth ?? delegation.authorizationKubeconfig !== undefined,
    kubeconfig: o.kubeconfig === undefined ? undefined : resolve(o.kubeconfig),
    auditLogPath: o.auditLogPath === undefined || o.auditLogPath === '-' ? o.auditLogPath : resolve(o.auditLogPath),
    completed: true,
  };
}

export const USAGE = `Usage: npm run serve-aggregated -- [flags]

Serves groups from apis/ as an aggregated API server behind the control plane's aggregator
(kube's sample-apiserver), on its own storage and certificate.

  --groups G[,G…]                 Groups of apis/ to serve. Default every group of apis/ but the
                                  control plane's own (core, apiextensions.k8s.io, apiregistration.k8s.io).
  --secure-port N                 HTTPS port (0 picks a free port). Default 8443.
  --bind-address IP               Address to listen on. Default 127.0.0.1.
  --data-dir DIR                  Serving CA and certificate, SQLite store. Default ./.kube-ts-aggregated.
${storageUsage({ sqliteFile: 'aggregated.db', etcdPrefix: '/registry/<groups>' })}  --request-timeout SECONDS       Default request timeout. Default 60.
  --tls-cert-file FILE            Serving certificate (PEM). Default: made in <data-dir>/pki by
  --tls-private-key-file FILE     <data-dir>/pki/ca.crt, whose PEM is the APIService's caBundle.
  --service-name NAME             The Service the APIService names; its DNS names
  --service-namespace NS          (NAME.NS.svc) go into the made certificate. Default api, in the
                                  namespace named by the first label of the first group served (foo.example.com: api.foo.svc).
  --tls-san HOST[,HOST…]          More DNS names or IPs for the made certificate.
  --requestheader-client-ca-file FILE        The control plane's front-proxy CA (its <data-dir>/pki/front-proxy-ca.crt).
                                             Default the ConfigMap's (with its names and headers, overriding the flags
                                             below); without a kubeconfig, .kube-ts/pki/front-proxy-ca.crt.
  --requestheader-allowed-names CN[,CN…]     CNs the front proxy may have; empty for any. Default front-proxy-client.
  --requestheader-username-headers H[,H…]    Default X-Remote-User.
  --requestheader-uid-headers H[,H…]         Default X-Remote-Uid.
  --requestheader-group-headers H[,H…]       Default X-Remote-Group.
  --requestheader-extra-headers-prefix P[,P…]  Default X-Remote-Extra-.
  --client-ca-file FILE           Also trust client certificates this CA signed (user = CN, groups = O). Default the
                                  ConfigMap's client-ca-file; none without a kubeconfig.
  --anonymous-auth=BOOL           Serve requests without credentials as system:anonymous everywhere (authorization then
                                  answers 403). Default true with a kubeconfig; false without: only /healthz, /livez and
                                  /readyz answer them, everything else is 401.
  --kubeconfig FILE               The control plane: namespace lookups (NamespaceLifecycle admission), token reviews,
                                  access reviews and the authentication ConfigMap. Without it, namespaces are not
                                  checked and every authenticated request is allowed.
${DELEGATION_USAGE}  --audit-log-path FILE           Audit events (Metadata level) as JSON lines; - for stdout.
`;

/** Parses argv (kube's `--flag value` and `--flag=value` forms). Throws OptionsError with the usage on bad input. */
export function parseAggregatedServerOptions(argv: readonly string[]): AggregatedServerOptions & { help: boolean } {
  const values = parseFlags(
    argv,
    {
      ...SERVING_FLAGS,
      ...REQUEST_HEADER_FLAGS,
      ...STORAGE_FLAGS,
      ...DELEGATION_FLAGS,
      groups: { type: 'string', multiple: true },
      'tls-cert-file': { type: 'string' },
      'tls-private-key-file': { type: 'string' },
      'service-name': { type: 'string' },
      'service-namespace': { type: 'string' },
      'tls-san': { type: 'string', multiple: true },
      'requestheader-uid-headers': { type: 'string', multiple: true },
      kubeconfig: { type: 'string' },
      'audit-log-path': { type: 'string' },
    },
    USAGE,
  );
  const opts = given<AggregatedServerOptions>({
    groups: stringSliceFlag(values.groups),
    securePort: intFlag('secure-port', values['secure-port']),
    bindAddress: values['bind-address'],
    dataDir: values['data-dir'],
    ...storageOptionsFromFlags(values),
    ...delegationOptionsFromFlags(values),
    requestTimeoutSeconds: intFlag('request-timeout', values['request-timeout']),
    tlsCertFile: values['tls-cert-file'],
    tlsPrivateKeyFile: values['tls-private-key-file'],
    serviceName: values['service-name'],
    serviceNamespace: values['service-namespace'],
    tlsSANs: stringSliceFlag(values['tls-san']),
    requestheaderClientCAFile: values['requestheader-client-ca-file'],
    requestheaderAllowedNames: stringSliceFlag(values['requestheader-allowed-names']),
    requestheaderUsernameHeaders: stringSliceFlag(values['requestheader-username-headers']),
    requestheaderUIDHeaders: stringSliceFlag(values['requestheader-uid-headers']),
    requestheaderGroupHeaders: stringSliceFlag(values['requestheader-group-headers']),
    requestheaderExtraHeadersPrefix: stringSliceFlag(values['requestheader-extra-headers-prefix']),
    clientCAFile: values['client-ca-file'],
    anonymousAuth: boolFlag('anonymous-auth', values['anonymous-auth']),
    kubeconfig: values.kubeconfig,
    auditLogPath: values['audit-log-path'],
  });
  return { ...opts, help: values.help ?? false };
}
