// Ported from sigs.k8s.io/structured-merge-diff merge/real_test.go (BenchmarkOperations): every
// operation sequence of the benchmark on real Kubernetes objects and schemas, run once; where Go
// only times them, here the live object must end as the object every operation wrote.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { benchWithConverter, dummyConverter, SameVersionParser } from '../fixture/index.js';
import { benches, operations, read } from './real.js';

describe('BenchmarkOperations', () => {
  for (const bench of benches) {
    describe(bench.name, () => {
      const obj = read(bench.filename);
      for (const tc of operations(obj)) {
        test(tc.name, async () => {
          const parser = new SameVersionParser(bench.parseType);
          const state = await benchWithConverter({ ops: tc.ops, returnInputOnNoop: tc.returnInputOnNoop }, parser, dummyConverter);
          assert.equal(await state.compareLive(obj, 'v1'), '');
          assert.ok(state.managers.size > 0);
        });
      }
    });
  }
});
