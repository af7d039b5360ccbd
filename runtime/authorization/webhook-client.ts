import { Agent as HTTPAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HTTPSAgent, request as httpsRequest } from 'node:https';
import type { SubjectAccessReview, SubjectAccessReviewStatus } from '../../apis/authorization/v1/types.js';
import { newGenericServerResponse, StatusError, type FailureStatus } from '../apimachinery/errors/index.js';
import { isJSONObject, jsonTypeName, ownField, type JSONObject } from '../apimachinery/serializer/jsonvalue.js';
import type { SubjectAccessReviewer } from './webhook.js';
import type { WebhookConnection } from './webhook-kubeconfig.js';

/**
 * The webhook authorizer's transport (kube's GenericWebhook over a rest.Config from the
 * kubeconfig): one POST of the SubjectAccessReview to the server URL exactly as configured, in
 * the version --authorization-webhook-version names, with an absolute timeout covering the answer
 * (kube's 30 s). Error answers become StatusErrors as client-go builds them, so the retry policy
 * can read their reason, code and Retry-After.
 */

export type SubjectAccessReviewVersion = 'v1' | 'v1beta1';

export const WEBHOOK_VERSIONS: readonly SubjectAccessReviewVersion[] = ['v1', 'v1beta1'];

export interface WebhookClientOptions {
  /** Absolute time for one request and its answer; default 30 s (webhook.defaultRequestTimeout). */
  readonly timeoutMs?: number;
  /** A longer answer is an error; default 3 MiB. */
  readonly maxResponseBytes?: number;
}

const ANSWER_VERSIONS: readonly string[] = WEBHOOK_VERSIONS.map((v) => `authorization.k8s.io/${v}`);
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESPONSE_BYTES = 3 * 1024 * 1024;

export function httpsSubjectAccessReviewer(conn: WebhookConnection, version: SubjectAccessReviewVersion, opts: WebhookClientOptions = {}): SubjectAccessReviewer {
  const https = conn.server.protocol === 'https:';
  const tls = {
    ...(conn.ca !== undefined ? { ca: conn.ca } : {}),
    ...(conn.clientCertificate !== undefined ? { cert: conn.clientCertificate } : {}),
    ...(conn.clientKey !== undefined ? { key: conn.clientKey } : {}),
    ...(conn.tlsServerName !== undefined ? { servername: conn.tlsServerName } : {}),
    rejectUnauthorized: !conn.insecureSkipTLSVerify,
  };
  const agent = https ? new HTTPSAgent({ keepAlive: true, ...tls }) : new HTTPAgent({ keepAlive: true });
  const apiVersion = `authorization.k8s.io/${version}`;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const limit = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return {
    async create(review) {
      const body = JSON.stringify(version === 'v1' ? review : toV1beta1(review));
      const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': String(Buffer.byteLength(body)) };
      if (conn.bearerToken !== undefined) headers.Authorization = `Bearer ${conn.bearerToken}`;
      const answer = await post(conn.server, { method: 'POST', agent, headers, https }, body, timeoutMs, limit);
      return decodeAnswer(answer, apiVersion);
    },
  };
}

/** v1SpecToV1beta1Spec: the same fields, `groups` spelled `group`. */
function toV1beta1(review: SubjectAccessReview): JSONObject {
  const { groups, ...spec } = review.spec;
  return { ...review, apiVersion: 'authorization.k8s.io/v1beta1', spec: { ...spec, ...(groups !== undefined ? { group: groups } : {}) } };
}

interface Answer {
  readonly code: number;
  readonly body: Buffer;
  readonly retryAfter: string | undefined;
}

function post(url: URL, o: { method: string; agent: HTTPAgent; headers: Record<string, string>; https: boolean }, body: string, timeoutMs: number, limit: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const send = o.https ? httpsRequest : httpRequest;
    const req = send(url, { method: o.method, agent: o.agent, headers: o.headers });
    const timer = setTimeout(() => req.destroy(new Error(`webhook request to ${url.href} timed out after ${timeoutMs} ms`)), timeoutMs);
    const fail = (err: Error): void => {
      clearTimeout(timer);
      reject(err);
    };
    req.on('error', fail);
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > limit) req.destroy(new Error(`webhook answer from ${url.href} is longer than ${limit} bytes`));
        else chunks.push(c);
      });
      res.on('error', fail);
      res.on('close', () => {
        if (!res.complete) fail(Object.assign(new Error(`webhook ${url.href} closed the connection before its answer ended`), { code: 'ECONNRESET' }));
      });
      res.on('end', () => {
        clearTimeout(timer);
        const retryAfter = res.headers['retry-after'];
        resolve({ code: res.statusCode ?? 0, body: Buffer.concat(chunks), retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined });
      });
    });
    req.end(body);
  });
}

/** The review's status from a 2xx answer; a StatusError for any other (the answer's Status when it sent one). */
function decodeAnswer(a: Answer, apiVersion: string): SubjectAccessReviewStatus {
  const text = a.body.toString('utf8');
  let doc: unknown;
  try {
    doc = text === '' ? undefined : JSON.parse(text);
  } catch {
    doc = undefined;
  }
  if (a.code < 200 || a.code > 206) throw errorAnswer(a, doc, text);
  if (!isJSONObject(doc)) throw new Error(`webhook answered ${a.code} with ${doc === undefined ? 'a body that is not JSON' : jsonTypeName(doc)}, not a SubjectAccessReview`);
  // kube's codec converts between the versions it knows, so either version's answer is read.
  const kind = ownField(doc, 'kind');
  const version = ownField(doc, 'apiVersion');
  if ((kind !== undefined && kind !== 'SubjectAccessReview') || (version !== undefined && !ANSWER_VERSIONS.includes(String(version)))) {
    throw new Error(`webhook answered with ${String(version)}, Kind=${String(kind)}, not ${apiVersion}, Kind=SubjectAccessReview`);
  }
  const status = ownField(doc, 'status') ?? {};
  if (!isJSONObject(status)) throw new Error(`webhook answer: status must be an object, got ${jsonTypeName(status)}`);
  const field = <T>(name: string, type: 'boolean' | 'string', fallback: T): T => {
    const v = ownField(status, name);
    if (v === undefined || v === null) return fallback;
    if (typeof v !== type) throw new Error(`webhook answer: status.${name} must be a ${type}, got ${jsonTypeName(v)}`);
    return v as T;
  };
  const reason = field('reason', 'string', '');
  const evaluationError = field('evaluationError', 'string', '');
  return {
    allowed: field('allowed', 'boolean', false),
    ...(field('denied', 'boolean', false) ? { denied: true } : {}),
    ...(reason !== '' ? { reason } : {}),
    ...(evaluationError !== '' ? { evaluationError } : {}),
  };
}

/** client-go's error for an error answer: its Status if it is one, else the code's generic Status (with Retry-After). */
function errorAnswer(a: Answer, doc: unknown, text: string): StatusError {
  const retryAfterSeconds = a.retryAfter !== undefined && /^\d+$/.test(a.retryAfter) ? Number(a.retryAfter) : 0;
  if (isJSONObject(doc) && ownField(doc, 'kind') === 'Status' && typeof ownField(doc, 'message') === 'string') {
    const status = doc as unknown as FailureStatus;
    return new StatusError({ ...status, code: typeof status.code === 'number' && status.code !== 0 ? status.code : a.code });
  }
  const generic = newGenericServerResponse(a.code, text.trim().slice(0, 1024));
  if (retryAfterSeconds === 0) return generic;
  return new StatusError({ ...generic.status, details: { ...generic.status.details, retryAfterSeconds } });
}
