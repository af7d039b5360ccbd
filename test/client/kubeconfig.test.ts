// kubeconfig loading (clientcmd's rules) and the in-cluster convention, on temp files.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import {
  clientConfigFor,
  inClusterConfig,
  isInCluster,
  KubeconfigError,
  loadClientConfig,
  loadKubeconfig,
  NotInClusterError,
  parseKubeconfig,
  restClientFromKubeconfig,
} from '../../runtime/client/kubeconfig/index.js';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'kubeconfig-test-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const V1 = 'client.authentication.k8s.io/v1';
const V1BETA1 = 'client.authentication.k8s.io/v1beta1';
const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

let seq = 0;
/** Writes a kubeconfig (an object as YAML, or raw text) under a fresh sub-directory; returns its path. */
function write(content: unknown, name = 'config'): string {
  const sub = join(dir, `c${++seq}`);
  mkdirSync(sub, { recursive: true });
  const path = join(sub, name);
  writeFileSync(path, typeof content === 'string' ? content : stringify(content));
  return path;
}

function config(o: { clusters?: unknown[]; users?: unknown[]; contexts?: unknown[]; current?: string } = {}): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: o.clusters ?? [{ name: 'c1', cluster: { server: 'https://one.example:6443', 'certificate-authority-data': b64(CA) } }],
    users: o.users ?? [{ name: 'u1', user: { token: 'tok-1' } }],
    contexts: o.contexts ?? [{ name: 'ctx1', context: { cluster: 'c1', user: 'u1', namespace: 'team-a' } }],
    ...(o.current !== undefined ? { 'current-context': o.current } : { 'current-context': 'ctx1' }),
  };
}

function throwsAt(fn: () => unknown, file: string, field: string, detail: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof KubeconfigError, String(e));
    assert.equal(e.file, file);
    assert.equal(e.field, field);
    assert.match(e.message, detail);
    assert.ok(e.message.startsWith(`${file}: `));
    return true;
  });
}

describe('kubeconfig: contexts, clusters and users', () => {
  test('current-context picks cluster, user and namespace; data fields are base64-decoded', () => {
    const path = write(config());
    const cc = loadClientConfig({ path });
    assert.equal(cc.context, 'ctx1');
    assert.equal(cc.namespace, 'team-a');
    assert.equal(cc.rest.host, 'https://one.example:6443');
    assert.equal(cc.rest.bearerToken, 'tok-1');
    assert.equal(Buffer.from(cc.rest.tls?.caData ?? '').toString(), CA);
    assert.equal(cc.rest.tls?.insecure, false);
  });

  test('a chosen context wins over current-context; a context without namespace means "default"', () => {
    const path = write(
      config({
        contexts: [
          { name: 'ctx1', context: { cluster: 'c1', user: 'u1', namespace: 'team-a' } },
          { name: 'other', context: { cluster: 'c1', user: 'u2' } },
        ],
        users: [
          { name: 'u1', user: { token: 'tok-1' } },
          { name: 'u2', user: { username: 'jane', password: 'pw' } },
        ],
      }),
    );
    const cc = loadClientConfig({ path, context: 'other' });
    assert.equal(cc.context, 'other');
    assert.equal(cc.namespace, 'default');
    assert.equal(cc.rest.username, 'jane');
    assert.equal(cc.rest.password, 'pw');
    assert.equal(cc.rest.bearerToken, undefined);
  });

  test('file references are resolved against the kubeconfig’s directory; absolute ones are kept', () => {
    const path = write(
      config({
        clusters: [{ name: 'c1', cluster: { server: 'https://one.example', 'certificate-authority': 'pki/ca.crt', 'tls-server-name': 'api.internal' } }],
        users: [{ name: 'u1', user: { 'client-certificate': 'pki/client.crt', 'client-key': '/abs/client.key', tokenFile: '../token' } }],
      }),
    );
    const base = join(path, '..');
    mkdirSync(join(base, 'pki'));
    for (const f of ['pki/ca.crt', 'pki/client.crt']) writeFileSync(join(base, f), CA);
    writeFileSync(join(base, '..', 'token'), 'from-file');
    const kc = loadKubeconfig({ path });
    assert.equal(kc?.clusters.get('c1')?.certificateAuthority, join(base, 'pki/ca.crt'));
    assert.equal(kc?.users.get('u1')?.clientCertificate, join(base, 'pki/client.crt'));
    assert.equal(kc?.users.get('u1')?.clientKey, '/abs/client.key');
    assert.equal(kc?.users.get('u1')?.tokenFile, join(dir, 'token'));
    // the absolute key path does not exist: selecting the context says which field
    throwsAt(() => loadClientConfig({ path }), path, 'users[0].user.client-key', /unable to read \/abs\/client\.key/);
    writeFileSync(join(base, 'pki/client.key'), 'key');
    const fixed = write(
      stringify(
        config({
          clusters: [{ name: 'c1', cluster: { server: 'https://one.example', 'certificate-authority': join(base, 'pki/ca.crt'), 'tls-server-name': 'api.internal' } }],
          users: [{ name: 'u1', user: { 'client-certificate': join(base, 'pki/client.crt'), 'client-key': join(base, 'pki/client.key') } }],
        }),
      ),
    );
    const cc = loadClientConfig({ path: fixed });
    assert.deepEqual(cc.rest.tls, { insecure: false, serverName: 'api.internal', caFile: join(base, 'pki/ca.crt'), certFile: join(base, 'pki/client.crt'), keyFile: join(base, 'pki/client.key') });
  });

  test('KUBECONFIG merges its files: the first definition of each name wins, and the first current-context', () => {
    const a = write(
      config({
        clusters: [{ name: 'shared', cluster: { server: 'https://a.example' } }],
        users: [],
        contexts: [{ name: 'in-a', context: { cluster: 'shared', user: 'from-b' } }],
        current: '',
      }),
    );
    const b = write(
      config({
        clusters: [
          { name: 'shared', cluster: { server: 'https://b.example' } },
          { name: 'only-b', cluster: { server: 'https://only-b.example' } },
        ],
        users: [{ name: 'from-b', user: { token: 'b-token' } }],
        contexts: [
          { name: 'in-a', context: { cluster: 'only-b', user: 'from-b' } },
          { name: 'in-b', context: { cluster: 'only-b' } },
        ],
        current: 'in-a',
      }),
    );
    const c = write(config({ clusters: [], users: [], contexts: [], current: 'in-b' }));
    const missing = join(dir, 'does-not-exist');
    const env = { KUBECONFIG: [missing, a, '', b, a, c].join(':') };
    const kc = loadKubeconfig({ env });
    assert.deepEqual(kc?.files, [a, b, c]);
    assert.equal(kc?.currentContext, 'in-a', 'a sets none; b is the first to set one');
    const cc = loadClientConfig({ env });
    assert.equal(cc.rest.host, 'https://a.example', 'context in-a from a, cluster "shared" from a');
    assert.equal(cc.rest.bearerToken, 'b-token', 'the user only b defines');
    assert.equal(loadClientConfig({ env, context: 'in-b' }).rest.host, 'https://only-b.example');
  });

  test('without KUBECONFIG, $HOME/.kube/config; an explicit path must exist', () => {
    const home = join(dir, 'home');
    mkdirSync(join(home, '.kube'), { recursive: true });
    writeFileSync(join(home, '.kube', 'config'), stringify(config()));
    assert.equal(loadClientConfig({ env: { HOME: home } }).context, 'ctx1');
    assert.equal(loadClientConfig({ env: {}, homeDir: home }).context, 'ctx1');
    const missing = join(dir, 'nope', 'config');
    throwsAt(() => loadClientConfig({ path: missing, env: { HOME: home } }), missing, '', /cannot be read: ENOENT/);
    const empty = join(dir, 'empty-home');
    throwsAt(() => loadClientConfig({ env: { HOME: empty } }), join(empty, '.kube', 'config'), '', /no kubeconfig found/);
  });

  test('server without a scheme is https with TLS settings; restClientFromKubeconfig builds the client', () => {
    const path = write(config({ clusters: [{ name: 'c1', cluster: { server: 'one.example:6443', 'certificate-authority-data': b64(CA) } }] }));
    const { rest, namespace, context } = restClientFromKubeconfig({ path, options: { userAgent: 'test/v1' } });
    try {
      assert.equal(rest.config.baseURL.href, 'https://one.example:6443/');
      assert.equal(rest.config.userAgent, 'test/v1');
      assert.equal(rest.config.tls.servername, 'one.example');
      assert.equal(namespace, 'team-a');
      assert.equal(context, 'ctx1');
    } finally {
      rest.close();
    }
  });
});

describe('kubeconfig: exec credential plugins', () => {
  test('every field is read; a command with a path separator is resolved against the file, a bare one is left for PATH', () => {
    const exec = {
      apiVersion: V1,
      command: './bin/credential-helper',
      args: ['get-token', '--cluster-name', 'prod'],
      env: [
        { name: 'AWS_PROFILE', value: 'prod' },
        { name: 'EMPTY', value: null },
      ],
      installHint: 'brew install credential-helper',
      provideClusterInfo: true,
      interactiveMode: 'IfAvailable',
    };
    const path = write(
      config({
        clusters: [
          {
            name: 'c1',
            cluster: {
              server: 'https://one.example',
              extensions: [
                { name: 'other', extension: { ignored: true } },
                { name: 'client.authentication.k8s.io/exec', extension: { audience: 'prod', nested: { a: [1] } } },
              ],
            },
          },
        ],
        users: [
          { name: 'u1', user: { exec } },
          { name: 'bare', user: { exec: { apiVersion: V1, command: 'aws', interactiveMode: 'Never' } } },
        ],
      }),
    );
    const base = join(path, '..');
    const kc = loadKubeconfig({ path }) ?? assert.fail();
    assert.equal(kc.users.get('bare')?.exec?.command, 'aws');
    assert.deepEqual(kc.clusters.get('c1')?.execExtension, { audience: 'prod', nested: { a: [1] } });
    const cc = loadClientConfig({ path });
    assert.deepEqual(cc.rest.execProvider, {
      command: join(base, 'bin/credential-helper'),
      args: ['get-token', '--cluster-name', 'prod'],
      env: [
        { name: 'AWS_PROFILE', value: 'prod' },
        { name: 'EMPTY', value: '' },
      ],
      apiVersion: V1,
      installHint: 'brew install credential-helper',
      provideClusterInfo: true,
      interactiveMode: 'IfAvailable',
      config: { audience: 'prod', nested: { a: [1] } },
    });
    assert.equal(cc.rest.bearerToken, undefined);
  });

  test('v1beta1 without interactiveMode reads as IfAvailable (clientcmd’s default); v1 must name it', () => {
    const path = write(config({ users: [{ name: 'u1', user: { exec: { apiVersion: V1BETA1, command: 'gke-gcloud-auth-plugin' } } }] }));
    const cc = loadClientConfig({ path });
    assert.equal(cc.rest.execProvider?.interactiveMode, 'IfAvailable');
    assert.equal(cc.rest.execProvider?.provideClusterInfo, false);
    assert.deepEqual(cc.rest.execProvider?.args, []);
  });

  test('a token beside the plugin is kept: the client then uses the token and never runs the plugin', () => {
    const path = write(config({ users: [{ name: 'u1', user: { token: 'static', exec: { apiVersion: V1, command: 'aws', interactiveMode: 'Never' } } }] }));
    const cc = loadClientConfig({ path });
    assert.equal(cc.rest.bearerToken, 'static');
    assert.equal(cc.rest.execProvider?.command, 'aws');
  });
});

describe('kubeconfig: mistakes name the file and the field', () => {
  const cases: Array<[string, unknown, string, RegExp]> = [
    ['YAML syntax', 'clusters: [\n  - name: x\n', '', /not valid YAML/],
    ['not a mapping', '- a\n- b\n', '', /must be a mapping, got a list/],
    ['clusters not a list', { clusters: { c1: {} } }, 'clusters', /must be a list, got a mapping/],
    ['server not a string', { clusters: [{ name: 'c', cluster: { server: 6443 } }] }, 'clusters[0].cluster.server', /must be a string, got number 6443/],
    ['insecure not a boolean', { clusters: [{ name: 'c', cluster: { server: 's', 'insecure-skip-tls-verify': 'yes' } }] }, 'clusters[0].cluster.insecure-skip-tls-verify', /must be true or false/],
    ['bad base64', { users: [{ name: 'u', user: { 'client-key-data': 'not base64!' } }] }, 'users[0].user.client-key-data', /not valid base64/],
    ['missing name', { contexts: [{ context: { cluster: 'c' } }] }, 'contexts[0].name', /is required/],
    [
      'duplicate name',
      {
        users: [
          { name: 'u', user: {} },
          { name: 'u', user: {} },
        ],
      },
      'users[1].name',
      /duplicate name "u"/,
    ],
    ['user not a mapping', { users: [{ name: 'u', user: 'token' }] }, 'users[0].user', /must be a mapping/],
    ['current-context not a string', { 'current-context': ['a'] }, 'current-context', /must be a string/],
    ['exec not a mapping', { users: [{ name: 'u', user: { exec: 'aws' } }] }, 'users[0].user.exec', /must be a mapping, got string "aws"/],
    ['exec args not a list', { users: [{ name: 'u', user: { exec: { command: 'aws', args: 'eks get-token' } } }] }, 'users[0].user.exec.args', /must be a list, got string/],
    ['exec arg not a string', { users: [{ name: 'u', user: { exec: { command: 'aws', args: ['eks', 3] } } }] }, 'users[0].user.exec.args[1]', /must be a string, got number 3/],
    ['exec env entry not a mapping', { users: [{ name: 'u', user: { exec: { command: 'aws', env: ['A=b'] } } }] }, 'users[0].user.exec.env[0]', /must be a mapping/],
    [
      'exec env value not a string',
      { users: [{ name: 'u', user: { exec: { command: 'aws', env: [{ name: 'A', value: 1 }] } } }] },
      'users[0].user.exec.env[0].value',
      /must be a string, got number 1/,
    ],
    [
      'exec provideClusterInfo not a boolean',
      { users: [{ name: 'u', user: { exec: { command: 'aws', provideClusterInfo: 'yes' } } }] },
      'users[0].user.exec.provideClusterInfo',
      /must be true or false/,
    ],
    ['auth-provider name not a string', { users: [{ name: 'u', user: { 'auth-provider': { name: 1 } } }] }, 'users[0].user.auth-provider.name', /must be a string/],
    ['cluster extensions not a list', { clusters: [{ name: 'c', cluster: { server: 's', extensions: {} } }] }, 'clusters[0].cluster.extensions', /must be a list, got a mapping/],
  ];
  for (const [name, content, field, detail] of cases) {
    test(name, () => {
      const path = write(content);
      throwsAt(() => loadKubeconfig({ path }), path, field, detail);
      throwsAt(() => parseKubeconfig(typeof content === 'string' ? content : stringify(content), path), path, field, detail);
    });
  }

  test('an empty file is an empty configuration, which selects nothing', () => {
    const path = write('');
    const kc = loadKubeconfig({ path });
    assert.equal(kc?.contexts.size, 0);
    throwsAt(() => loadClientConfig({ path }), path, 'current-context', /no context is selected/);
  });

  const selection: Array<[string, Parameters<typeof config>[0], string | undefined, string, RegExp]> = [
    ['unknown context', {}, 'nope', 'contexts', /context "nope" not found/],
    ['unknown cluster', { contexts: [{ name: 'ctx1', context: { cluster: 'gone', user: 'u1' } }] }, undefined, 'contexts[0].context.cluster', /cluster "gone" was not found for context "ctx1"/],
    ['unknown user', { contexts: [{ name: 'ctx1', context: { cluster: 'c1', user: 'gone' } }] }, undefined, 'contexts[0].context.user', /user "gone" was not found/],
    ['no server', { clusters: [{ name: 'c1', cluster: {} }] }, undefined, 'clusters[0].cluster.server', /no server defined/],
    ['server not http(s)', { clusters: [{ name: 'c1', cluster: { server: 'ftp://x' } }] }, undefined, 'clusters[0].cluster.server', /not an http or https URL/],
    [
      'insecure with a CA',
      { clusters: [{ name: 'c1', cluster: { server: 'https://x', 'insecure-skip-tls-verify': true, 'certificate-authority-data': b64(CA) } }] },
      undefined,
      'clusters[0].cluster.insecure-skip-tls-verify',
      /not allowed/,
    ],
    [
      'unreadable CA file',
      { clusters: [{ name: 'c1', cluster: { server: 'https://x', 'certificate-authority': '/no/such/ca.crt' } }] },
      undefined,
      'clusters[0].cluster.certificate-authority',
      /unable to read \/no\/such\/ca\.crt/,
    ],
    ['certificate without key', { users: [{ name: 'u1', user: { 'client-certificate-data': b64(CA) } }] }, undefined, 'users[0].user.client-key', /client-key-data or client-key must be specified/],
    ['token and basic auth', { users: [{ name: 'u1', user: { token: 't', username: 'u', password: 'p' } }] }, undefined, 'users[0].user', /more than one authentication method/],
    [
      'exec without a command',
      { users: [{ name: 'u1', user: { exec: { apiVersion: V1, interactiveMode: 'Never' } } }] },
      undefined,
      'users[0].user.exec.command',
      /^.*: command must be specified for u1 to use exec authentication plugin$/,
    ],
    [
      'exec without an apiVersion',
      { users: [{ name: 'u1', user: { exec: { command: 'aws', interactiveMode: 'Never' } } }] },
      undefined,
      'users[0].user.exec.apiVersion',
      /apiVersion must be specified for u1 to use exec authentication plugin$/,
    ],
    [
      'exec v1alpha1 (removed)',
      { users: [{ name: 'u1', user: { exec: { command: 'aws', apiVersion: 'client.authentication.k8s.io/v1alpha1' } } }] },
      undefined,
      'users[0].user.exec.apiVersion',
      /exec plugin: invalid apiVersion "client.authentication.k8s.io\/v1alpha1"$/,
    ],
    [
      'exec env without a name',
      { users: [{ name: 'u1', user: { exec: { command: 'aws', apiVersion: V1, interactiveMode: 'Never', env: [{ value: 'x' }] } } }] },
      undefined,
      'users[0].user.exec.env[0].name',
      /env variable name must be specified for u1 to use exec authentication plugin$/,
    ],
    [
      'exec v1 without interactiveMode',
      { users: [{ name: 'u1', user: { exec: { command: 'aws', apiVersion: V1 } } }] },
      undefined,
      'users[0].user.exec.interactiveMode',
      /interactiveMode must be specified for u1 to use exec authentication plugin$/,
    ],
    [
      'exec with an unknown interactiveMode',
      { users: [{ name: 'u1', user: { exec: { command: 'aws', apiVersion: V1, interactiveMode: 'Sometimes' } } }] },
      undefined,
      'users[0].user.exec.interactiveMode',
      /invalid interactiveMode for u1: "Sometimes"$/,
    ],
    [
      'auth-provider gcp (removed in 1.26)',
      { users: [{ name: 'u1', user: { 'auth-provider': { name: 'gcp', config: {} } } }] },
      undefined,
      'users[0].user.auth-provider',
      /The gcp auth plugin has been removed.\nPlease use the "gke-gcloud-auth-plugin" kubectl\/client-go credential plugin instead./,
    ],
    [
      'auth-provider azure (removed in 1.26)',
      { users: [{ name: 'u1', user: { 'auth-provider': { name: 'azure' } } }] },
      undefined,
      'users[0].user.auth-provider',
      /The azure auth plugin has been removed.\nPlease use the https:\/\/github.com\/Azure\/kubelogin kubectl\/client-go credential plugin instead./,
    ],
    [
      'auth-provider oidc',
      { users: [{ name: 'u1', user: { 'auth-provider': { name: 'oidc' } } }] },
      undefined,
      'users[0].user.auth-provider',
      /does not run auth providers \("oidc" for u1\): kubectl removed the gcp and azure providers in 1.26 .*exec plugin/,
    ],
    [
      'auth-provider with exec',
      { users: [{ name: 'u1', user: { 'auth-provider': { name: 'gcp' }, exec: { command: 'gke-gcloud-auth-plugin', apiVersion: V1BETA1 } } }] },
      undefined,
      'users[0].user.auth-provider',
      /authProvider cannot be provided in combination with an exec plugin for u1$/,
    ],
    ['unreadable token file', { users: [{ name: 'u1', user: { tokenFile: '/no/such/token' } }] }, undefined, 'users[0].user.tokenFile', /unable to read/],
  ];
  for (const [name, o, context, field, detail] of selection) {
    test(`selection: ${name}`, () => {
      const path = write(config(o));
      throwsAt(() => loadClientConfig({ path, ...(context !== undefined ? { context } : {}) }), path, field, detail);
    });
  }

  test('a broken entry the chosen context does not use does not matter', () => {
    const path = write(
      config({
        clusters: [
          { name: 'c1', cluster: { server: 'https://one.example' } },
          { name: 'broken', cluster: {} },
        ],
        users: [
          { name: 'u1', user: { token: 't' } },
          { name: 'plugin', user: { exec: { command: 'x' } } },
          { name: 'provider', user: { 'auth-provider': { name: 'gcp' } } },
        ],
      }),
    );
    assert.equal(clientConfigFor(loadKubeconfig({ path }) ?? assert.fail()).rest.host, 'https://one.example');
  });
});

describe('in-cluster configuration', () => {
  function pod(files: Record<string, string>): string {
    const root = join(dir, `pod${++seq}`);
    const sa = join(root, 'var/run/secrets/kubernetes.io/serviceaccount');
    mkdirSync(sa, { recursive: true });
    for (const [name, content] of Object.entries(files)) writeFileSync(join(sa, name), content);
    return root;
  }
  const env = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };

  test('service address from the environment, token and CA from the mounted secret, namespace from its file', () => {
    const root = pod({ token: 'sa-token\n', 'ca.crt': CA, namespace: 'kube-system\n' });
    const cc = inClusterConfig({ root, env });
    const sa = join(root, 'var/run/secrets/kubernetes.io/serviceaccount');
    assert.deepEqual(cc, {
      rest: { host: 'https://10.96.0.1:443', tls: { caFile: join(sa, 'ca.crt') }, bearerToken: 'sa-token', bearerTokenFile: join(sa, 'token') },
      namespace: 'kube-system',
      context: '',
    });
    assert.equal(inClusterConfig({ root, env: { ...env, POD_NAMESPACE: 'from-env' } }).namespace, 'from-env');
    assert.equal(inClusterConfig({ root, env: { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '6443' } }).rest.host, 'https://[fd00::1]:6443');
  });

  test('without a namespace file: "default"; without a CA: reported and left out', () => {
    const warnings: string[] = [];
    const cc = inClusterConfig({ root: pod({ token: 't' }), env, warn: (m) => warnings.push(m) });
    assert.equal(cc.namespace, 'default');
    assert.equal(cc.rest.tls, undefined);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /Expected to load root CA config from .*ca\.crt/);
  });

  test('outside a pod: NotInClusterError; without a token: an error naming it', () => {
    assert.throws(() => inClusterConfig({ root: pod({ token: 't' }), env: {} }), NotInClusterError);
    assert.throws(() => inClusterConfig({ root: pod({}), env }), /unable to read the service account token/);
    assert.equal(isInCluster({ root: pod({}), env }), false);
    assert.equal(isInCluster({ root: pod({ token: 't' }), env }), true);
  });

  test('loadClientConfig falls back to it only when no kubeconfig file exists and none was named', () => {
    const root = pod({ token: 't', 'ca.crt': CA });
    const home = join(dir, 'no-home');
    const cc = loadClientConfig({ env: { ...env, HOME: home }, inCluster: { root } });
    assert.equal(cc.rest.host, 'https://10.96.0.1:443');
    const path = join(dir, 'named-but-missing');
    throwsAt(() => loadClientConfig({ path, env, inCluster: { root } }), path, '', /cannot be read/);
    const kube = write(config());
    assert.equal(loadClientConfig({ env: { ...env, KUBECONFIG: kube }, inCluster: { root } }).context, 'ctx1', 'a kubeconfig wins over the pod');
  });
});
