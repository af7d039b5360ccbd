import { parse } from 'csv-parse/sync';
import type { UserInfo } from '../apimachinery/request/types.js';
import type { Authenticator } from './authenticator.js';
import { bearerToken } from './bearertoken.js';

/** Static bearer tokens: token → the user it names. */
export type StaticTokens = ReadonlyMap<string, UserInfo>;

/**
 * tokenfile.NewCSV: parses a --token-auth-file, one `token,user,uid[,"group1,group2"]` record a
 * line (CSV, so a group list with commas is quoted). Throws on a record with fewer than three
 * columns or malformed CSV; a record with an empty token is skipped; a repeated token takes
 * the later record.
 */
export function parseTokenFile(content: string, source: string): StaticTokens {
  let records: string[][];
  try {
    records = parse(content, { relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (err) {
    throw new Error(`token file '${source}': ${(err as Error).message}`, { cause: err });
  }
  const tokens = new Map<string, UserInfo>();
  for (const record of records) {
    const [token, name, uid, groups] = record;
    if (token === undefined || name === undefined || uid === undefined) {
      throw new Error(`token file '${source}' must have at least 3 columns (token, user name, user uid), found ${record.length}`);
    }
    if (token === '') continue;
    tokens.set(token, { name, uid, groups: groups === undefined ? [] : groups.split(',') });
  }
  return tokens;
}

/**
 * bearertoken.New over a static token map: `Authorization: Bearer <token>` names the token's
 * user. No bearer credential: not this authenticator's. A bearer token it does not know is an
 * error (`invalid bearer token`), so the request is refused rather than served as anonymous.
 */
export function tokenFileAuthenticator(tokens: StaticTokens): Authenticator {
  return {
    async authenticate(req) {
      const token = bearerToken(req);
      if (token === undefined) return undefined;
      const user = tokens.get(token);
      if (user === undefined) throw new Error('invalid bearer token');
      return { user };
    },
  };
}
