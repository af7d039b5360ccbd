// Exec credential plugins that fail, answer badly or may not run, and what they are sent: each
// request rejects before it is sent, with client-go's words after "getting credentials:". No
// server is needed: the client never gets as far as connecting (or, where the plugin answers
// well, the refused connection afterwards does not matter).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { restClientForConfig, TransportError, type RESTConfig } from '../../runtime/client/index.js';
import type { ExecConfig } from '../../runtime/client/exec/index.js';
import { tokenAnswer, writePlugin, type TestPlugin } from './exec-credential-plugin.js';

const dir = mkdtempSync(join(tmpdir(), 'exec-credential-errors-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const V1 = 'client.authentication.k8s.io/v1';
const V1BETA1 = 'client.authentication.k8s.io/v1beta1';
const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

function client(exec: ExecConfig, o: Partial<RESTConfig> = {}) {
  // Port 1: nothing listens, so a request that got its credentials fails fast and is not retried.
  return restClientForConfig({ host: 'https://127.0.0.1:1', tls: { caData: CA }, maxRetries: 0, execProvider: exec, execPlugin: { stderr: 'ignore', stdinIsTerminal: () => false }, ...o });
}

/** The rejection of one GET through a client of this plugin configuration. */
async function failure(exec: ExecConfig, o: Partial<RESTConfig> = {}): Promise<Error> {
  const rest = client(exec, o);
  try {
    await rest.request({ method: 'GET', path: '/api' });
  } catch (e) {
    assert.ok(e instanceof Error);
    return e;
  } finally {
    rest.close();
  }
  assert.fail('expected the request to fail');
}

function plugin(...answers: Parameters<TestPlugin['answer']>): TestPlugin {
  const p = writePlugin(dir);
  p.answer(...answers);
  return p;
}

describe('exec credential plugins: failures', () => {
  test('a command that is not installed: client-go’s help and the installHint', async () => {
    const command = join(dir, 'no-such-plugin');
    const e = await failure({ command, apiVersion: V1, interactiveMode: 'Never', installHint: 'Install it with: brew install no-such-plugin' });
    assert.ok(e instanceof TransportError, String(e));
    assert.equal(
      e.message,
      `GET https://127.0.0.1:1/api: getting credentials: exec: executable ${command} not found\n\n` +
        'It looks like you are trying to use a client-go credential plugin that is not installed.\n\n' +
        'To learn more about this feature, consult the documentation available at:\n' +
        '      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins\n\n' +
        'Install it with: brew install no-such-plugin',
    );
  });

  test('a plugin that exits non-zero: the command and its exit code, as client-go words it', async () => {
    const p = plugin({ exit: 3 });
    const e = await failure({ command: p.command, apiVersion: V1, interactiveMode: 'Never', installHint: 'not printed: the plugin is installed' });
    assert.match(e.message, new RegExp(`getting credentials: exec: executable ${p.command} failed with exit code 3$`));
    assert.equal(p.invocations().length, 1);
  });

  test('a plugin that does not finish within execPlugin.timeoutMs is killed and named', async () => {
    const p = plugin({ hang: true });
    const e = await failure({ command: p.command, apiVersion: V1, interactiveMode: 'Never' }, { execPlugin: { stderr: 'ignore', stdinIsTerminal: () => false, timeoutMs: 500 } });
    assert.match(e.message, new RegExp(`getting credentials: exec: executable ${p.command} did not finish within 500 ms$`));
  });

  const malformed: Array<[string, Parameters<TestPlugin['answer']>[0], RegExp]> = [
    ['not JSON', { raw: 'token: abc' }, /getting credentials: decoding stdout: couldn't get version\/kind; json parse error: /],
    ['no kind', { apiVersion: V1, status: { token: 't' } }, /decoding stdout: Object 'Kind' is missing in the plugin's output$/],
    ['another kind', { apiVersion: V1, kind: 'Token', status: { token: 't' } }, /decoding stdout: no kind "Token" is registered for version "client.authentication.k8s.io\/v1"$/],
    [
      'another version',
      tokenAnswer('t', { apiVersion: V1BETA1 }),
      /exec plugin is configured to use API version client.authentication.k8s.io\/v1, plugin returned version client.authentication.k8s.io\/v1beta1$/,
    ],
    ['no status', { apiVersion: V1, kind: 'ExecCredential' }, /exec plugin didn't return a status field$/],
    ['an empty status', { apiVersion: V1, kind: 'ExecCredential', status: {} }, /exec plugin didn't return a token or cert\/key pair$/],
    ['a certificate without its key', { apiVersion: V1, kind: 'ExecCredential', status: { clientCertificateData: CA } }, /exec plugin returned only certificate or key, not both$/],
    ['a certificate that does not parse', { apiVersion: V1, kind: 'ExecCredential', status: { clientCertificateData: CA, clientKeyData: 'nope' } }, /failed parsing client key\/certificate: /],
    ['a token that is not a string', { apiVersion: V1, kind: 'ExecCredential', status: { token: 42 } }, /decoding stdout: status.token must be a string, got number$/],
    ['an expiry that is not RFC 3339', { apiVersion: V1, kind: 'ExecCredential', status: { token: 't', expirationTimestamp: 'tomorrow' } }, /decoding stdout: parsing time "tomorrow"/],
  ];
  for (const [name, answer, message] of malformed) {
    test(`malformed output: ${name}`, async () => {
      const p = plugin(answer);
      const e = await failure({ command: p.command, apiVersion: V1, interactiveMode: 'Never' });
      assert.match(e.message, message);
      assert.ok(!e.message.includes('"t"'), 'the output is not quoted');
    });
  }

  test('a failed run is not cached: the next request runs the plugin again', async () => {
    const p = plugin({ exit: 1 }, { raw: 'still not json' });
    await failure({ command: p.command, apiVersion: V1, interactiveMode: 'Never' });
    const rest = client({ command: p.command, apiVersion: V1, interactiveMode: 'Never' });
    try {
      await assert.rejects(rest.request({ method: 'GET', path: '/api' }), /decoding stdout/);
      await assert.rejects(rest.request({ method: 'GET', path: '/api' }), /decoding stdout/);
    } finally {
      rest.close();
    }
    assert.equal(p.invocations().length, 3);
  });

  test('an unknown apiVersion is refused when the client is built', () => {
    assert.throws(
      () => client({ command: 'x', apiVersion: 'client.authentication.k8s.io/v1alpha1', interactiveMode: 'Never' }),
      /exec plugin: invalid apiVersion "client.authentication.k8s.io\/v1alpha1"/,
    );
  });
});

describe('exec credential plugins: interactive mode and what the plugin is sent', () => {
  test('Always without a terminal: client-go’s error, and the plugin is not run', async () => {
    const p = plugin(tokenAnswer('t'));
    const e = await failure({ command: p.command, apiVersion: V1, interactiveMode: 'Always' });
    assert.match(e.message, /getting credentials: exec plugin cannot support interactive mode: standard input is not a terminal$/);
    assert.equal(p.invocations().length, 0);
  });

  test('by default the terminal test is isatty(0): under the test runner standard input is none, so Always fails', async () => {
    const p = plugin(tokenAnswer('t'));
    const e = await failure({ command: p.command, apiVersion: V1, interactiveMode: 'Always' }, { execPlugin: { stderr: 'ignore' } });
    if (process.stdin.isTTY === true) assert.match(e.message, /ECONNREFUSED/);
    else assert.match(e.message, /standard input is not a terminal/);
  });

  const modes: Array<[ExecConfig['interactiveMode'], boolean, boolean]> = [
    ['Never', true, false],
    ['IfAvailable', false, false],
    ['IfAvailable', true, true],
    ['Always', true, true],
  ];
  for (const [mode, tty, interactive] of modes) {
    test(`${mode} with${tty ? '' : 'out'} a terminal: spec.interactive is ${interactive}`, async () => {
      const p = plugin(tokenAnswer('t'));
      const e = await failure({ command: p.command, apiVersion: V1, interactiveMode: mode }, { execPlugin: { stderr: 'ignore', stdinIsTerminal: () => tty } });
      assert.match(e.message, /ECONNREFUSED/, 'the credentials were got; only the connection failed');
      assert.deepEqual(p.invocations()[0]?.info, { kind: 'ExecCredential', apiVersion: V1, spec: { interactive } });
    });
  }

  test('command, args and env as configured; provideClusterInfo sends the cluster (v1beta1)', async () => {
    const p = plugin(tokenAnswer('t', { apiVersion: V1BETA1 }));
    const exec: ExecConfig = {
      command: p.command,
      args: ['get-token', '--cluster', 'a b', '$HOME'],
      env: [{ name: 'PLUGIN_EXTRA', value: 'from the kubeconfig' }],
      apiVersion: V1BETA1,
      interactiveMode: 'Never',
      provideClusterInfo: true,
      config: { region: 'eu-west-1' },
    };
    const e = await failure(exec, { tls: { caData: CA, serverName: 'api.internal' } });
    assert.match(e.message, /ECONNREFUSED/);
    const [run] = p.invocations();
    assert.deepEqual(run?.args, ['get-token', '--cluster', 'a b', '$HOME'], 'no shell: arguments arrive as given');
    assert.equal(run?.env, 'from the kubeconfig');
    assert.deepEqual(run?.info, {
      kind: 'ExecCredential',
      apiVersion: V1BETA1,
      spec: {
        cluster: { server: 'https://127.0.0.1:1', 'tls-server-name': 'api.internal', 'certificate-authority-data': Buffer.from(CA).toString('base64'), config: { region: 'eu-west-1' } },
        interactive: false,
      },
    });
  });
});
