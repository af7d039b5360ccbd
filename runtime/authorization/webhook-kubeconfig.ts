import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { isJSONObject, jsonTypeName, ownField, type JSONObject } from '../apimachinery/serializer/jsonvalue.js';
import { decodeYAML } from '../apimachinery/serializer/yaml.js';

/**
 * The webhook's kubeconfig (--authorization-webhook-config-file), as kube's webhook.New reads it
 * through clientcmd: the current context's cluster is the remote service (server, CA or
 * insecure-skip-tls-verify, tls-server-name), its user the credentials this server presents
 * (client certificate, token or token file). The client runtime's loader sits in a layer above
 * authorization, so this reads the few fields a webhook needs; credentials a webhook client
 * cannot use here (exec plugins, auth providers, basic auth) are refused, never ignored.
 */

/** Where and how to reach the webhook, every referenced file read. */
export interface WebhookConnection {
  readonly server: URL;
  readonly ca?: Buffer;
  readonly insecureSkipTLSVerify: boolean;
  readonly tlsServerName?: string;
  readonly clientCertificate?: Buffer;
  readonly clientKey?: Buffer;
  readonly bearerToken?: string;
}

/** A kubeconfig the webhook cannot use: `<file>: <field>: <what>`. */
export class WebhookKubeconfigError extends Error {
  override readonly name = 'WebhookKubeconfigError';
}

export function loadWebhookKubeconfig(file: string): WebhookConnection {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new WebhookKubeconfigError(`${file}: cannot be read: ${(e as Error).message}`, { cause: e });
  }
  let doc: unknown;
  try {
    doc = decodeYAML(text).value;
  } catch (e) {
    throw new WebhookKubeconfigError(`${file}: ${(e as Error).message}`, { cause: e });
  }
  return new Reader(file).connection(doc);
}

class Reader {
  private readonly dir: string;

  constructor(private readonly file: string) {
    this.dir = dirname(file);
  }

  fail(field: string, detail: string): never {
    throw new WebhookKubeconfigError(`${this.file}: ${field === '' ? '' : `${field}: `}${detail}`);
  }

  connection(doc: unknown): WebhookConnection {
    if (!isJSONObject(doc)) this.fail('', `must be a mapping, got ${jsonTypeName(doc)}`);
    const contextName = this.str(doc, 'current-context', 'current-context');
    if (contextName === '') this.fail('current-context', 'is required: it names the context whose cluster is the webhook');
    const [ctxAt, ctx] = this.named(doc, 'contexts', 'context', contextName);
    const clusterName = this.str(ctx, 'cluster', `${ctxAt}.cluster`);
    const [clusterAt, cluster] = this.named(doc, 'clusters', 'cluster', clusterName);
    const userName = this.str(ctx, 'user', `${ctxAt}.user`);
    const [userAt, user] = userName === '' ? ['', {}] : this.named(doc, 'users', 'user', userName);
    return { ...this.cluster(cluster, clusterAt), ...this.user(user, userAt) };
  }

  cluster(c: JSONObject, at: string): Pick<WebhookConnection, 'server' | 'ca' | 'insecureSkipTLSVerify' | 'tlsServerName'> {
    const server = this.str(c, 'server', `${at}.server`);
    if (server === '') this.fail(`${at}.server`, 'no server defined');
    const url = URL.parse(server);
    if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) this.fail(`${at}.server`, `${JSON.stringify(server)} is not an http or https URL`);
    const insecure = ownField(c, 'insecure-skip-tls-verify');
    if (insecure !== undefined && typeof insecure !== 'boolean') this.fail(`${at}.insecure-skip-tls-verify`, `must be a boolean, got ${jsonTypeName(insecure)}`);
    const ca = this.bytes(c, 'certificate-authority', at);
    if (insecure === true && ca !== undefined) this.fail(`${at}.insecure-skip-tls-verify`, 'specifying a root certificates file with the insecure flag is not allowed');
    const serverName = this.str(c, 'tls-server-name', `${at}.tls-server-name`);
    return { server: url, ...(ca !== undefined ? { ca } : {}), insecureSkipTLSVerify: insecure === true, ...(serverName !== '' ? { tlsServerName: serverName } : {}) };
  }

  user(u: JSONObject, at: string): Pick<WebhookConnection, 'clientCertificate' | 'clientKey' | 'bearerToken'> {
    for (const unsupported of ['exec', 'auth-provider', 'username', 'password']) {
      if (ownField(u, unsupported) !== undefined) this.fail(`${at}.${unsupported}`, 'is not supported for a webhook: use a client certificate, token or tokenFile');
    }
    const cert = this.bytes(u, 'client-certificate', at);
    const key = this.bytes(u, 'client-key', at);
    if (cert !== undefined && key === undefined) this.fail(`${at}.client-key`, 'client-key-data or client-key must be specified to use the clientCert authentication method');
    if (key !== undefined && cert === undefined) this.fail(`${at}.client-certificate`, 'client-certificate-data or client-certificate must be specified with a client key');
    let token = this.str(u, 'token', `${at}.token`);
    const tokenFile = this.str(u, 'tokenFile', `${at}.tokenFile`);
    if (token === '' && tokenFile !== '') token = this.read(tokenFile, `${at}.tokenFile`).toString('utf8').trim();
    return { ...(cert !== undefined ? { clientCertificate: cert } : {}), ...(key !== undefined ? { clientKey: key } : {}), ...(token !== '' ? { bearerToken: token } : {}) };
  }

  /** The entry `name` of a list of `{name, <inner>: {...}}`, and where it is. */
  named(doc: JSONObject, list: string, inner: string, name: string): [string, JSONObject] {
    const items = ownField(doc, list) ?? [];
    if (!Array.isArray(items)) this.fail(list, `must be a list, got ${jsonTypeName(items)}`);
    const i = items.findIndex((item) => isJSONObject(item) && ownField(item, 'name') === name);
    if (i < 0) this.fail(list, `${inner} ${JSON.stringify(name)} not found`);
    const at = `${list}[${i}].${inner}`;
    const body = ownField(items[i] as JSONObject, inner) ?? {};
    if (!isJSONObject(body)) this.fail(at, `must be a mapping, got ${jsonTypeName(body)}`);
    return [at, body];
  }

  str(o: JSONObject, key: string, at: string): string {
    const v = ownField(o, key) ?? '';
    if (typeof v !== 'string') this.fail(at, `must be a string, got ${jsonTypeName(v)}`);
    return v;
  }

  /** `<key>-data` (base64) over the file `<key>` (relative to the kubeconfig's directory). */
  bytes(o: JSONObject, key: string, at: string): Buffer | undefined {
    const data = this.str(o, `${key}-data`, `${at}.${key}-data`);
    if (data !== '') {
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data.replace(/\s/g, ''))) this.fail(`${at}.${key}-data`, 'is not valid base64');
      return Buffer.from(data, 'base64');
    }
    const path = this.str(o, key, `${at}.${key}`);
    return path === '' ? undefined : this.read(path, `${at}.${key}`);
  }

  read(path: string, at: string): Buffer {
    const full = isAbsolute(path) ? path : join(this.dir, path);
    try {
      return readFileSync(full);
    } catch (e) {
      return this.fail(at, `unable to read ${full}: ${(e as Error).message}`);
    }
  }
}
