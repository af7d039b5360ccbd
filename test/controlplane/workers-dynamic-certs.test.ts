// --workers 2 with --tls-cert-file/--tls-private-key-file: every worker follows the files in its
// own process, so once the pair is replaced, every new connection, whichever worker it is handed
// to, is given the new certificate.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ControlPlane } from '../integration/harness.js';
import { eventually, presentedSubject, replaceFile, certDirs, servingPairs } from '../server/dynamiccertificates/helpers.js';

/** Separate connections: the primary hands them to the workers in turn. */
const CONNECTIONS = 8;

describe('--workers 2: a replaced serving pair reaches every worker', () => {
  let dir: string;
  let cp: ControlPlane;
  let servingCA: string;
  const pem: Record<string, string> = {};
  const files = { cert: '', key: '' };

  before(async () => {
    let made: string, flags: string;
    ({ dir, made, flags } = certDirs('kube-ts-workers-dyncerts-'));
    const serving = await servingPairs(made, 'serving');
    servingCA = serving.ca;
    Object.assign(pem, serving.pem);
    files.cert = join(flags, 'tls.crt');
    files.key = join(flags, 'tls.key');
    replaceFile(files.cert, pem['cert-a']!);
    replaceFile(files.key, pem['key-a']!);
    cp = await ControlPlane.start({ backend: 'sqlite', extraArgs: ['--workers', '2', '--tls-cert-file', files.cert, '--tls-private-key-file', files.key], readyTimeoutMs: 180_000 });
  });
  after(async () => {
    await cp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every new connection gets the new certificate', async () => {
    const subjects = async (): Promise<string[]> => {
      const out: string[] = [];
      for (let i = 0; i < CONNECTIONS; i++) out.push(await presentedSubject(cp.port, servingCA));
      return out;
    };
    assert.deepEqual(new Set(await subjects()), new Set(['CN=serving-a']));
    replaceFile(files.key, pem['key-b']!);
    replaceFile(files.cert, pem['cert-b']!);
    await eventually('every worker serving the new pair', async () => (await subjects()).every((s) => s === 'CN=serving-b'), 30_000);
  });
});
