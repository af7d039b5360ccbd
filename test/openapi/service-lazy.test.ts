// OpenAPIService with group versions given as builders (kube-openapi's handler3 computes a group
// version's spec on demand): nothing is built before a read, and what is served is byte for byte
// what the built document would have been.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { apiGroups } from '../../generated/index.js';
import { openAPIFromGroupDefinition } from '../../runtime/server/openapi/builder.js';
import { OpenAPIService } from '../../runtime/server/openapi/service.js';
import type { OpenAPIV3Document } from '../../runtime/server/openapi/types.js';

describe('OpenAPIService: group versions given as builders', () => {
  const clock = new Date('2025-01-02T03:04:05Z');

  it('builds nothing before a read, then serves the same bytes, root and /openapi/v2 as documents given built', () => {
    const eager = new OpenAPIService({ now: () => clock });
    const lazy = new OpenAPIService({ now: () => clock });
    const built: string[] = [];
    for (const def of apiGroups) {
      for (const gv of openAPIFromGroupDefinition(def)) {
        eager.setGroupVersion(gv.group, gv.version, gv.document);
      }
      for (const gv of openAPIFromGroupDefinition(def)) {
        lazy.setGroupVersion(gv.group, gv.version, (): OpenAPIV3Document => {
          built.push(`${gv.group}/${gv.version}`);
          return gv.document;
        });
      }
    }
    assert.deepEqual(built, []);
    assert.equal(lazy.groupVersion('api/v1')?.body.toString(), eager.groupVersion('api/v1')?.body.toString());
    assert.deepEqual(built, ['/v1']);
    assert.equal(lazy.groupVersion('api/v1')?.hash, eager.groupVersion('api/v1')?.hash);
    assert.deepEqual(built, ['/v1'], 'built once');
    assert.equal(lazy.root().body.toString(), eager.root().body.toString());
    assert.equal(lazy.swaggerV2().body.toString(), eager.swaggerV2().body.toString());
    assert.equal(new Set(built).size, built.length, 'each group version built once');
  });

  it('a builder that throws fails the read, and the next read tries again', () => {
    const service = new OpenAPIService({ now: () => clock });
    let calls = 0;
    service.setGroupVersion('example.com', 'v1', () => {
      calls++;
      throw new Error('openapi: unresolved reference #/components/schemas/x');
    });
    assert.throws(() => service.groupVersion('apis/example.com/v1'), /unresolved reference/);
    assert.throws(() => service.root(), /unresolved reference/);
    assert.equal(calls, 2);
  });
});
