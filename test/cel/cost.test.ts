import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { JSONSchemaProps } from '../../apis/apiextensions/v1/schema.js';
import { CostLimitExceededError } from '../../runtime/apimachinery/cel/engine.js';
import { evaluate, int, messages, object, str, validator } from './helpers.js';

const BIG = Array.from({ length: 2000 }, (_, i) => i);
const list: JSONSchemaProps = { type: 'array', items: int };

describe('runtime cost', () => {
  test('a cubic rule over a big list stops at the per-call limit, and no further rule runs', () => {
    const schema = object({ items: list, other: { ...str, 'x-kubernetes-validations': [{ rule: 'false', message: 'not reached' }] } }, [
      { rule: 'self.items.all(x, self.items.all(y, self.items.all(z, true)))' },
      { rule: 'false', message: 'not reached either' },
    ]);
    assert.deepEqual(messages(schema, { items: BIG, other: 'x' }), [
      '<nil>: Invalid value: "object": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: self.items.all(x, self.items.all(y, self.items.all(z, true)))',
    ]);
  });

  test("the per-request budget is shared: once spent, validation stops with kube's message", () => {
    // Each item's rule costs about 2000 × 4 units: 10 items fit a budget of 50,000, not 2000 items.
    const item: JSONSchemaProps = { type: 'array', items: int, 'x-kubernetes-validations': [{ rule: 'self.all(x, x >= 0)' }] };
    const schema = object({ rows: { type: 'array', items: item } });
    const { errors, remainingBudget } = validator.validateWithBudget(schema, { rows: Array.from({ length: 20 }, () => BIG) }, undefined, { isResourceRoot: false, costBudget: 50_000 });
    assert.ok(remainingBudget < 0);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.field, /^rows\[\d+\]$/);
    assert.equal(errors[0]!.detail, 'validation failed due to running out of cost budget, no further validation rules will be run');
    const ok = validator.validateWithBudget(schema, { rows: [BIG] }, undefined, { isResourceRoot: false, costBudget: 50_000 });
    assert.deepEqual(ok.errors, []);
    assert.ok(ok.remainingBudget > 0 && ok.remainingBudget < 50_000);
  });

  test('a budget of zero refuses the first rule', () => {
    assert.deepEqual(messages(object({ a: int }, [{ rule: 'true' }]), { a: 1 }, undefined, { costBudget: 0 }), [
      '<nil>: Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run',
    ]);
  });

  test('a messageExpression out of budget stops validation', () => {
    const schema = object({ items: list }, [{ rule: 'false', messageExpression: "self.items.all(x, self.items.all(y, true)) ? 'a' : 'b'" }]);
    assert.deepEqual(messages(schema, { items: BIG }, undefined, { perCallLimit: 10_000 }), [
      '<nil>: Invalid value: "object": no further validation rules will be run due to call cost exceeds limit for messageExpression: "self.items.all(x, self.items.all(y, true)) ? \'a\' : \'b\'"',
    ]);
  });

  test('string and list growth is charged by size: doubling cannot exhaust memory', () => {
    const doubling = Array.from({ length: 40 }, (_, i) => `cel.bind(s${i + 1}, s${i} + s${i}, `).join('');
    const rule = `cel.bind(s0, self.s, ${doubling}size(s40) > 0${')'.repeat(41)}`;
    assert.deepEqual(messages(object({ s: str }, [{ rule }]), { s: 'x'.repeat(1000) }), [
      `<nil>: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${rule}`,
    ]);
  });

  test('the root expression is metered too (the engine hooks every node)', () => {
    assert.throws(() => evaluate('[1, 2, 3].all(x, true)', { limit: 3 }), CostLimitExceededError);
    assert.equal(evaluate('[1, 2, 3].all(x, true)', { limit: 100 }), true);
    assert.throws(() => evaluate("'abc'.matches('b')", { limit: 1 }), CostLimitExceededError);
  });

  test('matches runs on RE2: a pattern that backtracks catastrophically in JavaScript returns', () => {
    assert.equal(evaluate(`'${'a'.repeat(5000)}!'.matches('^(a+)+$')`), false);
  });
});
