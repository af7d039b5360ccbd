// Valid requests of every verb, so the fuzz also writes: each slot (a name per kind) is created,
// read, updated, patched with every patch type, written through its status and scale
// subresources, and deleted (one by one or by deletecollection) in turn, decided from the model
// when the request is sent. Every one must succeed; the model then holds what was acknowledged.
import { NOT_FOUND, SUCCESS, type Expect, type FuzzCase, type Sent } from '../cases.js';
import type { Model } from '../model.js';
import type { Rand } from '../prng.js';
import { current, getPath, keyOf, verbRequest, type Aim, type FuzzContext } from '../requests.js';
import { crTarget, targets, type Obj, type PatchType, type Target } from '../targets.js';

type Op = 'get' | 'list' | 'watch' | 'update' | 'patch' | 'status' | 'scale' | 'delete' | 'deletecollection';
const OPS: readonly Op[] = ['get', 'list', 'watch', 'update', 'update', 'patch', 'patch', 'patch', 'status', 'scale', 'delete', 'deletecollection'];

const annotatedWith = (value: string): Expect => ({
  code: 'success',
  check: (body) => (getPath(body, ['metadata', 'annotations', 'fz-valid']) === value ? undefined : `annotation fz-valid not ${value}: ${JSON.stringify(getPath(body, ['metadata'])).slice(0, 300)}`),
});

const listed: Expect = { code: 'success', check: (body) => (Array.isArray((body as { items?: unknown }).items) ? undefined : `no items: ${JSON.stringify(body).slice(0, 200)}`) };
const events: Expect = {
  code: 'success',
  check: (body) =>
    (body as Array<{ type?: unknown; object?: unknown }>).every((e) => typeof e.type === 'string' && typeof e.object === 'object')
      ? undefined
      : `not watch events: ${JSON.stringify(body).slice(0, 200)}`,
};

/** A status every kind accepts, as a whole status or as a merge patch. */
function statusFor(t: Target, n: number): Obj {
  switch (t.id) {
    case 'namespace':
      return { phase: 'Active' };
    case 'service':
      return { loadBalancer: { ingress: [{ ip: `192.0.2.${1 + (n % 250)}` }] } };
    case 'flunder':
      return { conditions: [{ type: 'ReferenceResolved', status: 'True', reason: 'Fuzz', message: `m${n}`, lastTransitionTime: '2026-01-01T00:00:00Z' }] };
    case 'crontab':
      return { replicas: n % 10, labelSelector: `fz=${n}` };
  }
}

function patchDoc(pt: PatchType, a: Aim, o: Obj, value: string): unknown {
  if (pt === 'json')
    return getPath(o, ['metadata', 'annotations']) === undefined
      ? [{ op: 'add', path: '/metadata/annotations', value: { 'fz-valid': value } }]
      : [{ op: 'add', path: '/metadata/annotations/fz-valid', value }];
  if (pt === 'apply') return { apiVersion: a.t.apiVersion, kind: a.t.kind, metadata: { name: a.name, annotations: { 'fz-valid': value } } };
  return { metadata: { annotations: { 'fz-valid': value } } };
}

/** The request for `op` on the slot as the model has it. */
function slotRequest(op: Op, a: Aim, c: FuzzContext, m: Model, draw: { value: string; n: number; pt: PatchType }): Sent {
  const key = a.object as string;
  const o = m.get(key);
  if (!o) {
    // Absent: create it.
    return { req: verbRequest('create', a, c, { body: JSON.stringify(a.t.manifest(a.name, c.ns)), contentType: 'application/json' }), expect: [SUCCESS] };
  }
  if ((o['metadata'] as { deletionTimestamp?: string }).deletionTimestamp !== undefined) {
    // A Namespace being deleted: its controller removes it at a time of its own.
    return { req: verbRequest('get', a, c), expect: [SUCCESS, NOT_FOUND] };
  }
  const obj = current(m, key);
  switch (op) {
    case 'get':
      return { req: verbRequest('get', a, c, draw.n % 3 === 0 && a.t.subresources.includes('scale') ? { subresource: 'scale' } : {}), expect: [SUCCESS] };
    case 'list':
      return { req: verbRequest('list', a, c, { query: `labelSelector=fuzz%3Dyes&limit=${1 + (draw.n % 5)}` }), expect: [listed] };
    case 'watch':
      return { req: verbRequest('watch', a, c, { query: `fieldSelector=metadata.name%3D${a.name}&timeoutSeconds=1` }), expect: [events] };
    case 'update': {
      obj['metadata'] = { ...(obj['metadata'] as Obj), annotations: { ...(((obj['metadata'] as Obj)['annotations'] as Obj | undefined) ?? {}), 'fz-valid': draw.value } };
      return { req: verbRequest('update', a, c, { body: JSON.stringify(obj), contentType: 'application/json' }), expect: [annotatedWith(draw.value)] };
    }
    case 'patch': {
      const pt = draw.pt === 'strategic' && !a.t.strategic ? 'merge' : draw.pt;
      // An apply forces: fields earlier writes of the fuzz set belong to other managers.
      const req = verbRequest('patch', a, c, { body: JSON.stringify(patchDoc(pt, a, obj, draw.value)), patchType: pt, ...(pt === 'apply' ? { query: 'fieldManager=fuzz&force=true' } : {}) });
      return { req, expect: [annotatedWith(draw.value)] };
    }
    case 'status': {
      if (draw.n % 2 === 0)
        return { req: verbRequest('update', a, c, { body: JSON.stringify({ ...obj, status: statusFor(a.t, draw.n) }), contentType: 'application/json', subresource: 'status' }), expect: [SUCCESS] };
      return { req: verbRequest('patch', a, c, { body: JSON.stringify({ status: statusFor(a.t, draw.n) }), patchType: 'merge', subresource: 'status' }), expect: [SUCCESS] };
    }
    case 'scale': {
      if (a.t !== crTarget) return { req: verbRequest('get', a, c, { subresource: 'status' }), expect: [SUCCESS] };
      const replicas = 1 + (draw.n % 10);
      const check = (body: unknown): string | undefined =>
        getPath(body, ['spec', 'replicas']) === replicas ? undefined : `Scale spec.replicas is not ${replicas}: ${JSON.stringify(body).slice(0, 200)}`;
      return { req: verbRequest('patch', a, c, { body: JSON.stringify({ spec: { replicas } }), patchType: 'merge', subresource: 'scale' }), expect: [{ code: 'success', check }], refresh: true };
    }
    case 'delete':
      return { req: verbRequest('delete', a, c), expect: [SUCCESS] };
    case 'deletecollection':
      if (!a.t.deleteCollection) return { req: verbRequest('delete', a, c), expect: [SUCCESS] };
      return { req: verbRequest('deletecollection', a, c, { query: `fieldSelector=metadata.name%3D${a.name}` }), expect: [SUCCESS] };
  }
}

export const validSlot = (r: Rand, c: FuzzContext): FuzzCase => {
  const t = r.pick(targets);
  const name = r.pick(c.slots[t.id]);
  const a: Aim = { t, name, object: keyOf(t, c, name) };
  const op = r.pick(OPS);
  const draw = { value: r.str(10), n: r.int(1000), pt: r.pick(['json', 'merge', 'strategic', 'apply'] as const) };
  return {
    category: 'valid writes and reads',
    target: t.id,
    verb: op === 'status' || op === 'scale' ? 'patch' : op === 'deletecollection' ? 'deletecollection' : op === 'patch' ? 'patch' : op,
    answer: 'status',
    object: a.object as string,
    build: (m) => slotRequest(op, a, c, m, draw),
  };
};

/** Creates under generateName: the server picks the name; the model learns it from the answer. */
export const validGenerateName = (r: Rand, c: FuzzContext): FuzzCase => {
  const t = r.pick(targets);
  const o = t.manifest('x', c.ns);
  o['metadata'] = { generateName: 'fz-gen-', labels: { fuzz: 'yes' } };
  const check = (body: unknown): string | undefined =>
    /^fz-gen-[a-z0-9]{5}$/.test(String(getPath(body, ['metadata', 'name']))) ? undefined : `generated name ${JSON.stringify(getPath(body, ['metadata', 'name']))}`;
  return {
    category: 'valid writes and reads',
    target: t.id,
    verb: 'create',
    answer: 'status',
    build: () => ({ req: verbRequest('create', { t, name: 'unused' }, c, { body: JSON.stringify(o), contentType: 'application/json' }), expect: [{ code: 'success', check }] }),
  };
};
