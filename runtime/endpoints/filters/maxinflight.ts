import type { IncomingMessage, ServerResponse } from 'node:http';
import { newTooManyRequests } from '../../apimachinery/errors/index.js';
import type { Filter } from '../../apimachinery/request/http.js';
import { SYSTEM_PRIVILEGED_GROUP } from '../../authentication/authenticator.js';
import type { LongRunningRequestCheck } from './longrunning.js';

export const DEFAULT_MAX_REQUESTS_IN_FLIGHT = 400;
export const DEFAULT_MAX_MUTATING_REQUESTS_IN_FLIGHT = 200;

export type RequestKind = 'mutating' | 'readOnly';

/** Told the number of requests in flight of a kind whenever it changes (apiserver_current_inflight_requests). */
export interface InFlightRecorder {
  setInFlight(kind: RequestKind, count: number): void;
}

/** kube's read-only verbs (get, list, watch) all come as GET or HEAD. */
function kindOfMethod(method: string | undefined): RequestKind {
  return method === 'GET' || method === 'HEAD' ? 'readOnly' : 'mutating';
}

interface Ticket {
  readonly kind: RequestKind;
  released: boolean;
}

/**
 * The requests a server holds, per kind, counted from the moment node parsed their headers (the
 * server's raw `request` event, before any filter, body or routing) until their answer is done,
 * and then until the event loop's next turn.
 *
 * Why not count inside the filter, as kube does: a Go server runs requests in parallel and its
 * count is the requests being worked on; this one runs one at a time, and a read from the watch
 * cache is answered before the next request is even parsed, so a count inside the filter never
 * passes 1 however many requests wait. What waits here is the turn of the event loop: every
 * request parsed in one turn was waiting at the same time as the others of that turn, so
 * releasing answers only at the next turn makes the count the number of requests the server
 * was holding together, which grows with the load exactly as kube's does.
 */
export class RequestsInFlight {
  private readonly tickets = new WeakMap<IncomingMessage, Ticket>();
  private readonly count: Record<RequestKind, number> = { readOnly: 0, mutating: 0 };
  private releasing: Ticket[] = [];
  private releaseScheduled = false;

  constructor(private readonly recorder?: InFlightRecorder) {}

  /** Requests of `kind` held now. */
  inFlight(kind: RequestKind): number {
    return this.count[kind];
  }

  /**
   * Counts a request in; its answer's end (response `close`) counts it out at the next turn.
   * Idempotent per request: the filter calls it for requests no server counted (in-process).
   */
  arrive(raw: IncomingMessage, response: ServerResponse): Ticket {
    const existing = this.tickets.get(raw);
    if (existing !== undefined) return existing;
    const ticket: Ticket = { kind: kindOfMethod(raw.method), released: false };
    this.tickets.set(raw, ticket);
    this.recorder?.setInFlight(ticket.kind, ++this.count[ticket.kind]);
    response.once('close', () => this.releaseNextTurn(ticket));
    return ticket;
  }

  /** Counts a request out now: it is exempt (long-running, a probe, a member of system:masters). */
  release(ticket: Ticket): void {
    if (ticket.released) return;
    ticket.released = true;
    this.recorder?.setInFlight(ticket.kind, --this.count[ticket.kind]);
  }

  private releaseNextTurn(ticket: Ticket): void {
    if (ticket.released) return;
    this.releasing.push(ticket);
    if (this.releaseScheduled) return;
    this.releaseScheduled = true;
    setImmediate(() => {
      this.releaseScheduled = false;
      for (const t of this.releasing.splice(0)) this.release(t);
    });
  }
}

/** Probes are never limited: kube's API Priority and Fairness puts them in the exempt level. */
const EXEMPT_PATH_PREFIXES = ['/healthz', '/livez', '/readyz'];

export interface MaxInFlightOptions {
  /** Read-only (get, list, watch) requests served at once; 0 means unlimited. */
  maxRequestsInFlight: number;
  /** Every other verb; 0 means unlimited. */
  maxMutatingRequestsInFlight: number;
  longRunning: LongRunningRequestCheck;
  /** The server's count (Serving counts each request as node parses it). */
  requestsInFlight: RequestsInFlight;
}

/**
 * WithMaxInFlightLimit: at most so many read-only and so many mutating requests held at once (see
 * RequestsInFlight for what "held" means here); one more gets 429 TooManyRequests `Too many
 * requests, please try again later.` with `Retry-After: 1`. Long-running requests and probes are
 * neither limited nor counted. As kube, a member of system:masters is served even over the limit
 * (without being counted): the super-user and the loopback client always get an answer.
 */
export function withMaxInFlightLimit(opts: MaxInFlightOptions): Filter {
  const limits: Record<RequestKind, number> = { readOnly: opts.maxRequestsInFlight, mutating: opts.maxMutatingRequestsInFlight };
  const counter = opts.requestsInFlight;
  return async (req, res, next) => {
    const ticket = counter.arrive(req.raw, res.raw);
    if (opts.longRunning(req.info) || (!req.info.isResourceRequest && EXEMPT_PATH_PREFIXES.some((p) => req.path.startsWith(p)))) {
      counter.release(ticket);
      return next(req, res);
    }
    const limit = limits[ticket.kind];
    if (limit <= 0 || counter.inFlight(ticket.kind) <= limit) return next(req, res);
    if (req.user?.groups.includes(SYSTEM_PRIVILEGED_GROUP)) {
      counter.release(ticket);
      return next(req, res);
    }
    res.writeError(newTooManyRequests('Too many requests, please try again later.', 1));
  };
}
