import { newPathNotFound } from '../apimachinery/errors/index.js';
import type { APIRequest, APIResponse, Handler } from '../apimachinery/request/http.js';

/**
 * PathRecorderMux (k8s.io/apiserver/pkg/server/mux): exact-path and prefix handlers that can be
 * added and removed while serving. Every change builds a new immutable routing table and swaps
 * it in whole, so a request sees one consistent table from start to end and never a half-made
 * change; nothing here is tied to fastify's frozen routes.
 *
 * Matching: an exact path wins; otherwise the longest registered prefix that the path starts
 * with; otherwise the not-found handler (the delegate of the server owning this mux).
 */
export class PathRecorderMux {
  private table: RoutingTable = { exact: new Map(), prefixes: [] };
  private notFound: Handler;

  /** @param name identifies the owning server in error messages; notFound defaults to pageNotFound. */
  constructor(
    readonly name: string,
    notFound?: Handler,
  ) {
    this.notFound = notFound ?? pageNotFound;
  }

  /** Registers `path` for exactly that path. Throws if the path is already registered, unless `replace`. */
  handle(path: string, handler: Handler, opts: RegisterOptions = {}): void {
    this.mutate((t) => {
      if (t.exact.has(path) && opts.replace !== true) throw new Error(`${this.name}: duplicate path registration of ${JSON.stringify(path)}`);
      const exact = new Map(t.exact);
      exact.set(path, { handler, listed: opts.listed ?? true });
      return { exact, prefixes: t.prefixes };
    });
  }

  /**
   * Registers `prefix` (which must end with `/`) for every path below it. The bare path without
   * the slash is not included: register it with handle() if it should answer too.
   */
  handlePrefix(prefix: string, handler: Handler, opts: RegisterOptions = {}): void {
    if (!prefix.endsWith('/')) throw new Error(`${this.name}: prefix ${JSON.stringify(prefix)} must end with "/"`);
    this.mutate((t) => {
      const existing = t.prefixes.findIndex((p) => p.prefix === prefix);
      if (existing >= 0 && opts.replace !== true) throw new Error(`${this.name}: duplicate prefix registration of ${JSON.stringify(prefix)}`);
      const prefixes = t.prefixes.filter((p) => p.prefix !== prefix);
      prefixes.push({ prefix, handler, listed: opts.listed ?? true });
      prefixes.sort((a, b) => b.prefix.length - a.prefix.length || (a.prefix < b.prefix ? -1 : 1));
      return { exact: t.exact, prefixes };
    });
  }

  /** Removes the exact and the prefix registration of `path` (either may be absent). */
  unregister(path: string): void {
    this.mutate((t) => {
      if (!t.exact.has(path) && !t.prefixes.some((p) => p.prefix === path)) return t;
      const exact = new Map(t.exact);
      exact.delete(path);
      return { exact, prefixes: t.prefixes.filter((p) => p.prefix !== path) };
    });
  }

  /** The handler for paths nothing matches (kube's NotFoundHandler); takes effect for the next request. */
  setNotFoundHandler(handler: Handler): void {
    this.notFound = handler;
  }

  /** Whether a request for `path` would reach a registered handler. */
  has(path: string): boolean {
    return this.match(this.table, path) !== undefined;
  }

  /**
   * The handler a request for `path` reaches when the prefix registration `except` is left out,
   * or undefined when that is the not-found handler: for a prefix handler that covers only part
   * of its subtree and leaves the rest to whatever else is registered.
   */
  matchExcept(path: string, except: string): Handler | undefined {
    const t = this.table;
    return this.match({ exact: t.exact, prefixes: t.prefixes.filter((p) => p.prefix !== except) }, path);
  }

  /** The listed paths, sorted (what kube serves as the index at `/`). Prefixes are listed without their slash. */
  listedPaths(): string[] {
    const t = this.table;
    const paths = new Set<string>();
    for (const [path, r] of t.exact) if (r.listed) paths.add(path);
    for (const p of t.prefixes) if (p.listed) paths.add(p.prefix.slice(0, -1) || '/');
    return [...paths].sort();
  }

  /** Dispatches a request: the table is read once, so concurrent changes never affect it midway. */
  readonly serve: Handler = (req: APIRequest, res: APIResponse): Promise<void> => {
    const handler = this.match(this.table, req.path) ?? this.notFound;
    return handler(req, res);
  };

  private match(t: RoutingTable, path: string): Handler | undefined {
    const exact = t.exact.get(path);
    if (exact) return exact.handler;
    for (const p of t.prefixes) if (path.startsWith(p.prefix)) return p.handler;
    return undefined;
  }

  private mutate(change: (t: RoutingTable) => RoutingTable): void {
    this.table = change(this.table);
  }
}

export interface RegisterOptions {
  /** Listed in listedPaths() (kube's Handle vs UnlistedHandle); default true. */
  listed?: boolean;
  /** Replace an existing registration of the same path instead of throwing. */
  replace?: boolean;
}

interface Route {
  readonly handler: Handler;
  readonly listed: boolean;
}

interface PrefixRoute extends Route {
  readonly prefix: string;
}

interface RoutingTable {
  readonly exact: ReadonlyMap<string, Route>;
  /** Longest prefix first. */
  readonly prefixes: readonly PrefixRoute[];
}

/**
 * Go's http.NotFound, kube's answer for a path no server of the chain has a handler for (its
 * notfoundhandler at the end of the delegation chain, and PathRecorderMux's default): plain text
 * `404 page not found`, not a Status. Clients make their own NotFound of it (client-go: `the
 * server could not find the requested resource`).
 */
export const pageNotFound: Handler = async (_req, res) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.writeBytes(404, '404 page not found\n', 'text/plain; charset=utf-8');
};

/**
 * What kube answers for a path below the root of one of its go-restful web services (a served
 * group `/apis/<group>/…`, the core `/api/…`, `/version/…`) that no route of it matches: an
 * unknown version, resource or subresource, or a deeper path. The container's ServiceErrorHandler
 * writes NewGenericServerResponse(404): NotFound, `the server could not find the requested
 * resource`, empty details. Register it under the web service's root; longer prefixes win.
 */
export const webServiceNotFound: Handler = async (_req, res) => {
  res.writeError(newPathNotFound());
};
