/** sigs.k8s.io/structured-merge-diff fieldpath/path_test.go (+ MakePath's errors). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { comparePaths, keyByFields, makePath, pathEquals, pathString, type Path } from '../../../runtime/apimachinery/structuredmerge/fieldpath/index.js';
import { _V } from './helpers.js';

describe('TestPathString', () => {
  const table: Array<{ name: string; fp: Path; expect: string }> = [
    { name: 'basic1', fp: makePath('foo', 1), expect: '.foo[1]' },
    { name: 'basic2', fp: makePath('foo', 'bar', 1, 'baz'), expect: '.foo.bar[1].baz' },
    { name: 'associative-list-ref', fp: makePath('foo', keyByFields('a', 'b', 'c', 1, 'd', 1.5, 'e', true)), expect: '.foo[a="b",c=1,d=1.5,e=true]' },
    { name: 'sets', fp: makePath('foo', _V('b'), _V(5), _V(false), _V(3.14159)), expect: '.foo[="b"][=5][=false][=3.14159]' },
    { name: 'simple field', fp: makePath('spec'), expect: '.spec' },
    { name: 'app container image', fp: makePath('spec', 'apps', keyByFields('name', 'app-🚀'), 'container', 'image'), expect: '.spec.apps[name="app-🚀"].container.image' },
    {
      name: 'app port',
      fp: makePath('spec', 'apps', keyByFields('name', 'app-💻'), 'container', 'ports', keyByFields('name', 'port-🔑'), 'containerPort'),
      expect: '.spec.apps[name="app-💻"].container.ports[name="port-🔑"].containerPort',
    },
    { name: 'field with space', fp: makePath('spec', 'field with space'), expect: '.spec.field with space' },
    { name: 'value with space', fp: makePath('spec', 'apps', _V('app with space'), 'container', 'image'), expect: '.spec.apps[="app with space"].container.image' },
    { name: 'value with quotes', fp: makePath('spec', 'apps', _V('app with "quotes"'), 'container', 'image'), expect: '.spec.apps[="app with \\"quotes\\""].container.image' },
    { name: 'value with unicode', fp: makePath('spec', 'apps', _V('app-with-unicøde'), 'container', 'image'), expect: '.spec.apps[="app-with-unicøde"].container.image' },
  ];
  for (const tt of table) {
    test(tt.name, () => assert.equal(pathString(tt.fp), tt.expect));
  }
});

describe('path printing as Go prints values', () => {
  test('floats use fmt %v, strings %q', () => {
    assert.equal(pathString(makePath(_V(1234567.5), _V(0.00001), _V(123456.5), _V(-2.5e-7))), '[=1.2345675e+06][=1e-05][=123456.5][=-2.5e-07]');
    assert.equal(pathString(makePath(_V('tab\there'), _V('nul\u0000'), _V('bell\u0007'), _V('\u2028'))), '[="tab\\there"][="nul\\x00"][="bell\\a"][="\\u2028"]');
    assert.equal(pathString(makePath(_V(null), _V([1, 'a']), _V({ b: 1, a: 'x' }))), '[=null][=[1,"a"]][=a="x"b=1]');
  });
});

describe('MakePath', () => {
  test('an empty key is refused with SMD wording', () => {
    assert.throws(() => makePath('a', []), { message: 'associative list key type path elements must have at least one key (got zero)' });
  });
  test('a part that is no path element is refused', () => {
    assert.throws(() => makePath(1.5), /unable to make 1.5 into a path element/);
    assert.throws(() => makePath({} as never), /unable to make \{\} into a path element/);
  });
  test('compare and equals', () => {
    assert.ok(comparePaths(makePath('a'), makePath('a', 'b')) < 0);
    assert.ok(comparePaths(makePath('b'), makePath('a', 'b')) > 0);
    assert.equal(comparePaths(makePath('a', 1), makePath('a', 1)), 0);
    assert.ok(pathEquals(makePath('a', keyByFields('x', 1)), makePath('a', keyByFields('x', 1))));
    assert.ok(!pathEquals(makePath('a', keyByFields('x', 1)), makePath('a', keyByFields('x', 2))));
  });
});
