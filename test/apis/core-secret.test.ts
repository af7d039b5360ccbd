// core/v1 Secret: kube's pkg/apis/core/validation TestValidateSecret*, TestValidateSecretUpdate
// and the stringData cases of pkg/registry/core/secret, by name. Validation of the type-specific
// keys calls the strategy (kube's tests call ValidateSecret); the metadata cases (names and
// namespaces, which kube's ValidateObjectMeta covers) and stringData go through the generic
// store on SQLite with the generated core group, where this repository validates metadata.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { coreGroup } from '../../generated/registry/core.js';
import { setSecretDefaults } from '../../apis/core/v1/defaults.js';
import { SecretStrategy } from '../../apis/core/v1/strategy.js';
import { goUnmarshalMapError, MAX_SECRET_SIZE } from '../../apis/core/v1/secret-validation.js';
import type { Secret } from '../../apis/core/v1/types.js';
import { StatusError } from '../../runtime/apimachinery/errors/index.js';
import { formatFieldError } from '../../runtime/apimachinery/validation/field.js';
import { newTableConvertor, type TableSource } from '../../runtime/endpoints/table/convertor.js';
import { tablePrinterOf } from '../../runtime/endpoints/table/printer.js';
import type { KubeObject } from '../../runtime/registry/rest.js';
import { allow, allowBoth, ctx, listOpts, newEnv, put, write, type Env } from '../registry/helpers.js';

const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64');
const validSecret = (): Secret => ({ metadata: { name: 'foo', namespace: 'bar' }, data: { 'data-1': b64('bar') } });
const asObject = (s: Secret): KubeObject => ({ apiVersion: 'v1', kind: 'Secret', ...s }) as KubeObject;
const messages = (s: Secret): string[] => SecretStrategy.validate(s).map(formatFieldError);

/** The 422 causes of a create through the store, or [] when it was created. */
async function createCauses(env: Env, s: Secret): Promise<string[]> {
  const { main } = await env.storages(coreGroup, 'Secret');
  try {
    await main.create(ctx(s.metadata?.namespace ?? ''), asObject(structuredClone(s)), allow, { dryRun: true, fieldManager: 'test' });
    return [];
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    assert.equal(e.code, 422, e.message);
    return (e.status.details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`);
  }
}

describe('core/v1 Secret', () => {
  let env: Env;
  before(async () => {
    env = await newEnv();
  });
  after(async () => {
    await env.close();
  });

  test('TestValidateSecret', async () => {
    const withData = (k: string, v: string) => ({ ...validSecret(), data: { ...validSecret().data, [k]: b64(v) } });
    const token = (annotations: Record<string, string> | undefined): Secret => ({
      metadata: { name: 'foo', namespace: 'bar', ...(annotations === undefined ? {} : { annotations }) },
      type: 'kubernetes.io/service-account-token',
      data: { 'data-1': b64('bar') },
    });
    const cases: Record<string, [Secret, boolean]> = {
      valid: [validSecret(), true],
      'empty name': [{ ...validSecret(), metadata: { name: '', namespace: 'bar' } }, false],
      'invalid name': [{ ...validSecret(), metadata: { name: 'NoUppercaseOrSpecialCharsLike=Equals', namespace: 'bar' } }, false],
      'empty namespace': [{ ...validSecret(), metadata: { name: 'foo', namespace: '' } }, false],
      'invalid namespace': [{ ...validSecret(), metadata: { name: 'foo', namespace: 'NoUppercaseOrSpecialCharsLike=Equals' } }, false],
      'over max size': [{ ...validSecret(), data: { over: b64(Buffer.alloc(MAX_SECRET_SIZE + 1)) } }, false],
      'invalid key': [withData('a*b', 'whoops'), false],
      'valid service-account-token secret': [token({ 'kubernetes.io/service-account.name': 'foo' }), true],
      'empty service-account-token annotation': [token({ 'kubernetes.io/service-account.name': '' }), false],
      'missing service-account-token annotation': [token({}), false],
      'missing service-account-token annotations': [token(undefined), false],
      'leading dot key': [withData('.key', 'bar'), true],
      'dot key': [withData('.', 'bar'), false],
      'double dot key': [withData('..', 'bar'), false],
    };
    for (const [name, [secret, valid]] of Object.entries(cases)) {
      const causes = await createCauses(env, secret);
      assert.equal(causes.length === 0, valid, `${name}: ${causes.join('; ')}`);
    }
    assert.deepEqual(messages(cases['over max size']![0]), ['data: Too long: may not be more than 1048576 bytes']);
    assert.deepEqual(messages(cases['dot key']![0]), [`data[.]: Invalid value: ".": must not be '.'`]);
    assert.deepEqual(messages(withData('..x', 'bar')), [`data[..x]: Invalid value: "..x": must not start with '..'`]);
    assert.deepEqual(messages(cases['missing service-account-token annotations']![0]), ['metadata.annotations[kubernetes.io/service-account.name]: Required value']);
  });

  test('TestValidateDockerConfigSecret', () => {
    const dockercfg = (data: Record<string, string>): Secret => ({ metadata: { name: 'foo', namespace: 'bar' }, type: 'kubernetes.io/dockercfg', data });
    const dockerconfigjson = (data: Record<string, string>): Secret => ({ metadata: { name: 'foo', namespace: 'bar' }, type: 'kubernetes.io/dockerconfigjson', data });
    const cfg = b64(JSON.stringify({ 'https://index.docker.io/v1/': { auth: 'Zm9vOmJhcg==', email: 'foo@example.com' } }));
    assert.deepEqual(messages(dockercfg({ '.dockercfg': cfg })), [], 'valid dockercfg');
    assert.deepEqual(messages(dockercfg({})), ['data[.dockercfg]: Required value'], 'missing dockercfg');
    assert.deepEqual(messages(dockercfg({ '.dockercfg': b64('bad') })), [`data[.dockercfg]: Invalid value: "<secret contents redacted>": invalid character 'b' looking for beginning of value`]);
    assert.deepEqual(messages(dockerconfigjson({ '.dockerconfigjson': b64(JSON.stringify({ auths: {} })) })), [], 'valid dockerconfigjson');
    assert.deepEqual(messages(dockerconfigjson({})), ['data[.dockerconfigjson]: Required value']);
    assert.deepEqual(messages(dockerconfigjson({ '.dockerconfigjson': b64('') })), [`data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": unexpected end of JSON input`]);
    assert.equal(goUnmarshalMapError(Buffer.from('[1]')), 'json: cannot unmarshal array into Go value of type map[string]interface {}');
    assert.equal(goUnmarshalMapError(Buffer.from('null')), undefined);
  });

  test('TestValidateBasicAuthSecret', () => {
    const basic = (data: Record<string, string>): Secret => ({ metadata: { name: 'foo', namespace: 'bar' }, type: 'kubernetes.io/basic-auth', data });
    assert.deepEqual(messages(basic({ username: b64('user'), password: b64('pw') })), [], 'valid');
    assert.deepEqual(messages(basic({ username: b64('') })), [], 'empty username is present');
    assert.deepEqual(messages(basic({ password: b64('pw') })), [], 'password only');
    assert.deepEqual(messages(basic({})), ['data[username]: Required value', 'data[password]: Required value'], 'missing both');
  });

  test('TestValidateSSHAuth', () => {
    const ssh = (data: Record<string, string>): Secret => ({ metadata: { name: 'foo', namespace: 'bar' }, type: 'kubernetes.io/ssh-auth', data });
    assert.deepEqual(messages(ssh({ 'ssh-privatekey': b64('key') })), []);
    assert.deepEqual(messages(ssh({})), ['data[ssh-privatekey]: Required value']);
    assert.deepEqual(messages(ssh({ 'ssh-privatekey': '' })), ['data[ssh-privatekey]: Required value'], 'an empty key is missing');
  });

  test('TLS secrets need tls.crt and tls.key', () => {
    const tls = (data: Record<string, string>): Secret => ({ metadata: { name: 'foo', namespace: 'bar' }, type: 'kubernetes.io/tls', data });
    assert.deepEqual(messages(tls({ 'tls.crt': b64('c'), 'tls.key': b64('k') })), []);
    assert.deepEqual(messages(tls({})), ['data[tls.crt]: Required value', 'data[tls.key]: Required value']);
  });

  test('TestValidateSecretUpdate', () => {
    const immutable = (data: Record<string, string>, flag?: boolean): Secret => ({ ...validSecret(), type: 'Opaque', data, ...(flag === undefined ? {} : { immutable: flag }) });
    const old = immutable({ 'data-1': b64('bar') }, true);
    const update = (s: Secret, o: Secret) => SecretStrategy.validateUpdate(s, o).map(formatFieldError);
    assert.deepEqual(update(immutable({ 'data-1': b64('bar') }, true), old), [], 'unchanged immutable');
    assert.deepEqual(update(immutable({ 'data-1': b64('baz') }, true), old), ['data: Forbidden: field is immutable when `immutable` is set'], 'changed data');
    assert.deepEqual(update(immutable({ 'data-1': b64('bar') }), old), ['immutable: Forbidden: field is immutable when `immutable` is set'], 'unset immutable');
    assert.deepEqual(update(immutable({ 'data-1': b64('bar') }, false), old), ['immutable: Forbidden: field is immutable when `immutable` is set'], 'immutable false');
    assert.deepEqual(update(immutable({ 'data-1': b64('baz') }, true), immutable({ 'data-1': b64('bar') })), [], 'making a mutable secret immutable may change data');
    assert.deepEqual(update({ ...validSecret(), type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } }, { ...validSecret(), type: 'Opaque' }), [
      'type: Invalid value: "kubernetes.io/tls": field is immutable',
    ]);
  });

  test('defaults: an empty type is Opaque; stringData is merged into data and dropped (SetDefaults_Secret, Convert_v1_Secret_To_core_Secret)', () => {
    const s: Secret = { metadata: { name: 'foo' }, data: { a: b64('old'), b: b64('keep') }, stringData: { a: 'new', c: 'added', ['__proto__']: 'data' } };
    setSecretDefaults(s);
    assert.equal(s.type, 'Opaque');
    assert.equal(s.stringData, undefined);
    assert.deepEqual(Object.keys(s.data ?? {}).sort(), ['__proto__', 'a', 'b', 'c']);
    assert.equal(Buffer.from(s.data?.['a'] ?? '', 'base64').toString(), 'new', 'stringData wins over data');
    assert.equal(Buffer.from(Object.getOwnPropertyDescriptor(s.data, '__proto__')?.value as string, 'base64').toString(), 'data');
    const typed: Secret = { type: 'kubernetes.io/tls' };
    setSecretDefaults(typed);
    assert.equal(typed.type, 'kubernetes.io/tls');
  });

  test('stringData through the store: merged on create and update, never stored; the type field selects', async () => {
    const { main } = await env.storages(coreGroup, 'Secret');
    const created = await main.create(ctx('ns'), asObject({ metadata: { name: 's1', namespace: 'ns' }, type: 'Opaque', stringData: { user: 'admin' } }), allow, write);
    assert.equal(created['stringData'], undefined);
    assert.deepEqual(created['data'], { user: b64('admin') });
    const updated = await main.update(ctx('ns'), 's1', put({ ...created, stringData: { user: 'root', extra: 'x' } }), allowBoth, { ...write, forceAllowCreate: false });
    assert.equal(updated.object['stringData'], undefined);
    assert.deepEqual(updated.object['data'], { user: b64('root'), extra: b64('x') });
    const raw = await (await env.raw('', 'secrets')).get('/secrets/ns/s1');
    assert.equal((raw as Record<string, unknown> | undefined)?.['stringData'], undefined, 'never stored');
    await main.create(ctx('ns'), asObject({ metadata: { name: 's2', namespace: 'ns' }, type: 'kubernetes.io/basic-auth', data: { username: b64('u') } }), allow, write);
    const basic = await main.list(ctx('ns'), listOpts({ field: 'type=kubernetes.io/basic-auth' }));
    assert.deepEqual(
      basic.items.map((i) => i.metadata?.name),
      ['s2'],
    );
  });

  test("kube's table: NAME TYPE DATA AGE", () => {
    const resource = coreGroup.versions[0]!.resources.find((r) => r.kind === 'Secret')!;
    assert.deepEqual(resource.shortNames, [], 'kube declares no short name for secrets');
    const convertor = newTableConvertor(resource.printerColumns, () => Date.parse('2024-05-01T10:01:00Z'), tablePrinterOf(resource));
    const source = { metadata: { name: 'foo', creationTimestamp: '2024-05-01T10:00:00Z' }, type: 'Opaque', data: { a: 'YQ==', b: 'Yg==' } } as TableSource;
    const table = convertor.convertToTable(source, { noHeaders: false, isList: false });
    assert.deepEqual(
      table.columnDefinitions?.map((c) => c.name),
      ['Name', 'Type', 'Data', 'Age'],
    );
    assert.deepEqual(table.rows[0]?.cells, ['foo', 'Opaque', 2, '60s']);
  });
});
