import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { emitRegistries } from '../../generator/emit/registry.js';
import { printFile } from '../../generator/print/index.js';
import { scratchProject } from './harness.js';
import { scratchParser } from './scratch-parse.js';

// Typed decoding prints a field's Go type (`json: cannot unmarshal number into Go struct field
// ServiceSpec.spec.type of type v1.ServiceType`). A type alias of apis/ is the named Go type
// `<version>.<Name>` (Go's `type ServiceType string`); its schema stays the inlined scalar, so the
// name reaches the runtime beside the OpenAPI, as the version's `goTypes`.

const project = scratchProject({ withApis: false });
after(() => project.dispose());
const GROUP = 'apis/t';
const DOC = '/**\n * @groupName t.example.com\n */\nexport {};\n';
const { parse } = scratchParser(project, GROUP);

const TYPES = `import type { int32, ObjectMeta, Quantity, Time, TypeMeta, UID } from '../../meta/v1/types.js';

export type Phase = 'Pending' | 'Done';
export type Reason = string;
export type Tags = string[];
/** @goType other.Name */
export type Elsewhere = string;
/** @goType string */
export type Plain = string;
export enum Mode {
  Fast = 'Fast',
  Slow = 'Slow',
}

export interface WidgetSpec {
  phase?: Phase;
  reasons?: Reason[];
  byKey?: Record<string, Reason>;
  tags?: Tags;
  tagsByKey?: Record<string, Tags>;
  elsewhere?: Elsewhere;
  plain?: Plain;
  mode?: Mode;
  nullable?: Phase | null;
  owner?: UID;
  count?: int32;
  when?: Time;
  size?: Quantity;
  name?: string;
}

/**
 * A widget.
 *
 * @genclient
 */
export interface Widget extends TypeMeta {
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
`;

describe('Go type names of type aliases', () => {
  const model = parse({ [`${GROUP}/v1/doc.ts`]: DOC, [`${GROUP}/v1/types.ts`]: TYPES });
  const spec = model.goTypes?.['com.example.t.v1.WidgetSpec'];

  test('an alias of a scalar, a list or an enum is its named Go type; lists and maps of one say so', () => {
    assert.deepEqual(spec, {
      phase: { name: 'v1.Phase' },
      reasons: { items: { name: 'v1.Reason' } },
      byKey: { values: { name: 'v1.Reason' } },
      tags: { name: 'v1.Tags' },
      tagsByKey: { values: { name: 'v1.Tags' } },
      elsewhere: { name: 'other.Name' },
      mode: { name: 'v1.Mode' },
      nullable: { name: 'v1.Phase' },
      owner: { name: 'types.UID' },
    });
  });

  test('types with their own decoders (a format, int-or-string) and `@goType string` are not named; the schema is unchanged', () => {
    for (const field of ['plain', 'count', 'when', 'size', 'name']) assert.equal(spec?.[field], undefined, field);
    const props = model.definitions['com.example.t.v1.WidgetSpec']?.properties;
    assert.deepEqual(props?.['phase'], { type: 'string', enum: ['Pending', 'Done'] });
    assert.deepEqual(props?.['tags'], { type: 'array', items: { type: 'string' } });
  });

  test('ObjectMeta carries its own: uid is types.UID, managedFields[].operation v1.ManagedFieldsOperationType', () => {
    assert.deepEqual(model.goTypes?.['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']?.['uid'], { name: 'types.UID' });
    assert.deepEqual(model.goTypes?.['io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry']?.['operation'], { name: 'v1.ManagedFieldsOperationType' });
  });

  test('one table holds the names, and every version of the registry refers to it', () => {
    const files = emitRegistries(model);
    const table = files.find((f) => f.path === 'generated/registry/go-type-names.ts');
    const registry = files.find((f) => f.path === 'generated/registry/t.ts');
    assert.ok(table && registry);
    const tableText = printFile(table).text;
    assert.match(tableText, /export const goTypeNames = \{\n\s+'com\.example\.t\.v1\.WidgetSpec': \{/);
    assert.match(tableText, /'io\.k8s\.apimachinery\.pkg\.apis\.meta\.v1\.ObjectMeta': \{\n\s+uid: \{\n\s+name: "types\.UID",/);
    const registryText = printFile(registry).text;
    assert.match(registryText, /import \{ goTypeNames \} from '\.\/go-type-names\.js';/);
    assert.match(registryText, /goTypes: goTypeNames,/);
  });
});
