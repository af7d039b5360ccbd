// What a failed @kubernetes/client-node call carries: the HTTP code and the Status body of its
// ApiException (client-node keeps the body as text), for tests that assert kube's errors.
import assert from 'node:assert/strict';
import { ApiException, type V1Status } from '@kubernetes/client-node';

/** Awaits `p`, which must fail with an ApiException; its code and Status. */
export async function statusOf(p: Promise<unknown>): Promise<{ code: number; status: V1Status }> {
  try {
    await p;
  } catch (e) {
    if (!(e instanceof ApiException)) throw e;
    const body: unknown = typeof e.body === 'string' ? JSON.parse(e.body) : e.body;
    return { code: e.code, status: body as V1Status };
  }
  assert.fail('expected the request to fail');
}
