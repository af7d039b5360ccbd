import type { Environment } from '@marcbachmann/cel-js';
import type { CelEquatable } from '../equality.js';
import { celError, define } from './define.js';
import { escapedPath, hostname, parseRequestURI, parseURL, port, query, urlString, type GoURL } from './gourl.js';

/**
 * Kubernetes' URL library (k8s.io/apiserver/pkg/cel/library/urls.go): url() and isURL() accept
 * an absolute URI or an absolute path (Go's url.ParseRequestURI); the accessors return the
 * parts as Go's url.URL does.
 */
export class URLValue implements CelEquatable {
  constructor(readonly url: GoURL) {}

  equalsCel(other: unknown): boolean {
    return other instanceof URLValue && urlString(this.url) === urlString(other.url);
  }
}

const URL_TYPE = 'kubernetes.URL';

export function registerURLs(env: Environment): void {
  env.registerType(URL_TYPE, URLValue);
  env.registerOperator(`${URL_TYPE} == ${URL_TYPE}`, (a: URLValue, b: URLValue) => a.equalsCel(b));
  define(env, `url(string): ${URL_TYPE}`, (s: string) => {
    try {
      parseRequestURI(s);
      return new URLValue(parseURL(s));
    } catch (e) {
      throw celError(`URL parse error during conversion from string: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  define(env, 'isURL(string): bool', (s: string) => {
    try {
      parseRequestURI(s);
      return true;
    } catch {
      return false;
    }
  });
  define(env, `${URL_TYPE}.getScheme(): string`, (u: URLValue) => u.url.scheme);
  define(env, `${URL_TYPE}.getHost(): string`, (u: URLValue) => u.url.host);
  define(env, `${URL_TYPE}.getHostname(): string`, (u: URLValue) => hostname(u.url));
  define(env, `${URL_TYPE}.getPort(): string`, (u: URLValue) => port(u.url));
  define(env, `${URL_TYPE}.getEscapedPath(): string`, (u: URLValue) => escapedPath(u.url));
  define(env, `${URL_TYPE}.getQuery(): map<string, list<string>>`, (u: URLValue) => query(u.url));
}
