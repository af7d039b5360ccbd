// The control plane's authentication flags: kube-apiserver's names, pflag's slice syntax, and
// the defaults of kubeadm's setup over the control plane's own PKI.
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { completeOptions, OptionsError, parseServerRunOptions } from '../../runtime/controlplane/options.js';

describe('authentication flags', () => {
  it('defaults: anonymous on, the own CAs, X-Remote-* headers, only front-proxy-client may proxy', () => {
    const o = completeOptions(parseServerRunOptions([]));
    assert.equal(o.anonymousAuth, true);
    assert.equal(o.clientCAFile, undefined);
    assert.equal(o.requestheaderClientCAFile, undefined);
    assert.deepEqual(o.requestheaderAllowedNames, ['front-proxy-client']);
    assert.deepEqual(o.requestheaderUsernameHeaders, ['X-Remote-User']);
    assert.deepEqual(o.requestheaderGroupHeaders, ['X-Remote-Group']);
    assert.deepEqual(o.requestheaderExtraHeadersPrefix, ['X-Remote-Extra-']);
    assert.equal(o.tokenAuthFile, undefined);
  });

  it('parses every flag; slices are comma-separated and repeatable', () => {
    const o = completeOptions(
      parseServerRunOptions([
        '--anonymous-auth=false',
        '--client-ca-file',
        'ca.crt',
        '--token-auth-file=tokens.csv',
        '--requestheader-client-ca-file',
        'fp.crt',
        '--requestheader-allowed-names=a,b',
        '--requestheader-allowed-names',
        'c',
        '--requestheader-username-headers=X-User',
        '--requestheader-group-headers',
        'X-Group,X-Team',
        '--requestheader-extra-headers-prefix',
        'X-Extra-',
      ]),
    );
    assert.equal(o.anonymousAuth, false);
    assert.equal(o.clientCAFile, resolve('ca.crt'));
    assert.equal(o.tokenAuthFile, resolve('tokens.csv'));
    assert.equal(o.requestheaderClientCAFile, resolve('fp.crt'));
    assert.deepEqual(o.requestheaderAllowedNames, ['a', 'b', 'c']);
    assert.deepEqual(o.requestheaderUsernameHeaders, ['X-User']);
    assert.deepEqual(o.requestheaderGroupHeaders, ['X-Group', 'X-Team']);
    assert.deepEqual(o.requestheaderExtraHeadersPrefix, ['X-Extra-']);
  });

  it('a given request-header CA allows any CN unless names are given; an empty list allows any', () => {
    assert.deepEqual(completeOptions(parseServerRunOptions(['--requestheader-client-ca-file', 'fp.crt'])).requestheaderAllowedNames, []);
    assert.deepEqual(completeOptions(parseServerRunOptions(['--requestheader-allowed-names='])).requestheaderAllowedNames, []);
  });

  it('rejects a non-boolean --anonymous-auth and blank header names', () => {
    assert.throws(() => parseServerRunOptions(['--anonymous-auth=maybe']), OptionsError);
    assert.throws(() => completeOptions({ requestheaderUsernameHeaders: [' '] }), /--requestheader-username-headers: empty header name/);
  });
});
