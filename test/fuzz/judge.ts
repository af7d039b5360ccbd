// Checks one answer against what its case accepts; returns why it is wrong, or undefined.
import { asStatus, type RawResponse, type StatusBody } from '../integration/https.js';
import type { Expect, FuzzCase } from './cases.js';

const describe = (e: Expect): string => (e.code === 'success' ? '2xx' : e.code === 'plain404' ? 'plain 404 page not found' : `${e.code} ${e.reason}`);

function statusOf(res: RawResponse): StatusBody | Error {
  try {
    return asStatus(res.text);
  } catch (e) {
    return e as Error;
  }
}

/** The body of a 2xx: a JSON object, or (watch) newline-separated JSON events. */
function successBody(res: RawResponse, watch: boolean): unknown {
  if (watch)
    return res.text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as unknown);
  return JSON.parse(res.text) as unknown;
}

export function judge(fc: FuzzCase, method: string, path: string, expect: readonly Expect[], res: RawResponse | Error): string | undefined {
  if (fc.answer === 'parser') {
    if (res instanceof Error) return /ECONNRESET|EPIPE|socket hang up/.test(res.message) ? undefined : `transport error ${res.message}`;
    if (res.status === 431 || res.status === 400) return undefined;
    return res.status >= 400 && res.status < 500 && !(statusOf(res) instanceof Error) ? undefined : `got ${res.status}, want 431 from the HTTP parser or a 4xx Status`;
  }
  if (res instanceof Error) return `transport error: ${res.message}`;
  const want = expect.map(describe).join(' or ');
  // A 5xx is wrong unless kube answers exactly that (an apply its type converter refuses).
  if (res.status >= 500 && !expect.some((e) => e.code === res.status)) return `5xx: got ${res.status} ${res.text.slice(0, 300)}; want ${want}`;
  if (res.status >= 200 && res.status < 300) {
    const ok = expect.find((e): e is Extract<Expect, { code: 'success' }> => e.code === 'success');
    if (!ok) return `got ${res.status} ${res.text.slice(0, 200)}; want ${want}`;
    if (method === 'HEAD') return undefined;
    let body: unknown;
    try {
      body = successBody(res, /[?&]watch=(true|1)(&|$)/.test(path));
    } catch (e) {
      return `got ${res.status} with a body that is not JSON (${(e as Error).message}): ${res.text.slice(0, 200)}`;
    }
    return ok.check?.(body);
  }
  if (res.status === 404 && expect.some((e) => e.code === 'plain404') && res.text.trim() === '404 page not found') return undefined;
  if (method === 'HEAD') return expect.some((e) => e.code === res.status) ? undefined : `got ${res.status}, want ${want}`;
  const st = statusOf(res);
  if (st instanceof Error) return `got ${res.status} without a Status body (${st.message}); want ${want}`;
  if (st.code !== res.status) return `Status.code ${st.code} differs from HTTP ${res.status}`;
  if (st.status !== 'Failure') return `Status.status ${st.status}`;
  if (!expect.some((e) => e.code === res.status && 'reason' in e && e.reason === (st.reason ?? ''))) return `got ${res.status} ${st.reason ?? ''} "${(st.message ?? '').slice(0, 200)}"; want ${want}`;
  return undefined;
}
