// What a replica may answer while etcd does not answer it (README, "When etcd stops answering"),
// as one short name per answer, or an assertion error naming what was not kube's answer.
import assert from 'node:assert/strict';
import type { RawResponse } from '../../https.js';

export type Op = 'create' | 'update' | 'get' | 'list' | 'list-rv0';

/**
 * '2xx'; 'ServerTimeout' (500, Retry-After: 2: a read, or a write that never left); 'uncertain'
 * (500, empty reason, the etcd client's error, no Retry-After: a write that may have committed);
 * 'Timeout' (504 at the request deadline); 'Conflict'/'NotFound' for what the load itself races.
 */
export type Answer = '2xx' | 'ServerTimeout' | 'uncertain' | 'Timeout' | 'Conflict' | 'NotFound';

export function classify(op: Op, r: RawResponse): Answer {
  if (r.status >= 200 && r.status < 300) return '2xx';
  let s: { code?: number; reason?: string; message?: string };
  try {
    s = JSON.parse(r.text) as typeof s;
  } catch {
    assert.fail(`${op}: ${r.status} with a body that is not a Status: ${r.text.slice(0, 300)}`);
  }
  assert.equal(s.code, r.status, r.text);
  const write = op === 'create' || op === 'update';
  if (r.status === 504) {
    assert.equal(s.reason, 'Timeout', r.text);
    assert.equal(r.headers['retry-after'], undefined, `no Retry-After on the finisher's timeout: ${r.text}`);
    return 'Timeout';
  }
  if (r.status === 409 && op === 'update' && s.reason === 'Conflict') return 'Conflict';
  if (r.status === 404 && op === 'get' && s.reason === 'NotFound') return 'NotFound';
  assert.equal(r.status, 500, `${op}: ${r.text}`);
  if (s.reason === 'ServerTimeout') {
    assert.equal(r.headers['retry-after'], '2', `Retry-After on a ServerTimeout: ${r.text}`);
    assert.match(String(s.message), /^The (create|update|get|list) operation against configmaps could not be completed at this time, please try again\.$/, r.text);
    return 'ServerTimeout';
  }
  assert.ok(write, `${op}: a read answered ${r.text}`);
  assert.equal(s.reason ?? '', '', r.text);
  assert.match(String(s.message), /^(context deadline exceeded|rpc error: code = (Unavailable|Canceled) desc = .+)$/, r.text);
  assert.equal(r.headers['retry-after'], undefined, `no Retry-After: the ${op} may have committed: ${r.text}`);
  return 'uncertain';
}
