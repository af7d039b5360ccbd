import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isStatusError } from '../../apimachinery/errors/index.js';
import type { APIRequest, Filter, Handler } from '../../apimachinery/request/http.js';
import type { UserInfo } from '../../apimachinery/request/types.js';
import type { Logger } from './log.js';

export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

/** audit.k8s.io/v1 Event at level Metadata (no request or response bodies). */
export interface AuditEvent {
  readonly kind: 'Event';
  readonly apiVersion: 'audit.k8s.io/v1';
  readonly level: 'Metadata';
  readonly auditID: string;
  readonly stage: AuditStage;
  readonly requestURI: string;
  /** The RequestInfo verb (`list`, `watch`, `create`…), or the lower-cased method for non-resource requests. */
  readonly verb: string;
  /** Empty username when authentication failed; the authenticated user, not the one it impersonates. */
  readonly user: AuditUserInfo;
  /** The user the request acted as (Impersonate-User and co.), when it impersonated one. */
  readonly impersonatedUser?: AuditUserInfo;
  readonly sourceIPs: readonly string[];
  readonly userAgent?: string;
  /** Resource requests only. */
  readonly objectRef?: { resource?: string; namespace?: string; name?: string; apiGroup?: string; apiVersion?: string; subresource?: string };
  /** Absent at RequestReceived. */
  readonly responseStatus?: { metadata: Record<string, never>; code: number; status?: 'Failure'; message?: string; reason?: string };
  /** RFC 3339 with microseconds. */
  readonly requestReceivedTimestamp: string;
  readonly stageTimestamp: string;
  readonly annotations?: Readonly<Record<string, string>>;
}

/** authentication/v1 UserInfo as the event carries it (empty fields omitted). */
export interface AuditUserInfo {
  readonly username: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/**
 * audit.Sink: receives events in stage order per request. Called synchronously on the request
 * path, so it must not block: buffer and write elsewhere. A throwing sink is logged and ignored.
 */
export interface AuditSink {
  processEvent(event: AuditEvent): void;
}

const AUDIT_ID_HEADER = 'Audit-ID';
const auditIDs = new WeakMap<IncomingMessage, string>();
const impersonations = new WeakMap<IncomingMessage, { readonly user: UserInfo; readonly impersonated: UserInfo }>();

/**
 * audit.LogImpersonatedUser: the impersonation filter replaced `req.user`; events keep naming
 * the authenticated user and add the impersonated one.
 */
export function logImpersonatedUser(req: APIRequest, user: UserInfo, impersonated: UserInfo): void {
  impersonations.set(req.raw, { user, impersonated });
}

/** The request's audit ID: the client's `Audit-ID` header if it sent one, else a fresh UUID. */
export function auditIDFor(req: APIRequest): string {
  let id = auditIDs.get(req.raw);
  if (id === undefined) {
    const sent = req.headers['audit-id'];
    id = typeof sent === 'string' && sent.trim() !== '' ? sent.trim() : randomUUID();
    auditIDs.set(req.raw, id);
  }
  return id;
}

/** WithAuditInit: every response carries `Audit-Id`, with or without a sink. */
export function withAuditInit(): Filter {
  return (req, res, next) => {
    res.setHeader(AUDIT_ID_HEADER, auditIDFor(req));
    return next(req, res);
  };
}

export interface AuditOptions {
  sink: AuditSink;
  logger: Logger;
}

/**
 * WithAudit (after authentication, so events carry the user): RequestReceived before the
 * handler; ResponseComplete once the response has ended (for a watch, when the stream closes),
 * with the annotations later filters and handlers added (`authorization.k8s.io/decision`…);
 * Panic instead when the handler threw something other than a Status answer. kube's
 * ResponseStarted stage for long-running requests is not emitted.
 */
export function withAudit(opts: AuditOptions): Filter {
  return async (req, res, next) => {
    emitEvent(opts, req, 'RequestReceived');
    let panicked = false;
    res.raw.once('close', () => {
      if (!panicked) emitEvent(opts, req, 'ResponseComplete', res.raw.headersSent ? res.raw.statusCode : 0);
    });
    try {
      await next(req, res);
    } catch (err) {
      if (!isStatusError(err)) {
        panicked = true;
        emitEvent(opts, req, 'Panic', 500);
      }
      throw err;
    }
  };
}

/**
 * WithFailedAuthenticationAudit: the failed-authentication handler, recording one
 * ResponseStarted event with an empty user before it answers.
 */
export function withFailedAuthenticationAudit(failed: Handler, opts: AuditOptions): Handler {
  return async (req, res) => {
    emitEvent(opts, req, 'ResponseStarted', 401);
    await failed(req, res);
  };
}

function emitEvent(opts: AuditOptions, req: APIRequest, stage: AuditStage, code?: number): void {
  const info = req.info;
  const impersonation = impersonations.get(req.raw);
  const user = impersonation?.user ?? req.user;
  const annotations = Object.fromEntries(req.auditAnnotations);
  const event: AuditEvent = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: 'Metadata',
    auditID: auditIDFor(req),
    stage,
    requestURI: req.raw.url ?? req.path,
    verb: info.verb,
    user: user ? auditUserInfo(user) : { username: '' },
    ...(impersonation ? { impersonatedUser: auditUserInfo(impersonation.impersonated) } : {}),
    sourceIPs: sourceIPs(req),
    ...(typeof req.headers['user-agent'] === 'string' ? { userAgent: req.headers['user-agent'] } : {}),
    ...(info.isResourceRequest ? { objectRef: objectRef(req) } : {}),
    ...(code !== undefined ? { responseStatus: responseStatus(code, stage) } : {}),
    requestReceivedTimestamp: microTime(performance.timeOrigin + req.receivedAt),
    stageTimestamp: microTime(Date.now()),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
  try {
    opts.sink.processEvent(event);
  } catch (err) {
    opts.logger.error('audit sink failed', { auditID: event.auditID, err });
  }
}

function auditUserInfo(user: UserInfo): AuditUserInfo {
  const extra = user.extra !== undefined && Object.keys(user.extra).length > 0 ? { extra: user.extra } : {};
  return { username: user.name, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups, ...extra };
}

function objectRef(req: APIRequest): NonNullable<AuditEvent['objectRef']> {
  const i = req.info;
  const ref: Record<string, string> = {};
  if (i.resource) ref.resource = i.resource;
  if (i.namespace) ref.namespace = i.namespace;
  if (i.name) ref.name = i.name;
  ref.apiGroup = i.apiGroup;
  if (i.apiVersion) ref.apiVersion = i.apiVersion;
  if (i.subresource) ref.subresource = i.subresource;
  return ref;
}

function responseStatus(code: number, stage: AuditStage): NonNullable<AuditEvent['responseStatus']> {
  if (stage === 'Panic') return { metadata: {}, code, status: 'Failure', message: 'This request caused apiserver to panic. Look in the logs for details.', reason: 'InternalError' };
  return { metadata: {}, code };
}

/** utilnet.SourceIPs: X-Forwarded-For entries, X-Real-Ip, then the peer address, without duplicates. */
function sourceIPs(req: APIRequest): string[] {
  const ips: string[] = [];
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded === 'string') for (const ip of forwarded.split(',')) if (ip.trim() !== '') ips.push(ip.trim());
  const real = req.headers['x-real-ip'];
  if (typeof real === 'string' && real.trim() !== '') ips.push(real.trim());
  const remote = req.raw.socket?.remoteAddress;
  if (remote) ips.push(remote.startsWith('::ffff:') ? remote.slice(7) : remote);
  return [...new Set(ips)];
}

function microTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  const micros = String(Math.floor((ms % 1) * 1000)).padStart(3, '0');
  return `${iso.slice(0, -1)}${micros}Z`;
}
