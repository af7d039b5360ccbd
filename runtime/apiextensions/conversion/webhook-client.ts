import { Agent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { WebhookClientConfig } from '../../../apis/apiextensions/v1/types.js';
import { newGenericServerResponse } from '../../apimachinery/errors/index.js';
import type { ServiceResolver } from './service-resolver.js';

/** kube's default webhook timeout (webhook clients send it as `?timeout=30s` too). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 30_000;

export interface WebhookClientOptions {
  readonly clientConfig: WebhookClientConfig;
  /** Needed for `service` references. */
  readonly serviceResolver?: ServiceResolver;
  readonly timeoutMs?: number;
}

/**
 * The HTTPS client of one webhook (webhook.ClientManager.HookClient): POSTs JSON to the URL or
 * service of a WebhookClientConfig, verifying the server with caBundle (the system roots when
 * absent), for services against `<name>.<namespace>.svc`. Failures are Errors worded as
 * client-go words them, `Post "<url>": <cause>` for transport failures.
 */
export class WebhookClient {
  private readonly agent: Agent;
  private readonly timeoutMs: number;

  constructor(private readonly opts: WebhookClientOptions) {
    const caBundle = opts.clientConfig.caBundle;
    const ca = caBundle !== undefined && caBundle !== '' ? Buffer.from(caBundle, 'base64').toString('utf8') : undefined;
    this.agent = new Agent({ keepAlive: true, maxSockets: 16, ...(ca !== undefined ? { ca } : {}) });
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  }

  /** The URL requests go to, as error messages show it. */
  displayURL(): string {
    const cc = this.opts.clientConfig;
    if (cc.url !== undefined) return withTimeout(cc.url, this.timeoutMs);
    const svc = cc.service;
    if (svc === undefined) return '';
    return withTimeout(`https://${svc.name}.${svc.namespace}.svc:${svc.port ?? 443}${svc.path ?? ''}`, this.timeoutMs);
  }

  /** POSTs `body`; resolves with the parsed JSON answer of a 2xx, rejects otherwise. */
  async post(body: unknown, signal?: AbortSignal): Promise<unknown> {
    const url = this.displayURL();
    const target = await this.target(url, signal);
    const payload = Buffer.from(JSON.stringify(body));
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpsRequest(
        {
          agent: this.agent,
          host: target.host,
          port: target.port,
          path: target.path,
          method: 'POST',
          servername: target.servername,
          headers: { Host: target.hostHeader, 'Content-Type': 'application/json', Accept: 'application/json, */*', 'Content-Length': payload.length },
          ...(signal !== undefined ? { signal } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', (err) => reject(transportError(url, err, target)));
        },
      );
      req.setTimeout(this.timeoutMs, () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT_WEBHOOK' })));
      req.on('error', (err) => reject(transportError(url, err, target)));
      req.end(payload);
    });
    if (status < 200 || status > 299) throw new Error(responseError(status, text));
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      throw new Error(`couldn't get version/kind; json parse error: ${(err as Error).message}`, { cause: err });
    }
  }

  close(): void {
    this.agent.destroy();
  }

  /**
   * Where to connect, and the Host header: the URL's host, as Go's client sends it; for a
   * service `<name>.<namespace>.svc:<port>` although the connection goes to an endpoint.
   */
  private async target(url: string, signal: AbortSignal | undefined): Promise<{ host: string; port: number; path: string; servername: string | undefined; hostHeader: string }> {
    const cc = this.opts.clientConfig;
    const u = new URL(url);
    const path = `${u.pathname === '' ? '/' : u.pathname}${u.search}`;
    // WHATWG URL drops an explicit default port; the configured URL keeps it, as Go's Host does.
    const hostHeader = /^https:\/\/[^/?#]*:443(?=[/?#]|$)/.test(url) ? `${u.hostname}:443` : u.host;
    if (cc.service === undefined) {
      const host = u.hostname.replace(/^\[|\]$/g, '');
      return { host, port: Number(u.port === '' ? 443 : u.port), path, servername: isIP(host) === 0 ? host : undefined, hostHeader };
    }
    const svc = cc.service;
    if (this.opts.serviceResolver === undefined) throw new Error(`Post "${url}": no service resolver for service "${svc.name}"`);
    try {
      const ep = await this.opts.serviceResolver.resolve(svc.namespace, svc.name, svc.port ?? 443, { signal: signal ?? new AbortController().signal });
      return { host: ep.host, port: ep.port, path, servername: `${svc.name}.${svc.namespace}.svc`, hostHeader };
    } catch (err) {
      throw new Error(`Post "${url}": ${(err as Error).message}`, { cause: err });
    }
  }
}

/** The URL with client-go's `timeout` parameter (validation keeps queries out of webhook URLs). */
function withTimeout(url: string, timeoutMs: number): string {
  return `${url}${url.includes('?') ? '&' : '?'}timeout=${Math.round(timeoutMs / 1000)}s`;
}

/** A connection failure as Go's net/http reports it. */
function transportError(url: string, err: Error & { code?: string }, target: { host: string; port: number }): Error {
  const addr = `${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`;
  let cause: string;
  switch (err.code) {
    case 'ECONNREFUSED':
      cause = `dial tcp ${addr}: connect: connection refused`;
      break;
    case 'ECONNRESET':
      cause = `read tcp ${addr}: read: connection reset by peer`;
      break;
    case 'ETIMEDOUT_WEBHOOK':
    case 'ETIMEDOUT':
      cause = 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)';
      break;
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      cause = 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
      break;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      cause = `tls: failed to verify certificate: x509: ${err.message}`;
      break;
    default:
      cause = err.message;
  }
  return new Error(`Post "${url}": ${cause}`, { cause: err });
}

/** What client-go's Result.Into answers for a non-2xx webhook response. */
function responseError(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { kind?: unknown; message?: unknown };
    if (body.kind === 'Status' && typeof body.message === 'string' && body.message !== '') return body.message;
  } catch {
    // not a Status: the generic wording below
  }
  return newGenericServerResponse(status, text.trim()).message;
}
