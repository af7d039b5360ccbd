// The scale subresource of the custom resource with replicas kube refuses: negative or above the
// CRD's maximum (422: the Scale, then the custom resource, is validated), of a wrong type, out
// of int32 or removed (400 when the Scale cannot be decoded, 422 when the custom resource fails
// its schema: a missing replicas is 0, below the CRD's minimum), and Scale bodies of another kind
// or version (400).
import { BAD_REQUEST, INVALID, fixed, type Expect, type FuzzCase } from '../cases.js';
import type { Rand } from '../prng.js';
import { aimKeep, verbRequest, type FuzzContext } from '../requests.js';
import { crTarget } from '../targets.js';

export const scaleValues = (r: Rand, c: FuzzContext): FuzzCase => {
  const a = aimKeep(r, c, [crTarget]);
  const [replicas, expect] = r.pick<[unknown, Expect[]]>([
    [-1, [INVALID]],
    [11, [INVALID]],
    ['x', [BAD_REQUEST, INVALID]],
    [2.5, [BAD_REQUEST, INVALID]],
    [2 ** 31, [BAD_REQUEST, INVALID]],
    [null, [BAD_REQUEST, INVALID]],
    [{ a: 1 }, [BAD_REQUEST, INVALID]],
  ]);
  if (r.chance(0.7)) {
    const req = verbRequest('patch', a, c, { body: JSON.stringify({ spec: { replicas } }), patchType: r.pick(['merge', 'json'] as const), subresource: 'scale' });
    if (req.headers?.['Content-Type'] === 'application/json-patch+json') req.body = JSON.stringify([{ op: 'replace', path: '/spec/replicas', value: replicas }]);
    return fixed('scale subresource values', a.t.id, 'patch', req, expect, a.object);
  }
  const [apiVersion, kind] = r.pick([
    ['autoscaling/v2', 'Scale'],
    ['autoscaling/v1', 'Scales'],
    ['v1', 'Scale'],
    ['autoscaling/v1', 'CronTab'],
  ]);
  const body = JSON.stringify({ apiVersion, kind, metadata: { name: a.name, namespace: c.ns }, spec: { replicas: 1 } });
  return fixed('scale subresource values', a.t.id, 'update', verbRequest('update', a, c, { body, contentType: 'application/json', subresource: 'scale' }), [BAD_REQUEST], a.object);
};
