// --encryption-provider-config: EncryptionConfiguration v1 files (YAML and JSON), kube's
// validation wording (validation_encryption.go) and the flag on both server commands.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { apiGroups } from '../../generated/index.js';
import { completeAggregatedOptions, parseAggregatedServerOptions, USAGE as AGGREGATED_USAGE } from '../../runtime/aggregated/options.js';
import { completeOptions, OptionsError, parseServerRunOptions, USAGE as CONTROL_PLANE_USAGE } from '../../runtime/controlplane/options.js';
import { loadEncryptionConfig, parseEncryptionConfiguration } from '../../runtime/server/options/encryption.js';
import { storageConfigFor } from '../../runtime/server/options/storage.js';

const b64 = (n: number): string => randomBytes(n).toString('base64');
const K32 = b64(32);

const dir = mkdtempSync(join(tmpdir(), 'encryption-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
function file(text: string): string {
  const path = join(dir, `config-${files++}.yaml`);
  writeFileSync(path, text);
  return path;
}

/** A v1 EncryptionConfiguration in YAML with the given `resources:` list (indented YAML). */
function yamlConfig(resources: string): string {
  return `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n${resources}`;
}

function errorOf(text: string): string {
  try {
    parseEncryptionConfiguration(text, '/etc/enc.yaml');
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail('expected the configuration to be refused');
}

describe('valid configurations', () => {
  test('YAML with every provider kind, wildcards and several keys', () => {
    const rules = parseEncryptionConfiguration(
      yamlConfig(`  - resources: [services, flunders.wardle.example.com]
    providers:
      - aesgcm:
          keys:
            - name: key2
              secret: ${b64(16)}
            - name: key1
              secret: ${b64(24)}
      - aescbc:
          keys: [{name: cbc, secret: ${K32}}]
      - secretbox:
          keys: [{name: sb, secret: ${K32}}]
      - identity: {}
  - resources: ['*.']
    providers: [{identity: {}}]
  - resources: ['*.apps']
    providers: [{identity: {}}]
`),
      '/etc/enc.yaml',
    );
    assert.deepEqual(rules[0]?.resources, [
      { group: '', resource: 'services' },
      { group: 'wardle.example.com', resource: 'flunders' },
    ]);
    assert.deepEqual(
      rules[0]?.providers.map((p) => (p.type === 'identity' ? 'identity' : `${p.type}:${p.keys.map((k) => `${k.name}/${k.secret.length}`).join(',')}`)),
      ['aesgcm:key2/16,key1/24', 'aescbc:cbc/32', 'secretbox:sb/32', 'identity'],
    );
    assert.deepEqual(rules[1]?.resources, [{ group: '', resource: '*' }]);
    assert.deepEqual(rules[2]?.resources, [{ group: 'apps', resource: '*' }]);
  });

  test('JSON, with unknown fields ignored as kube decodes config files', () => {
    const json = JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'EncryptionConfiguration',
      resources: [{ resources: ['*.*'], providers: [{ secretbox: { keys: [{ name: 'k', secret: K32 }] } }], comment: 'x' }],
    });
    const rules = parseEncryptionConfiguration(json, 'enc.json');
    assert.deepEqual(rules[0]?.resources, [{ group: '*', resource: '*' }]);
  });
});

describe("invalid configurations: kube's field paths and wording", () => {
  const cases: Array<[string, string, string]> = [
    ['no resources', yamlConfig('  []\n'), 'resources: Required value: at least one resources is required'],
    [
      'a rule without resources or providers',
      yamlConfig('  - resources: []\n    providers: []\n'),
      '[resources[0].resources: Required value: at least one resources[0].resources is required, resources[0].providers: Required value: at least one resources[0].providers is required]',
    ],
    [
      'an AES key of the wrong length',
      yamlConfig(`  - resources: [services]\n    providers:\n      - aescbc:\n          keys: [{name: k, secret: ${b64(8)}}]\n`),
      'resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 8, expected one of [16 24 32]',
    ],
    [
      'a secretbox key of 16 bytes',
      yamlConfig(`  - resources: [services]\n    providers:\n      - secretbox:\n          keys: [{name: k, secret: ${b64(16)}}]\n`),
      'resources[0].providers[0].secretbox.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of [32]',
    ],
    [
      'a secret that is not base64',
      yamlConfig('  - resources: [services]\n    providers:\n      - aesgcm:\n          keys: [{name: k, secret: "not base64!"}]\n'),
      'resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded',
    ],
    [
      'a key without name or secret',
      yamlConfig('  - resources: [services]\n    providers:\n      - aesgcm:\n          keys: [{}]\n'),
      '[resources[0].providers[0].aesgcm.keys[0].name: Required value: name is a mandatory field for a key, resources[0].providers[0].aesgcm.keys[0].secret: Required value: secret is a mandatory field for a key]',
    ],
    ['no keys', yamlConfig('  - resources: [services]\n    providers:\n      - aescbc: {keys: []}\n'), 'resources[0].providers[0].aescbc.keys: Required value: at least one keys is required'],
    [
      'two keys of one name',
      yamlConfig(`  - resources: [services]\n    providers:\n      - aesgcm:\n          keys: [{name: k, secret: ${K32}}, {name: k, secret: ${K32}}]\n`),
      'resources[0].providers[0].aesgcm.keys[1].name: Duplicate value: "k"',
    ],
    [
      'an empty provider',
      yamlConfig('  - resources: [services]\n    providers: [{}]\n'),
      'resources[0].providers[0]: Invalid value: {}: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity',
    ],
    [
      'two providers in one element',
      yamlConfig(`  - resources: [services]\n    providers: [{identity: {}, aescbc: {keys: [{name: k, secret: ${K32}}]}}]\n`),
      'more than one provider specified in a single element, should split into different list elements',
    ],
    [
      'a KMS provider',
      yamlConfig('  - resources: [services]\n    providers: [{kms: {apiVersion: v2, name: p, endpoint: "unix:///kms.sock"}}]\n'),
      'resources[0].providers[0].kms: Forbidden: KMS providers are not supported by this server; use aesgcm, aescbc or secretbox',
    ],
    [
      'a bare *',
      yamlConfig('  - resources: ["*"]\n    providers: [{identity: {}}]\n'),
      `resources[0].resources[0]: Invalid value: "*": use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources`,
    ],
    [
      'capital letters',
      yamlConfig('  - resources: [Services]\n    providers: [{identity: {}}]\n'),
      'resources[0].resources[0]: Invalid value: "Services": resource name should not contain capital letters',
    ],
    [
      'a resource across groups',
      yamlConfig('  - resources: ["services.*"]\n    providers: [{identity: {}}]\n'),
      'resources[0].resources[0]: Invalid value: "services.*": encrypting the same resource across groups is not supported',
    ],
    [
      'events.k8s.io',
      yamlConfig('  - resources: ["events.events.k8s.io"]\n    providers: [{identity: {}}]\n'),
      "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file",
    ],
    ['the extensions group', yamlConfig('  - resources: ["deployments.extensions"]\n    providers: [{identity: {}}]\n'), "'extensions' group has been removed and cannot be used for encryption"],
    ['a resource without REST API', yamlConfig('  - resources: [serviceipallocations]\n    providers: [{identity: {}}]\n'), 'resources which do not have REST API/s cannot be encrypted'],
    [
      'a resource twice in one list',
      yamlConfig('  - resources: [services, services]\n    providers: [{identity: {}}]\n'),
      'resources[0].resources: Invalid value: ["services","services"]: the same resource cannot be specified multiple times',
    ],
    [
      'overlapping resources',
      yamlConfig('  - resources: [services, "*."]\n    providers: [{identity: {}}]\n'),
      'resources[0].resources: Invalid value: ["services","*."]: using overlapping resources such as \'secrets\' and \'*.\' in the same resource list is not allowed as they will be masked',
    ],
    [
      'another kind',
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\n',
      'error decoding encryption provider configuration file "/etc/enc.yaml": no kind "AdmissionConfiguration" is registered for version "apiserver.config.k8s.io/v1"',
    ],
    ['no kind', 'apiVersion: apiserver.config.k8s.io/v1\nresources: []\n', `error decoding encryption provider configuration file "/etc/enc.yaml": Object 'Kind' is missing`],
    [
      'resources that is not a list',
      yamlConfig('').replace('resources:\n', 'resources: secrets\n'),
      'json: cannot unmarshal string into Go struct field EncryptionConfiguration.resources of type []v1.ResourceConfiguration',
    ],
    [
      'a secret that is not a string',
      yamlConfig('  - resources: [services]\n    providers: [{aescbc: {keys: [{name: k, secret: 12}]}}]\n'),
      'json: cannot unmarshal number into Go struct field Key.resources.providers.aescbc.keys.secret of type string',
    ],
    ['not YAML', 'kind: [', 'error decoding encryption provider configuration file "/etc/enc.yaml": yaml: line 1:'],
  ];
  for (const [name, text, message] of cases) {
    test(name, () => {
      const got = errorOf(text);
      assert.ok(got.includes(message), `got: ${got}\nwant (part): ${message}`);
    });
  }

  test('__proto__ and constructor are fields of the file, never property lookups', () => {
    assert.ok(errorOf(yamlConfig('  - resources: [services]\n    providers: [{__proto__: {keys: []}, constructor: {}}]\n')).includes('provider does not contain any of the expected providers'));
  });
});

describe('the --encryption-provider-config flag', () => {
  const valid = (): string =>
    file(yamlConfig(`  - resources: [services, "*.wardle.example.com"]\n    providers:\n      - aesgcm:\n          keys: [{name: k1, secret: ${K32}}]\n      - identity: {}\n`));

  test('both commands take it, resolve it and hand the storage a transformer per resource', () => {
    const path = valid();
    const cp = completeOptions(parseServerRunOptions(['--encryption-provider-config', path]));
    const ag = completeAggregatedOptions(parseAggregatedServerOptions([`--encryption-provider-config=${path}`]), apiGroups);
    for (const o of [cp, ag]) {
      assert.equal(o.encryptionProviderConfig, path);
      const t = storageConfigFor(o, '/unused/kube.db').storageConfig.resourceTransformers;
      assert.ok(t !== undefined);
      const ctx = { key: '/registry/services/default/a' };
      assert.ok(t.transformerForResource({ group: '', resource: 'services' }).transformToStorage(Buffer.from('{}'), ctx).toString('latin1').startsWith('k8s:enc:aesgcm:v1:k1:'));
      assert.ok(t.transformerForResource({ group: 'wardle.example.com', resource: 'flunders' }).transformToStorage(Buffer.from('{}'), ctx).toString('latin1').startsWith('k8s:enc:aesgcm:v1:k1:'));
      assert.equal(t.transformerForResource({ group: '', resource: 'namespaces' }).transformToStorage(Buffer.from('{}'), ctx).toString(), '{}');
    }
    assert.equal(storageConfigFor(completeOptions(parseServerRunOptions([])), '/d/kube.db').storageConfig.resourceTransformers, undefined);
  });

  test('both usages list it', () => {
    for (const usage of [CONTROL_PLANE_USAGE, AGGREGATED_USAGE]) assert.equal(usage.split('  --encryption-provider-config FILE').length - 1, 1);
  });

  test('an unusable file is an OptionsError naming the flag and the file', () => {
    const bad = file(yamlConfig(`  - resources: [services]\n    providers: [{aescbc: {keys: [{name: k, secret: ${b64(7)}}]}}]\n`));
    const missing = join(dir, 'missing.yaml');
    const empty = file('');
    const masked = file(yamlConfig(`  - resources: ["*."]\n    providers: [{identity: {}}]\n  - resources: [services]\n    providers: [{identity: {}}]\n`));
    const expect: Array<[string, string]> = [
      [
        bad,
        `--encryption-provider-config ${bad}: error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 7, expected one of [16 24 32]`,
      ],
      [missing, `--encryption-provider-config ${missing}: error while parsing file: error while loading file: error reading encryption provider configuration file ${JSON.stringify(missing)}: ENOENT`],
      [empty, `--encryption-provider-config ${empty}: error while parsing file: error while loading file: encryption provider configuration file ${JSON.stringify(empty)} is empty`],
      [masked, `--encryption-provider-config ${masked}: error while building transformers: resource "services" is masked by earlier rule "*."`],
    ];
    for (const [path, message] of expect) {
      assert.throws(
        () => loadEncryptionConfig(path),
        (e: unknown) => e instanceof OptionsError && e.message.startsWith(message),
      );
      assert.throws(
        () => storageConfigFor(completeOptions(parseServerRunOptions(['--encryption-provider-config', path])), '/unused'),
        (e: unknown) => e instanceof OptionsError && e.message.startsWith(message),
      );
    }
  });
});
