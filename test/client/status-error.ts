// The Status error a client call is expected to reject with, for assertions on its Status.
import assert from 'node:assert/strict';
import { StatusError } from '../../runtime/apimachinery/errors/index.js';

/** Awaits `p`, which must reject with a StatusError; returns it. */
export async function statusError(p: Promise<unknown>): Promise<StatusError> {
  const err = await p.then(
    () => assert.fail('expected the request to fail'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof StatusError, `expected a StatusError, got ${String(err)}`);
  return err;
}
