import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYAML } from 'yaml';
import { KubeconfigError, type AuthInfo, type Cluster, type Context, type ExecConfigEntry, type Kubeconfig } from './types.js';

/** The cluster extension whose value exec plugins receive as spec.cluster.config. */
const EXEC_EXTENSION = 'client.authentication.k8s.io/exec';

/** Versions whose missing interactiveMode reads as IfAvailable (clientcmd's SetDefaults_ExecConfig); v1 must name it. */
const DEFAULT_IF_AVAILABLE: ReadonlySet<string> = new Set(['client.authentication.k8s.io/v1beta1', 'client.authentication.k8s.io/v1alpha1']);

/**
 * Reads one kubeconfig file's text (YAML or JSON, kind Config, apiVersion v1). Types are checked
 * field by field and the first mistake fails with the file and the field's path; fields this
 * client does not use are ignored, as clientcmd ignores them. Relative file references are
 * resolved against the file's directory (clientcmd.ResolveLocalPaths). An empty file is an
 * empty configuration.
 */
export function parseKubeconfig(text: string, file: string): Kubeconfig {
  let doc: unknown;
  try {
    doc = parseYAML(text);
  } catch (e) {
    throw new KubeconfigError(file, '', `not valid YAML: ${(e as Error).message}`, { cause: e });
  }
  if (doc === null || doc === undefined) return { clusters: new Map(), users: new Map(), contexts: new Map(), files: [file] };
  const r = new Reader(file, dirname(resolve(file)));
  const root = r.record(doc, '');
  const current = r.optString(root, 'current-context', '');
  return {
    clusters: r.named(root, 'clusters', 'cluster', (v, at) => r.cluster(v, at)),
    users: r.named(root, 'users', 'user', (v, at) => r.authInfo(v, at)),
    contexts: r.named(root, 'contexts', 'context', (v, at) => r.context(v, at)),
    ...(current !== undefined && current !== '' ? { currentContext: current } : {}),
    files: [file],
  };
}

type Fields = Record<string, unknown>;

class Reader {
  constructor(
    private readonly file: string,
    private readonly dir: string,
  ) {}

  fail(field: string, detail: string): never {
    throw new KubeconfigError(this.file, field, detail);
  }

  record(v: unknown, at: string): Fields {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) this.fail(at, `must be a mapping, got ${describe(v)}`);
    return v as Fields;
  }

  /** A list of `{name, <inner>: {...}}` entries as a map by name; names must be unique. */
  named<T>(root: Fields, list: string, inner: string, read: (v: Fields, at: string) => T): Map<string, T> {
    const out = new Map<string, T>();
    const items = root[list];
    if (items === undefined || items === null) return out;
    if (!Array.isArray(items)) this.fail(list, `must be a list, got ${describe(items)}`);
    items.forEach((item, i) => {
      const at = `${list}[${i}]`;
      const entry = this.record(item, at);
      const name = this.optString(entry, 'name', at);
      if (name === undefined || name === '') this.fail(`${at}.name`, 'is required');
      if (out.has(name)) this.fail(`${at}.name`, `duplicate name ${JSON.stringify(name)}`);
      const body = entry[inner];
      out.set(name, read(body === undefined || body === null ? {} : this.record(body, `${at}.${inner}`), `${at}.${inner}`));
    });
    return out;
  }

  cluster(v: Fields, at: string): Cluster {
    const ca = this.path(v, 'certificate-authority', at);
    const caData = this.base64(v, 'certificate-authority-data', at);
    const serverName = this.optString(v, 'tls-server-name', at);
    const execExtension = this.extension(v, at, EXEC_EXTENSION);
    return {
      server: this.optString(v, 'server', at) ?? '',
      ...(ca !== undefined ? { certificateAuthority: ca } : {}),
      ...(caData !== undefined ? { certificateAuthorityData: caData } : {}),
      insecureSkipTLSVerify: this.optBool(v, 'insecure-skip-tls-verify', at) ?? false,
      ...(serverName !== undefined && serverName !== '' ? { tlsServerName: serverName } : {}),
      ...(execExtension !== undefined ? { execExtension } : {}),
      origin: { file: this.file, field: at },
    };
  }

  authInfo(v: Fields, at: string): AuthInfo {
    const info: { -readonly [K in keyof AuthInfo]: AuthInfo[K] } = { origin: { file: this.file, field: at } };
    const exec = v['exec'];
    if (exec !== undefined && exec !== null) info.exec = this.exec(this.record(exec, `${at}.exec`), `${at}.exec`);
    const provider = v['auth-provider'];
    if (provider !== undefined && provider !== null) info.authProvider = this.optString(this.record(provider, `${at}.auth-provider`), 'name', `${at}.auth-provider`) ?? '';
    const clientCertificate = this.path(v, 'client-certificate', at);
    if (clientCertificate !== undefined) info.clientCertificate = clientCertificate;
    const clientKey = this.path(v, 'client-key', at);
    if (clientKey !== undefined) info.clientKey = clientKey;
    const tokenFile = this.path(v, 'tokenFile', at);
    if (tokenFile !== undefined) info.tokenFile = tokenFile;
    const clientCertificateData = this.base64(v, 'client-certificate-data', at);
    if (clientCertificateData !== undefined) info.clientCertificateData = clientCertificateData;
    const clientKeyData = this.base64(v, 'client-key-data', at);
    if (clientKeyData !== undefined) info.clientKeyData = clientKeyData;
    for (const [key, field] of [
      ['token', 'token'],
      ['username', 'username'],
      ['password', 'password'],
    ] as const) {
      const value = this.optString(v, key, at);
      if (value !== undefined && value !== '') info[field] = value;
    }
    return info;
  }

  /**
   * `user.exec` (clientcmd/api/v1 ExecConfig). A command holding a path separator is a path and
   * is resolved against the file's directory; a bare name is looked up on PATH when run.
   */
  exec(v: Fields, at: string): ExecConfigEntry {
    const command = this.optString(v, 'command', at) ?? '';
    const apiVersion = this.optString(v, 'apiVersion', at) ?? '';
    const interactiveMode = this.optString(v, 'interactiveMode', at) ?? '';
    const installHint = this.optString(v, 'installHint', at);
    const env = this.list(v, 'env', at).map((item, i) => {
      const entry = this.record(item, `${at}.env[${i}]`);
      return { name: this.optString(entry, 'name', `${at}.env[${i}]`) ?? '', value: this.optString(entry, 'value', `${at}.env[${i}]`) ?? '' };
    });
    const args = this.list(v, 'args', at).map((a, i) => {
      if (typeof a !== 'string') this.fail(`${at}.args[${i}]`, `must be a string, got ${describe(a)}`);
      return a;
    });
    return {
      command: command.includes('/') && !isAbsolute(command) ? resolve(this.dir, command) : command,
      args,
      env,
      apiVersion,
      ...(installHint !== undefined && installHint !== '' ? { installHint } : {}),
      provideClusterInfo: this.optBool(v, 'provideClusterInfo', at) ?? false,
      interactiveMode: interactiveMode === '' && DEFAULT_IF_AVAILABLE.has(apiVersion) ? 'IfAvailable' : interactiveMode,
    };
  }

  /** The value of the named entry of `extensions` (a list of {name, extension}), if there is one. */
  extension(v: Fields, at: string, name: string): unknown {
    let found: unknown;
    this.list(v, 'extensions', at).forEach((item, i) => {
      const entry = this.record(item, `${at}.extensions[${i}]`);
      if (this.optString(entry, 'name', `${at}.extensions[${i}]`) === name) found = entry['extension'] ?? undefined;
    });
    return found === null ? undefined : found;
  }

  /** A list field; absent or null is empty. */
  list(v: Fields, key: string, at: string): unknown[] {
    const items = v[key];
    if (items === undefined || items === null) return [];
    if (!Array.isArray(items)) this.fail(join(at, key), `must be a list, got ${describe(items)}`);
    return items;
  }

  context(v: Fields, at: string): Context {
    const namespace = this.optString(v, 'namespace', at);
    return {
      cluster: this.optString(v, 'cluster', at) ?? '',
      user: this.optString(v, 'user', at) ?? '',
      ...(namespace !== undefined && namespace !== '' ? { namespace } : {}),
      origin: { file: this.file, field: at },
    };
  }

  optString(v: Fields, key: string, at: string): string | undefined {
    const s = v[key];
    if (s === undefined || s === null) return undefined;
    if (typeof s !== 'string') this.fail(join(at, key), `must be a string, got ${describe(s)}`);
    return s;
  }

  optBool(v: Fields, key: string, at: string): boolean | undefined {
    const b = v[key];
    if (b === undefined || b === null) return undefined;
    if (typeof b !== 'boolean') this.fail(join(at, key), `must be true or false, got ${describe(b)}`);
    return b;
  }

  /** A file reference, absolute after resolution against the kubeconfig's directory. */
  path(v: Fields, key: string, at: string): string | undefined {
    const p = this.optString(v, key, at);
    if (p === undefined || p === '') return undefined;
    return isAbsolute(p) ? p : resolve(this.dir, p);
  }

  /** Base64 text (Go's standard encoding, line breaks allowed) as bytes. */
  base64(v: Fields, key: string, at: string): Buffer | undefined {
    const s = this.optString(v, key, at);
    if (s === undefined || s === '') return undefined;
    const compact = s.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) this.fail(join(at, key), 'is not valid base64');
    return Buffer.from(compact, 'base64');
  }
}

function join(at: string, key: string): string {
  return at === '' ? key : `${at}.${key}`;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return `${typeof v} ${JSON.stringify(v)}`;
}
