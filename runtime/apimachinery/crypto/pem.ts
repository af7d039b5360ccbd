/**
 * Go's encoding/pem.Decode, as crypto/tls.X509KeyPair reads the PEM of a kubernetes.io/tls
 * Secret: the next well-formed block, skipping text and malformed blocks before it.
 */

export interface PEMBlock {
  readonly type: string;
  readonly bytes: Buffer;
}

const PEM_START = '\n-----BEGIN ';
const PEM_END = '\n-----END ';
const PEM_END_OF_LINE = '-----';

/**
 * Malformed `-----BEGIN` lines skipped in one search before giving up. Go's Decode rescans the
 * rest of the input after each one, quadratic in the worst case (a 1 MiB Secret of BEGIN lines);
 * this bound keeps the work on a hostile Secret to at most 64 passes over it. Real PEM never comes near it.
 */
const MAX_SKIPPED_BEGINS = 64;

/**
 * The first PEM block of `data` (bytes as a latin1 string) at or after `from`, and where the
 * search for the next one starts; undefined when there is none.
 */
export function decodePEM(data: string, from = 0): { block: PEMBlock; next: number } | undefined {
  let pos = from;
  for (let attempt = 0; attempt <= MAX_SKIPPED_BEGINS; attempt++) {
    if (data.startsWith(PEM_START.slice(1), pos)) {
      pos += PEM_START.length - 1;
    } else {
      const at = data.indexOf(PEM_START, pos);
      if (at < 0) return undefined;
      pos = at + PEM_START.length;
    }
    const typeLine = getLine(data, pos);
    pos = typeLine.next;
    if (!typeLine.line.endsWith(PEM_END_OF_LINE)) continue;
    const type = typeLine.line.slice(0, -PEM_END_OF_LINE.length);
    const parsed = parseBlock(data, pos, type);
    if (parsed === 'none') return undefined;
    if ('block' in parsed) return parsed;
    pos = parsed.skip;
  }
  return undefined;
}

/**
 * The block whose type line ended at `start`; `skip` when it is malformed (the search goes on
 * from there, after its headers, as Go's does), 'none' when no block can follow.
 */
function parseBlock(data: string, start: number, type: string): { block: PEMBlock; next: number } | { skip: number } | 'none' {
  let rest = start;
  let headers = 0;
  for (;;) {
    if (rest >= data.length) return 'none';
    const { line, next } = getLine(data, rest);
    if (!line.includes(':')) break;
    headers++;
    rest = next;
  }
  let endIndex: number;
  let endTrailerIndex: number;
  // Without headers the END line may follow at once, with no newline before it.
  if (headers === 0 && data.startsWith(PEM_END.slice(1), rest)) {
    endIndex = rest;
    endTrailerIndex = rest + PEM_END.length - 1;
  } else {
    endIndex = data.indexOf(PEM_END, rest);
    if (endIndex < 0) return 'none';
    endTrailerIndex = endIndex + PEM_END.length;
  }
  const trailerLength = type.length + PEM_END_OF_LINE.length;
  const trailer = data.slice(endTrailerIndex, endTrailerIndex + trailerLength);
  if (trailer.length < trailerLength || !trailer.startsWith(type) || !trailer.endsWith(PEM_END_OF_LINE)) return { skip: rest };
  // Only whitespace may follow on the END line.
  const endLine = getLine(data, endTrailerIndex + trailerLength);
  if (endLine.line.length !== 0) return { skip: rest };
  const bytes = decodeStdBase64(data.slice(rest, endIndex).replace(/[ \t]/g, ''));
  if (bytes === undefined) return { skip: rest };
  return { block: { type, bytes }, next: endLine.next };
}

/** The line at `pos` without its newline and trailing spaces, tabs or CRs (Go's getLine), and where the next one starts. */
function getLine(data: string, pos: number): { line: string; next: number } {
  const nl = data.indexOf('\n', pos);
  const end = nl < 0 ? data.length : nl;
  return { line: data.slice(pos, end).replace(/[ \t\r]+$/, ''), next: nl < 0 ? data.length : nl + 1 };
}

/** base64.StdEncoding.Decode: padded standard alphabet; CR and LF are skipped; anything else fails. */
function decodeStdBase64(s: string): Buffer | undefined {
  const clean = s.replace(/[\r\n]/g, '');
  if (clean.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(clean)) return undefined;
  return Buffer.from(clean, 'base64');
}
