import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatusError } from '../errors/index.js';
import { decodeYAMLBody } from './decode.js';
import { decodeYAMLBodyOffThread } from './yaml-pool.js';

const bytes = (s: string): Buffer => Buffer.from(s);

test('decodeYAMLBodyOffThread answers as decodeYAMLBody: value, duplicates, __proto__ keys as data', async () => {
  const body = bytes('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n  name: b\n__proto__:\n  isAdmin: true\nconstructor: x\n');
  const off = await decodeYAMLBodyOffThread(body, { kind: 'Namespace' });
  assert.deepEqual(off, decodeYAMLBody(body, { kind: 'Namespace' }));
  assert.ok(Object.prototype.hasOwnProperty.call(off.value, '__proto__'));
  assert.equal(Object.getPrototypeOf(off.value), Object.prototype);
  assert.equal(({} as Record<string, unknown>)['isAdmin'], undefined);
});

test('decoder errors come back as the same StatusError', async () => {
  for (const body of ['a: !!binary "%%%"\n', 'a: [1\n', 'kind: 5\n']) {
    const expected = (() => {
      try {
        decodeYAMLBody(bytes(body), { kind: 'Namespace' });
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    assert.ok(expected instanceof StatusError, body);
    await assert.rejects(decodeYAMLBodyOffThread(bytes(body), { kind: 'Namespace' }), (err: unknown) => {
      assert.ok(err instanceof StatusError);
      assert.deepEqual(err.status, expected.status);
      return true;
    });
  }
});

test('an aborted decode rejects with the signal reason and the pool keeps decoding', async () => {
  const lines = ['junk:'];
  for (let i = 0; i < 20_000; i++) lines.push(`  k${i}: v${i}`);
  const ac = new AbortController();
  const pending = decodeYAMLBodyOffThread(bytes(lines.join('\n')), {}, ac.signal);
  const reason = new Error('request timed out');
  ac.abort(reason);
  await assert.rejects(pending, (err) => err === reason);
  await assert.rejects(decodeYAMLBodyOffThread(bytes('a: 1'), {}, ac.signal), (err) => err === reason);
  const after = await decodeYAMLBodyOffThread(bytes('a: 1\n'), {});
  assert.deepEqual(after.value, { a: 1 });
});
