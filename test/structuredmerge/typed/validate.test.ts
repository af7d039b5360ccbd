// Port of structured-merge-diff typed/validate_test.go: values that do and do not conform to a schema.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SCHEMA_SCHEMA_YAML } from '../../../runtime/apimachinery/structuredmerge/schema/index.js';
import { Parser } from '../../../runtime/apimachinery/structuredmerge/typed/index.js';
import { associativeListSchema, simplePairSchema, structGrabBagSchema } from './schemas.js';

interface ValidationTestCase {
  readonly name: string;
  readonly rootTypeName: string;
  readonly schema: string;
  readonly validObjects: readonly string[];
  readonly invalidObjects: readonly string[];
  // Valid with allowDuplicates, invalid otherwise.
  readonly duplicatesObjects?: readonly string[];
}

const validationCases: ValidationTestCase[] = [
  {
    name: 'simple pair',
    rootTypeName: 'stringPair',
    schema: simplePairSchema,
    validObjects: [`{"key":"foo","value":1}`, `{"key":"foo","value":{}}`, `{"key":"foo","value":null}`, `{"key":"foo"}`, `{"key":"foo","value":true}`, `{"key":null}`],
    invalidObjects: [`{"key":true,"value":1}`, `{"key":1,"value":{}}`, `{"key":false,"value":null}`, `{"key":[1, 2]}`, `{"key":{"foo":true}}`],
  },
  {
    name: 'struct grab bag',
    rootTypeName: 'myStruct',
    schema: structGrabBagSchema,
    validObjects: [
      `{"numeric":null}`,
      `{"numeric":1}`,
      `{"numeric":3.14159}`,
      `{"string":null}`,
      `{"string":"aoeu"}`,
      `{"bool":null}`,
      `{"bool":true}`,
      `{"bool":false}`,
      `{"setStr":["a","b","c"]}`,
      `{"setBool":[true,false]}`,
      `{"setNumeric":[1,2,3,3.14159]}`,
    ],
    invalidObjects: [
      `{"numeric":["foo"]}`,
      `{"numeric":{"a":1}}`,
      `{"numeric":"foo"}`,
      `{"numeric":true}`,
      `{"string":1}`,
      `{"string":3.5}`,
      `{"string":true}`,
      `{"string":{"a":1}}`,
      `{"string":["foo"]}`,
      `{"bool":1}`,
      `{"bool":3.5}`,
      `{"bool":"aoeu"}`,
      `{"bool":{"a":1}}`,
      `{"bool":["foo"]}`,
      `{"setStr":[1]}`,
      `{"setStr":[true]}`,
      `{"setStr":[1.5]}`,
      `{"setStr":[null]}`,
      `{"setStr":[{}]}`,
      `{"setStr":[[]]}`,
      `{"setBool":[1]}`,
      `{"setBool":[1.5]}`,
      `{"setBool":[null]}`,
      `{"setBool":[{}]}`,
      `{"setBool":[[]]}`,
      `{"setBool":["a"]}`,
      `{"setNumeric":[null]}`,
      `{"setNumeric":[true]}`,
      `{"setNumeric":["a"]}`,
      `{"setNumeric":[[]]}`,
      `{"setNumeric":[{}]}`,
    ],
    duplicatesObjects: [`{"setStr":["a","a"]}`, `{"setBool":[true,false,true]}`, `{"setNumeric":[1,2,3,3.14159,1]}`],
  },
  {
    name: 'associative list',
    rootTypeName: 'myRoot',
    schema: associativeListSchema,
    validObjects: [
      `{"list":[]}`,
      `{"list":[{"key":"a","id":1,"value":{"a":"a"}}]}`,
      `{"list":[{"key":"a","id":1},{"key":"a","id":2},{"key":"b","id":1}]}`,
      `{"atomicList":["a","a","a"]}`,
      `{"list":[{"key":"x","value":{"a":"a"},"bv":true,"nv":3.14}]}`,
    ],
    invalidObjects: [
      `{"key":true,"value":1}`,
      `{"list":{"key":true,"value":1}}`,
      `{"list":true}`,
      `true`,
      `{"list":[{"key":true,"value":1}]}`,
      `{"list":[{"key":[],"value":1}]}`,
      `{"list":[{"key":{},"value":1}]}`,
      `{"list":[{"key":1.5,"value":1}]}`,
      `{"list":[{"key":1,"value":1}]}`,
      `{"list":[{"key":null,"value":1}]}`,
      `{"list":[{},{}]}`,
      `{"list":[{},null]}`,
      `{"list":[[]]}`,
      `{"list":[null]}`,
      `{"list":[{}]}`,
      `{"list":[{"value":{"a":"a"},"bv":true,"nv":3.14}]}`,
      `{"list":[{"key":"a","id":1,"value":{"a":1}}]}`,
      `{"list":[{"key":"a","id":1,"value":{"a":"a"},"bv":"true","nv":3.14}]}`,
      `{"list":[{"key":"a","id":1,"value":{"a":"a"},"bv":true,"nv":false}]}`,
    ],
    duplicatesObjects: [`{"list":[{"key":"a","id":1},{"key":"a","id":1}]}`],
  },
];

/** The error a parse throws (failing the test when there is none); it must say what is wrong, not that the schema is broken. */
function parseError(parse: () => unknown, object: string): Error {
  let err: unknown;
  try {
    parse();
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof Error, `Object should fail:\n${object}`);
  assert.ok(!err.message.includes('invalid atom'), `Error should be useful, but got: ${err.message}\n${object}`);
  return err;
}

describe('TestSchemaValidation', () => {
  for (const tt of validationCases) {
    describe(tt.name, () => {
      const pt = Parser.fromYAML(tt.schema).type(tt.rootTypeName);
      tt.validObjects.forEach((v, i) => {
        test(`${tt.name}-valid-${i}`, () => {
          pt.fromYAML(v);
        });
      });
      tt.invalidObjects.forEach((iv, i) => {
        test(`${tt.name}-invalid-${i}`, () => {
          parseError(() => pt.fromYAML(iv), iv);
        });
      });
      (tt.duplicatesObjects ?? []).forEach((iv, i) => {
        test(`${tt.name}-duplicates-${i}`, () => {
          parseError(() => pt.fromYAML(iv), iv);
          pt.fromYAML(iv, { allowDuplicates: true });
        });
      });
    });
  }
});

test('TestSchemaSchema', () => {
  // The schema of schemas validates itself.
  Parser.fromYAML(SCHEMA_SCHEMA_YAML);
});
