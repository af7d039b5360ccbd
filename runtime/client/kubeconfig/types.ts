import type { ExecConfig } from '../exec/types.js';

/**
 * A kubeconfig as this client reads it (clientcmd/api): the named clusters, users and contexts
 * of one or more files, after relative paths were resolved against each file's directory.
 * Every entry remembers where it came from so that errors can name the file and the field.
 */

/** The file and the field path of an entry, e.g. `users[1].user`. */
export interface Origin {
  readonly file: string;
  readonly field: string;
}

export interface Cluster {
  readonly server: string;
  /** Absolute path of a PEM bundle. */
  readonly certificateAuthority?: string;
  /** PEM bytes, decoded from base64. */
  readonly certificateAuthorityData?: Buffer;
  readonly insecureSkipTLSVerify: boolean;
  readonly tlsServerName?: string;
  /** The `client.authentication.k8s.io/exec` extension, which exec plugins asking for cluster info receive. */
  readonly execExtension?: unknown;
  readonly origin: Origin;
}

/**
 * `user.exec` as written: interactiveMode is empty when the file names none (v1beta1 plugins
 * default to IfAvailable while reading; v1 ones must name it, which selection checks).
 */
export interface ExecConfigEntry extends Omit<ExecConfig, 'interactiveMode' | 'config'> {
  /** Never, IfAvailable or Always once valid; any string as written. */
  readonly interactiveMode: string;
}

export interface AuthInfo {
  readonly clientCertificate?: string;
  readonly clientCertificateData?: Buffer;
  readonly clientKey?: string;
  readonly clientKeyData?: Buffer;
  readonly token?: string;
  readonly tokenFile?: string;
  readonly username?: string;
  readonly password?: string;
  readonly exec?: ExecConfigEntry;
  /** The name of `auth-provider`, which this client does not run (kubectl 1.26 removed gcp and azure). */
  readonly authProvider?: string;
  readonly origin: Origin;
}

export interface Context {
  readonly cluster: string;
  /** The user (AuthInfo) name; empty for an anonymous context. */
  readonly user: string;
  readonly namespace?: string;
  readonly origin: Origin;
}

export interface Kubeconfig {
  readonly clusters: ReadonlyMap<string, Cluster>;
  readonly users: ReadonlyMap<string, AuthInfo>;
  readonly contexts: ReadonlyMap<string, Context>;
  readonly currentContext?: string;
  /** The files merged into this configuration, in precedence order. */
  readonly files: readonly string[];
}

/** A kubeconfig that cannot be used; `file` and `field` say where (the field may be empty). */
export class KubeconfigError extends Error {
  override readonly name = 'KubeconfigError';

  constructor(
    readonly file: string,
    readonly field: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${field === '' ? '' : `${field}: `}${detail}`, options);
  }
}
