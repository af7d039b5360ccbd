// Client-side (three-way) `kubectl apply` of a built-in kind, against the control plane command on
// SQLite. kubectl builds the strategic merge patch from /openapi/v2: 1.27 and 1.28 read only that
// document, and follow a field's schema only through a plain `$ref` (an `allOf`-wrapped reference
// is a field of unknown type to them, so a removed list item was never deleted and an unchanged
// manifest still said "configured"). The newest kubectl reads v3 and must agree.
// Skipped (with the reason) only where a kubectl minor is not installed.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ok } from './assertions.js';
import { describeKubectlMinor } from './kubectl-suite.js';
import { uniqueName } from './objects.js';

interface Port {
  name: string;
  port: number;
}

function service(name: string, ns: string, ports: readonly Port[]): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns }, spec: { selector: { app: 'demo' }, ports } });
}

const HTTP: Port = { name: 'http', port: 80 };
const HTTPS: Port = { name: 'https', port: 443 };

for (const minor of [27, 28, 33]) {
  describeKubectlMinor(minor, `kubectl 1.${minor} three-way apply of a Service`, 'apply', ({ cp, ns, run }) => {
    it('explain svc.spec from the v2 document lists ServiceSpec’s fields', async () => {
      const out = ok(await run(['explain', 'svc.spec', '--output=plaintext-openapiv2']), cp());
      assert.match(out, /^KIND:\s+Service\nVERSION:\s+v1\n\nRESOURCE:\s+spec <Object>\n/);
      for (const field of ['clusterIP', 'ports', 'selector', 'type']) assert.match(out, new RegExp(`\\n\\s+${field}\\t<`), `${field} is listed`);
      const ports = ok(await run(['explain', 'svc.spec.ports', '--output=plaintext-openapiv2']), cp());
      assert.match(ports, /RESOURCE:\s+ports <\[\]Object>/);
      assert.match(ports, /\n\s+port\t<integer> -required-\n/);
    });

    it('removing a port from the manifest removes it; re-applying unchanged is "unchanged"', async () => {
      const name = uniqueName('svc');
      const kind = `service/${name}`;
      assert.equal(ok(await run(['apply', '-f', '-'], service(name, ns(), [HTTP, HTTPS])), cp()), `${kind} created`);
      assert.equal(ok(await run(['apply', '-f', '-'], service(name, ns(), [HTTP])), cp()), `${kind} configured`);
      const ports = JSON.parse(ok(await run(['get', 'service', name, '-n', ns(), '-o', 'jsonpath={.spec.ports}']), cp())) as Port[];
      assert.deepEqual(
        ports.map((p) => [p.name, p.port]),
        [['http', 80]],
      );
      assert.equal(ok(await run(['apply', '-f', '-'], service(name, ns(), [HTTP])), cp()), `${kind} unchanged`);
    });
  });
}
