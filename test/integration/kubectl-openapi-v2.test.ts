// kubectl's OpenAPI v2 paths, against the control plane command on SQLite. kubectl 1.27 and 1.28
// load /openapi/v2 in protobuf before any apply/create with validation on (and fail without it),
// explain from it with --output=plaintext-openapiv2, and build apply's strategic merge patch from
// its patch extensions; every kubectl up to 1.32 validates a `kind: List` client-side against it.
// Skipped (with the reason) only where a kubectl minor is not installed.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { fails, ok } from './assertions.js';
import { describeKubectlMinor } from './kubectl-suite.js';
import { flunderV1beta1, uniqueName } from './objects.js';

const json = (o: unknown): string => JSON.stringify(o);
const list = (items: readonly unknown[]): string => json({ apiVersion: 'v1', kind: 'List', items });

/** A Flunder with `spec.bogus`, which FlunderSpec does not define. */
function withUnknownField(name: string, ns: string): Record<string, unknown> {
  const manifest = flunderV1beta1.manifest(name, ns);
  flunderV1beta1.unknownField.set(manifest);
  return manifest;
}

const CLIENT_SIDE_UNKNOWN_FIELD =
  'error: error validating "STDIN": error validating data: ValidationError(Flunder.spec): unknown field "bogus" in com.example.wardle.v1beta1.FlunderSpec; ' +
  'if you choose to ignore these errors, turn validation off with --validate=false';

for (const minor of [27, 28]) {
  describeKubectlMinor(minor, `kubectl 1.${minor} reads OpenAPI v2 in protobuf`, 'v2', ({ cp, ns, run }) => {
    it('explain flunder.spec from the v2 document (and from v3, the default)', async () => {
      const v2 = ok(await run(['explain', 'flunder.spec', '--output=plaintext-openapiv2']), cp());
      assert.match(v2, /^KIND:\s+Flunder\nVERSION:\s+wardle\.example\.com\/v1beta1\n\nRESOURCE:\s+spec <Object>\n/);
      assert.match(v2, /DESCRIPTION:\n\s+FlunderSpec is the specification of a Flunder/);
      for (const field of ['fischerReference', 'flunderReference', 'referenceType']) assert.match(v2, new RegExp(`\\n\\s+${field}\\t<string>\\n`));
      const leaf = ok(await run(['explain', 'flunders.spec.flunderReference', '--output=plaintext-openapiv2']), cp());
      assert.match(leaf, /FIELD:\s+flunderReference <string>\n\nDESCRIPTION:\n\s+A name of another flunder, mutually exclusive to fischerReference\./);
      const v3 = ok(await run(['explain', 'flunder.spec']), cp());
      assert.match(v3, /FIELD: spec <FlunderSpec>/);
    });

    it('apply -f a Flunder twice with a change: validation on, then a strategic merge patch', async () => {
      const name = uniqueName('fl');
      const manifest = flunderV1beta1.manifest(name, ns());
      assert.equal(ok(await run(['apply', '--validate=true', '-f', '-'], json(manifest)), cp()), `flunder.wardle.example.com/${name} created`);
      const changed = { ...manifest, spec: { fischerReference: 'f', referenceType: 'Fischer' } };
      assert.equal(ok(await run(['apply', '--validate=true', '-f', '-'], json(changed)), cp()), `flunder.wardle.example.com/${name} configured`);
      const spec = ok(await run(['get', 'flunders', name, '-n', ns(), '-o', 'jsonpath={.spec}']), cp());
      // flunderReference is gone: the patch computed from last-applied deleted it.
      assert.deepEqual(JSON.parse(spec), { fischerReference: 'f', referenceType: 'Fischer' });
    });

    it('create -f of a Flunder with an unknown field: rejected by the server (kubectl defers to fieldValidation)', async () => {
      fails(
        await run(['create', '-f', '-'], json(withUnknownField(uniqueName('bad'), ns()))),
        'Error from server (BadRequest): error when creating "STDIN": Flunder in version "v1beta1" cannot be handled as a Flunder: strict decoding error: unknown field "spec.bogus"',
      );
    });

    it('create -f of a List holding a Flunder with an unknown field: rejected client-side from the v2 schema', async () => {
      fails(await run(['create', '-f', '-'], list([withUnknownField(uniqueName('bad'), ns())])), CLIENT_SIDE_UNKNOWN_FIELD);
    });
  });
}

describeKubectlMinor(32, 'kubectl 1.32 applies a kind: List (validated against OpenAPI v2)', 'list', ({ cp, ns, run }) => {
  it('apply -f of a List holding two Flunders', async () => {
    const names = [uniqueName('a'), uniqueName('b')];
    const out = ok(await run(['apply', '-f', '-'], list(names.map((n) => flunderV1beta1.manifest(n, ns())))), cp());
    assert.deepEqual(
      out.split('\n'),
      names.map((n) => `flunder.wardle.example.com/${n} created`),
    );
    const got = ok(await run(['get', 'flunders', '-n', ns(), '-o', 'name']), cp());
    assert.deepEqual(got.split('\n').sort(), names.map((n) => `flunder.wardle.example.com/${n}`).sort());
  });

  it('apply -f of a List holding a Flunder with an unknown field: rejected client-side', async () => {
    fails(await run(['apply', '-f', '-'], list([withUnknownField(uniqueName('bad'), ns())])), CLIENT_SIDE_UNKNOWN_FIELD);
  });
});
