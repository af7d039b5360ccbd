import type { APIRequest } from '../apimachinery/request/http.js';

/**
 * bearertoken.authenticator's reading of a request: the token of `Authorization: Bearer <token>`
 * (scheme case-insensitive, surrounding space trimmed). Undefined when there is no such header,
 * another scheme, or an empty token: the request carries no bearer credential at all.
 */
export function bearerToken(req: APIRequest): string | undefined {
  const auth = (req.headers.authorization ?? '').trim();
  if (auth === '') return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  const token = parts[1]!;
  return token === '' ? undefined : token;
}
