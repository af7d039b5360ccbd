import { FIELD_MANAGER_MAX_LENGTH } from '../validation/objectmeta.js';

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/**
 * The manager a write is recorded under (managerOrUserAgent, apiserver's handlers): the
 * request's fieldManager, else a name derived from the User-Agent. Shared by the server's
 * handlers and the fake clientset so both record the same manager.
 */
export function managerOrUserAgent(fieldManager: string, userAgent: string): string {
  return fieldManager !== '' ? fieldManager : prefixFromUserAgent(userAgent);
}

/**
 * The User-Agent up to its first `/`, without unprintable characters, cut before the first
 * character that would pass the field manager's 128-byte limit (prefixFromUserAgent):
 * `kubectl/v1.32.0 (linux/amd64) kubernetes/abc` → `kubectl`.
 */
export function prefixFromUserAgent(userAgent: string): string {
  let out = '';
  let bytes = 0;
  const slash = userAgent.indexOf('/');
  for (const ch of slash < 0 ? userAgent : userAgent.slice(0, slash)) {
    if (!printable.test(ch)) continue;
    const n = Buffer.byteLength(ch, 'utf8');
    if (bytes + n > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
    bytes += n;
  }
  return out;
}
