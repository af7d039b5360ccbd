/**
 * Go's base64.StdEncoding.Decode, for the error it returns on what a JSON string decodes into a
 * []byte field (Secret data, a caBundle): `illegal base64 data at input byte N`, N counted in
 * bytes of the string, as Go's decoder reports it. Padding is required, CR and LF are skipped
 * anywhere, and the unused bits of the last quantum are not checked (the encoding is not Strict).
 */

const PAD = 0x3d; // '='
const isNewline = (c: number): boolean => c === 0x0a || c === 0x0d;
const inAlphabet = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f;

/** Undefined when `s` decodes; otherwise Go's CorruptInputError text. */
export function goStdBase64Error(s: string): string | undefined {
  const src = Buffer.from(s, 'utf8');
  let si = 0;
  while (si < src.length) {
    const q = decodeQuantum(src, si);
    if (q.corruptAt !== undefined) return `illegal base64 data at input byte ${q.corruptAt}`;
    si = q.si;
  }
  return undefined;
}

/** One quantum of up to four symbols from `si` (base64.decodeQuantum): where the next begins, or where the input is corrupt. */
function decodeQuantum(src: Buffer, start: number): { si: number; corruptAt?: number } {
  let si = start;
  for (let j = 0; j < 4; j++) {
    if (si === src.length) {
      // Input ends inside a quantum: fine at its start, corrupt (padding is required) otherwise.
      return j === 0 ? { si } : { si, corruptAt: si - j };
    }
    const c = src[si]!;
    si++;
    if (inAlphabet(c)) continue;
    if (isNewline(c)) {
      j--;
      continue;
    }
    if (c !== PAD) return { si, corruptAt: si - 1 };
    // Padding ends the input: `==` after two symbols, `=` after three.
    if (j < 2) return { si, corruptAt: si - 1 };
    if (j === 2) {
      while (si < src.length && isNewline(src[si]!)) si++;
      if (si === src.length) return { si, corruptAt: src.length };
      if (src[si] !== PAD) return { si, corruptAt: si - 1 };
      si++;
    }
    while (si < src.length && isNewline(src[si]!)) si++;
    return si < src.length ? { si, corruptAt: si } : { si };
  }
  return { si };
}
