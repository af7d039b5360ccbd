// The differential probe's battery (hack/compare-upstream.ts), part 2: updates, patches, apply,
// subresources, deletes, Content-Type and write query parameters, cluster-scoped objects.
import type { Case, Json, ServerState } from './compare-client.js';
import { GROUP } from './compare-crds.js';
import { G, NS, W, savedMeta, widget, wj } from './compare-battery.js';

const MERGE = 'application/merge-patch+json';
const JSONPATCH = 'application/json-patch+json';
const SMP = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

/** The saved object `key` with `edit` applied, as a PUT body. */
function edited(key: string, edit: (o: { [k: string]: Json }) => void): (s: ServerState) => string {
  return (s) => {
    const o = structuredClone(s.saved.get(key)) as { [k: string]: Json };
    edit(o);
    return JSON.stringify(o);
  };
}
const meta = (o: { [k: string]: Json }): { [k: string]: Json } => o['metadata'] as { [k: string]: Json };

function updateCases(): Case[] {
  const u = `${W}/upd`;
  return [
    { id: 'setup create upd', method: 'POST', path: W, body: wj('upd'), save: 'upd' },
    { id: 'PUT on collection', method: 'PUT', path: W, body: wj('upd') },
    { id: 'POST on named path', method: 'POST', path: u, body: wj('upd') },
    { id: 'DELETE on unknown subresource', method: 'DELETE', path: `${u}/nosuch` },
    { id: 'PUT same object', method: 'PUT', path: u, body: edited('upd', () => undefined), save: 'upd2' },
    { id: 'PUT stale resourceVersion', method: 'PUT', path: u, body: edited('upd', (o) => void ((o['spec'] as { [k: string]: Json })['image'] = 'stale')) },
    { id: 'PUT without resourceVersion', method: 'PUT', path: u, body: edited('upd2', (o) => void delete meta(o)['resourceVersion']) },
    { id: 'PUT resourceVersion garbage', method: 'PUT', path: u, body: edited('upd2', (o) => void (meta(o)['resourceVersion'] = 'abc')) },
    { id: 'PUT name differs from URL', method: 'PUT', path: u, body: edited('upd2', (o) => void (meta(o)['name'] = 'other')) },
    { id: 'PUT name missing in body', method: 'PUT', path: u, body: edited('upd2', (o) => void delete meta(o)['name']) },
    { id: 'PUT namespace differs', method: 'PUT', path: u, body: edited('upd2', (o) => void (meta(o)['namespace'] = 'other')) },
    { id: 'PUT uid changed', method: 'PUT', path: u, body: edited('upd2', (o) => void (meta(o)['uid'] = 'other-uid')) },
    { id: 'PUT creationTimestamp changed', method: 'PUT', path: (s) => (s.saved.has('upd2') ? u : u), body: edited('upd2', (o) => void (meta(o)['creationTimestamp'] = '2001-01-01T00:00:00Z')) },
    { id: 'PUT invalid spec', method: 'PUT', path: u, body: edited('upd2', (o) => void (o['spec'] = { image: 5 })) },
    { id: 'PUT CEL violation', method: 'PUT', path: u, body: edited('upd2', (o) => void (o['spec'] = { image: 'a', replicas: 1, minReplicas: 3 })) },
    { id: 'PUT kind changed', method: 'PUT', path: u, body: edited('upd2', (o) => void (o['kind'] = 'Gizmo')) },
    { id: 'PUT apiVersion changed', method: 'PUT', path: u, body: edited('upd2', (o) => void (o['apiVersion'] = `${GROUP}/v2`)) },
    { id: 'PUT missing object', method: 'PUT', path: `${W}/nosuch`, body: wj('nosuch') },
    { id: 'PUT missing object with resourceVersion', method: 'PUT', path: `${W}/nosuch`, body: wj('nosuch', undefined, { resourceVersion: '5' }) },
    { id: 'PUT empty body', method: 'PUT', path: u, body: '' },
    { id: 'PUT truncated', method: 'PUT', path: u, body: '{"a":' },
    { id: 'PUT dryRun=All', method: 'PUT', path: `${u}?dryRun=All`, body: edited('upd2', (o) => void ((o['spec'] as { [k: string]: Json })['image'] = 'dry')) },
    { id: 'PUT unknown field Strict', method: 'PUT', path: `${u}?fieldValidation=Strict`, body: edited('upd2', (o) => void (o['bogus'] = 1)) },
    { id: 'PUT unknown field Warn', method: 'PUT', path: `${u}?fieldValidation=Warn`, body: edited('upd2', (o) => void (o['bogus'] = 1)) },
    { id: 'PUT status', method: 'PUT', path: `${u}/status`, body: edited('upd2', (o) => void (o['status'] = { replicas: 2, labelSelector: 'a=b' })) },
    { id: 'PUT status bad type', method: 'PUT', path: `${u}/status`, body: edited('upd2', (o) => void (o['status'] = { replicas: 'x' })) },
    { id: 'PUT status stale', method: 'PUT', path: `${u}/status`, body: edited('upd', (o) => void (o['status'] = { replicas: 3 })) },
    { id: 'PUT status name differs', method: 'PUT', path: `${u}/status`, body: edited('upd2', (o) => void (meta(o)['name'] = 'other')) },
    { id: 'GET after updates', method: 'GET', path: u, save: 'upd3' },
    { id: 'PUT scale', method: 'PUT', path: `${u}/scale`, body: JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'upd', namespace: NS }, spec: { replicas: 4 } }) },
    {
      id: 'PUT scale replicas string',
      method: 'PUT',
      path: `${u}/scale`,
      body: JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'upd', namespace: NS }, spec: { replicas: 'x' } }),
    },
    {
      id: 'PUT scale replicas -1',
      method: 'PUT',
      path: `${u}/scale`,
      body: JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'upd', namespace: NS }, spec: { replicas: -1 } }),
    },
    {
      id: 'PUT scale replicas 11 (schema max)',
      method: 'PUT',
      path: `${u}/scale`,
      body: JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'upd', namespace: NS }, spec: { replicas: 11 } }),
    },
    {
      id: 'PUT scale stale resourceVersion',
      method: 'PUT',
      path: `${u}/scale`,
      body: JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'upd', namespace: NS, resourceVersion: '1' }, spec: { replicas: 2 } }),
    },
    {
      id: 'PUT scale name differs',
      method: 'PUT',
      path: `${u}/scale`,
      body: JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'other', namespace: NS }, spec: { replicas: 2 } }),
    },
    { id: 'PUT scale wrong kind', method: 'PUT', path: `${u}/scale`, body: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'upd' }, spec: { replicas: 2 } }) },
    {
      id: 'PUT scale of missing object',
      method: 'PUT',
      path: `${W}/nosuch/scale`,
      body: JSON.stringify({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'nosuch', namespace: NS }, spec: { replicas: 2 } }),
    },
    { id: 'PATCH scale merge', method: 'PATCH', path: `${u}/scale`, body: '{"spec":{"replicas":5}}', ct: MERGE },
    { id: 'PATCH scale merge string', method: 'PATCH', path: `${u}/scale`, body: '{"spec":{"replicas":"5"}}', ct: MERGE },
    { id: 'PATCH scale of missing', method: 'PATCH', path: `${W}/nosuch/scale`, body: '{"spec":{"replicas":5}}', ct: MERGE },
    { id: 'PATCH status merge bad type', method: 'PATCH', path: `${u}/status`, body: '{"status":{"replicas":"x"}}', ct: MERGE },
    { id: 'PATCH status merge', method: 'PATCH', path: `${u}/status`, body: '{"status":{"replicas":1}}', ct: MERGE },
    { id: 'PUT on unknown subresource', method: 'PUT', path: `${u}/nosuch`, body: wj('upd') },
  ];
}

function patchCases(): Case[] {
  const p = `${W}/pat`;
  const pc = (id: string, body: string, ct: string | null, path = p): Case => ({ id: `patch ${id}`, method: 'PATCH', path, body, ct });
  return [
    { id: 'setup create pat', method: 'POST', path: W, body: wj('pat'), save: 'pat' },
    pc('json-patch not an array', '{"op":"add"}', JSONPATCH),
    pc('json-patch empty array', '[]', JSONPATCH),
    pc('json-patch array of strings', '["x"]', JSONPATCH),
    pc('json-patch invalid op', '[{"op":"bogus","path":"/spec/image","value":"x"}]', JSONPATCH),
    pc('json-patch missing op', '[{"path":"/spec/image","value":"x"}]', JSONPATCH),
    pc('json-patch missing path', '[{"op":"add","value":"x"}]', JSONPATCH),
    pc('json-patch missing value', '[{"op":"add","path":"/spec/image"}]', JSONPATCH),
    pc('json-patch path without slash', '[{"op":"add","path":"spec","value":"x"}]', JSONPATCH),
    pc('json-patch remove nonexistent', '[{"op":"remove","path":"/spec/nosuch"}]', JSONPATCH),
    pc('json-patch replace nonexistent', '[{"op":"replace","path":"/spec/nosuch","value":1}]', JSONPATCH),
    pc('json-patch add to missing parent', '[{"op":"add","path":"/a/b/c","value":1}]', JSONPATCH),
    pc('json-patch test failure', '[{"op":"test","path":"/spec/image","value":"nope"}]', JSONPATCH),
    pc('json-patch test ok', '[{"op":"test","path":"/spec/image","value":"img"}]', JSONPATCH),
    pc('json-patch move from missing', '[{"op":"move","from":"/spec/nosuch","path":"/spec/x"}]', JSONPATCH),
    pc('json-patch copy', '[{"op":"copy","from":"/spec/image","path":"/metadata/labels"}]', JSONPATCH),
    pc('json-patch array index out of range', '[{"op":"add","path":"/spec/ports/9","value":{"name":"z"}}]', JSONPATCH),
    pc('json-patch array index bad', '[{"op":"add","path":"/spec/ports/x","value":{"name":"z"}}]', JSONPATCH),
    pc('json-patch replace name', '[{"op":"replace","path":"/metadata/name","value":"other"}]', JSONPATCH),
    pc('json-patch replace namespace', '[{"op":"replace","path":"/metadata/namespace","value":"other"}]', JSONPATCH),
    pc('json-patch string value for int', '[{"op":"replace","path":"/spec/replicas","value":"x"}]', JSONPATCH),
    pc('json-patch remove root', '[{"op":"remove","path":""}]', JSONPATCH),
    pc('json-patch replace root with array', '[{"op":"replace","path":"","value":[]}]', JSONPATCH),
    pc('json-patch truncated', '[{"op":', JSONPATCH),
    pc('json-patch escaped path', '[{"op":"add","path":"/metadata/labels/a~1b","value":"x"}]', JSONPATCH),
    pc('json-patch bad escape', '[{"op":"add","path":"/metadata/labels/a~2b","value":"x"}]', JSONPATCH),
    pc('json-patch resourceVersion stale', '[{"op":"replace","path":"/metadata/resourceVersion","value":"1"}]', JSONPATCH),
    pc('merge non-object array', '[]', MERGE),
    pc('merge string', '"x"', MERGE),
    pc('merge null', 'null', MERGE),
    pc('merge number', '5', MERGE),
    pc('merge empty body', '', MERGE),
    pc('merge metadata null', '{"metadata":null}', MERGE),
    pc('merge spec null', '{"spec":null}', MERGE),
    pc('merge change name', '{"metadata":{"name":"other"}}', MERGE),
    pc('merge change namespace', '{"metadata":{"namespace":"other"}}', MERGE),
    pc('merge change uid', '{"metadata":{"uid":"other"}}', MERGE),
    pc('merge stale resourceVersion', '{"metadata":{"resourceVersion":"1"}}', MERGE),
    pc('merge bad type', '{"spec":{"replicas":"x"}}', MERGE),
    pc('merge unknown field', '{"spec":{"bogus":1}}', MERGE),
    pc('merge unknown field Strict', '{"spec":{"bogus":1}}', MERGE, `${p}?fieldValidation=Strict`),
    pc('merge unknown field Warn', '{"spec":{"bogus":1}}', MERGE, `${p}?fieldValidation=Warn`),
    pc('merge duplicate key Strict', '{"spec":{"image":"a","image":"b"}}', MERGE, `${p}?fieldValidation=Strict`),
    pc('merge labels', '{"metadata":{"labels":{"x":"y"}}}', MERGE),
    pc('merge kind changed', '{"kind":"Gizmo"}', MERGE),
    pc('merge apiVersion changed', `{"apiVersion":"${GROUP}/v2"}`, MERGE),
    pc('merge truncated', '{"spec":', MERGE),
    pc('merge missing object', '{"spec":{"image":"x"}}', MERGE, `${W}/nosuch`),
    pc('json-patch missing object', '[{"op":"add","path":"/spec/image","value":"x"}]', JSONPATCH, `${W}/nosuch`),
    pc('strategic merge on custom resource', '{"spec":{"image":"x"}}', SMP),
    pc('strategic merge on missing', '{"spec":{"image":"x"}}', SMP, `${W}/nosuch`),
    pc('content-type application/json', '{"spec":{"image":"x"}}', 'application/json'),
    pc('content-type missing', '{"spec":{"image":"x"}}', null),
    pc('content-type bogus', '{"spec":{"image":"x"}}', 'application/bogus'),
    pc('content-type yaml', 'spec:\n  image: x\n', 'application/yaml'),
    pc('merge with dryRun=bogus', '{"spec":{"image":"x"}}', MERGE, `${p}?dryRun=bogus`),
    pc('merge with dryRun=All', '{"spec":{"image":"dry"}}', MERGE, `${p}?dryRun=All`),
    pc('merge with force=true', '{"spec":{"image":"x"}}', MERGE, `${p}?force=true`),
    pc('merge with fieldManager 129 chars', '{"spec":{"image":"x"}}', MERGE, `${p}?fieldManager=${'m'.repeat(129)}`),
    pc('merge with fieldManager control char', '{"spec":{"image":"x"}}', MERGE, `${p}?fieldManager=a%01b`),
    pc('merge with fieldValidation=bogus', '{"spec":{"image":"x"}}', MERGE, `${p}?fieldValidation=bogus`),
    pc('merge CEL violation', '{"spec":{"minReplicas":9}}', MERGE),
    pc('merge list-map dup', '{"spec":{"ports":[{"name":"a"},{"name":"a"}]}}', MERGE),
    { id: 'patch GET result', method: 'GET', path: p },
  ];
}

function applyCases(): Case[] {
  const a = `${W}/app`;
  const yaml = (image: string, extra = ''): string => `apiVersion: ${GROUP}/v1\nkind: Widget\nmetadata:\n  name: app\nspec:\n  image: ${image}\n${extra}`;
  const ap = (id: string, query: string, body: string, path = a): Case => ({ id: `apply ${id}`, method: 'PATCH', path: `${path}${query}`, body, ct: APPLY });
  return [
    ap('without fieldManager', '', yaml('a')),
    ap('creates', '?fieldManager=mgr-a', yaml('a', '  replicas: 3\n')),
    ap('same manager again', '?fieldManager=mgr-a', yaml('a', '  replicas: 3\n')),
    ap('conflict second manager', '?fieldManager=mgr-b', yaml('b', '  replicas: 4\n')),
    ap('conflict second manager dryRun', '?fieldManager=mgr-b&dryRun=All', yaml('b')),
    ap('force second manager', '?fieldManager=mgr-b&force=true', yaml('b')),
    ap('force=bogus', '?fieldManager=mgr-b&force=bogus', yaml('b')),
    ap('wrong apiVersion', '?fieldManager=mgr-a', yaml('a').replace(`${GROUP}/v1`, `${GROUP}/v2`)),
    ap('apiVersion missing', '?fieldManager=mgr-a', yaml('a').replace(/^apiVersion.*\n/, '')),
    ap('kind missing', '?fieldManager=mgr-a', yaml('a').replace(/kind: Widget\n/, '')),
    ap('kind mismatch', '?fieldManager=mgr-a', yaml('a').replace('kind: Widget', 'kind: Gizmo')),
    ap('name mismatch', '?fieldManager=mgr-a', yaml('a').replace('name: app', 'name: other')),
    ap('name missing', '?fieldManager=mgr-a', yaml('a').replace('  name: app\n', '  labels: {}\n')),
    ap('namespace mismatch', '?fieldManager=mgr-a', yaml('a').replace('name: app', 'name: app\n  namespace: other')),
    ap('invalid YAML', '?fieldManager=mgr-a', 'apiVersion: [\n'),
    ap('YAML list', '?fieldManager=mgr-a', '- a\n'),
    ap('empty body', '?fieldManager=mgr-a', ''),
    ap('JSON body', '?fieldManager=mgr-a', JSON.stringify(widget('app', { image: 'j' }))),
    ap('managedFields set', '?fieldManager=mgr-a', yaml('a').replace('  name: app\n', '  name: app\n  managedFields: [{manager: x}]\n')),
    ap('resourceVersion stale', '?fieldManager=mgr-a', yaml('a').replace('  name: app\n', '  name: app\n  resourceVersion: "1"\n')),
    ap('unknown field (Strict default)', '?fieldManager=mgr-a', yaml('a', '  bogus: 1\n')),
    ap('unknown field Warn', '?fieldManager=mgr-a&fieldValidation=Warn', yaml('a', '  bogus: 1\n')),
    ap('unknown field Ignore', '?fieldManager=mgr-a&fieldValidation=Ignore', yaml('a', '  bogus: 1\n')),
    ap('duplicate key', '?fieldManager=mgr-a', yaml('a', '  image: c\n')),
    ap('duplicate key Ignore', '?fieldManager=mgr-a&fieldValidation=Ignore', yaml('a', '  image: c\n')),
    ap('schema violation', '?fieldManager=mgr-a', yaml('a', '  replicas: 99\n')),
    ap('list-map duplicate key', '?fieldManager=mgr-a', yaml('a', '  ports: [{name: x}, {name: x}]\n')),
    ap('list-map item missing key', '?fieldManager=mgr-a', yaml('a', '  ports: [{port: 1}]\n')),
    ap('fieldManager 129 chars', `?fieldManager=${'m'.repeat(129)}`, yaml('a')),
    ap('status subresource', '?fieldManager=mgr-a', yaml('a').replace(/spec:[\s\S]*/, 'status:\n  replicas: 2\n'), `${a}/status`),
    ap('scale subresource', '?fieldManager=mgr-a', `apiVersion: autoscaling/v1\nkind: Scale\nmetadata:\n  name: app\nspec:\n  replicas: 2\n`, `${a}/scale`),
    ap('missing object status', '?fieldManager=mgr-a', yaml('a').replace('name: app', 'name: nosuch'), `${W}/nosuch/status`),
    { id: 'apply GET result', method: 'GET', path: a },
  ];
}

function deleteCases(): Case[] {
  const d = (id: string, name: string, query = '', body?: string): Case => ({ id: `delete ${id}`, method: 'DELETE', path: `${W}/${name}${query}`, ...(body !== undefined ? { body } : {}) });
  const setup = (name: string): Case => ({ id: `setup create ${name}`, method: 'POST', path: W, body: wj(name), save: name });
  const opts = (o: { [k: string]: Json }): string => JSON.stringify({ apiVersion: 'v1', kind: 'DeleteOptions', ...o });
  return [
    setup('del1'),
    d('body invalid JSON', 'del1', '', '{"x":'),
    d('body array', 'del1', '', '[]'),
    d('body kind Pod', 'del1', '', JSON.stringify({ apiVersion: 'v1', kind: 'Pod' })),
    d('precondition uid mismatch', 'del1', '', opts({ preconditions: { uid: 'nope' } })),
    d('precondition resourceVersion mismatch', 'del1', '', opts({ preconditions: { resourceVersion: '1' } })),
    d('propagationPolicy bogus (body)', 'del1', '', opts({ propagationPolicy: 'Bogus' })),
    d('propagationPolicy bogus (query)', 'del1', '?propagationPolicy=Bogus'),
    d('gracePeriodSeconds=-5', 'del1', '?gracePeriodSeconds=-5', undefined),
    d('gracePeriodSeconds=abc', 'del1', '?gracePeriodSeconds=abc'),
    d('dryRun=bogus', 'del1', '?dryRun=bogus'),
    d('dryRun=All', 'del1', '?dryRun=All'),
    d('orphanDependents and propagationPolicy', 'del1', '', opts({ orphanDependents: true, propagationPolicy: 'Foreground' })),
    d('body meta.k8s.io/v1 DeleteOptions', 'del1', '', JSON.stringify({ apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', propagationPolicy: 'Background' })),
    d('missing object', 'nosuch'),
    setup('del2'),
    {
      id: 'delete precondition uid matching',
      method: 'DELETE',
      path: `${W}/del2`,
      body: (s) => opts({ preconditions: { uid: savedMeta(s, 'del2', 'uid'), resourceVersion: savedMeta(s, 'del2', 'resourceVersion') } }),
    },
    { id: 'setup create del3 with finalizer', method: 'POST', path: W, body: wj('del3', undefined, { finalizers: ['example.com/f'], labels: { dc: 'x' } }) },
    d('with finalizer', 'del3'),
    d('with finalizer again', 'del3'),
    { id: 'PUT object being deleted', method: 'PATCH', path: `${W}/del3`, body: '{"metadata":{"labels":{"y":"z"}}}', ct: MERGE },
    { id: 'remove finalizer', method: 'PATCH', path: `${W}/del3`, body: '{"metadata":{"finalizers":null}}', ct: MERGE },
    { id: 'setup create dc1', method: 'POST', path: W, body: wj('dc1', undefined, { labels: { dc: 'y' } }) },
    { id: 'deletecollection bad labelSelector', method: 'DELETE', path: `${W}?labelSelector=!!` },
    { id: 'deletecollection bad fieldSelector', method: 'DELETE', path: `${W}?fieldSelector=spec.image%3Dx` },
    { id: 'deletecollection dryRun', method: 'DELETE', path: `${W}?labelSelector=dc%3Dy&dryRun=All` },
    { id: 'deletecollection with selector', method: 'DELETE', path: `${W}?labelSelector=dc%3Dy` },
    { id: 'deletecollection body preconditions', method: 'DELETE', path: `${W}?labelSelector=dc%3Dnone`, body: opts({ preconditions: { uid: 'x' } }) },
    { id: 'deletecollection all namespaces', method: 'DELETE', path: `/apis/${GROUP}/v1/widgets?labelSelector=dc%3Dnone` },
  ];
}

function miscCases(): Case[] {
  const c = (id: string, ct: string | null, body: string | Buffer = wj(`ct-${id.replace(/[^a-z]/g, '').slice(0, 30)}`, { image: 'a' })): Case => ({
    id: `create content-type ${id}`,
    method: 'POST',
    path: W,
    body,
    ct,
  });
  const q = (id: string, query: string): Case => ({ id: `create query ${id}`, method: 'POST', path: `${W}?${query}`, body: wj(`q-${id.replace(/[^a-z0-9]/g, '').slice(0, 30)}`, { image: 'a' }) });
  const gz = (id: string, body: string, path = G, method: 'POST' | 'PUT' = 'POST'): Case => ({ id: `gizmo ${id}`, method, path, body });
  const gizmo = (name: string, m: { [k: string]: Json } = {}): string => JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Gizmo', metadata: { name, ...m }, spec: { size: 1 } });
  return [
    c('missing', null),
    c('text/plain', 'text/plain'),
    c('json charset utf-16', 'application/json; charset=utf-16'),
    c('json charset utf-8', 'application/json; charset=utf-8'),
    c('protobuf', 'application/vnd.kubernetes.protobuf'),
    c('merge-patch on POST', MERGE),
    c('apply on POST', APPLY),
    c('bogus', 'bogus'),
    c('empty', ''),
    c('multipart', 'multipart/form-data; boundary=x'),
    q('dryRun=bogus', 'dryRun=bogus'),
    q('dryRun=All', 'dryRun=All'),
    q('dryRun twice', 'dryRun=All&dryRun=All'),
    q('fieldManager 129 chars', `fieldManager=${'m'.repeat(129)}`),
    q('fieldManager 128 chars', `fieldManager=${'m'.repeat(128)}`),
    q('fieldManager control char', 'fieldManager=a%01b'),
    q('fieldManager newline', 'fieldManager=a%0Ab'),
    q('fieldManager unicode', 'fieldManager=%C3%A9'),
    q('fieldValidation=bogus', 'fieldValidation=bogus'),
    q('fieldValidation twice', 'fieldValidation=Strict&fieldValidation=Warn'),
    q('pretty=true', 'pretty=true'),
    q('unknown parameter', 'nosuch=1'),
    q('force=true on create', 'force=true'),
    gz('create', gizmo('g1')),
    gz('create with namespace in body', gizmo('g2', { namespace: NS })),
    gz('create under a namespace path', gizmo('g3'), `/apis/${GROUP}/v1/namespaces/${NS}/gizmos`),
    gz('create size string', JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Gizmo', metadata: { name: 'g4' }, spec: { size: 'x' } })),
    gz('create unknown field', JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'Gizmo', metadata: { name: 'g5' }, spec: { size: 1, bogus: 2 } })),
    gz('create kind Widget', JSON.stringify({ ...widget('g6'), kind: 'Widget' })),
    gz('create duplicate', gizmo('g1')),
    gz('PUT missing', gizmo('nosuch'), `${G}/nosuch`, 'PUT'),
    { id: 'gizmo get', method: 'GET', path: `${G}/g1` },
    { id: 'gizmo get with namespace path', method: 'GET', path: `/apis/${GROUP}/v1/namespaces/${NS}/gizmos/g1` },
    { id: 'gizmo status (no subresource)', method: 'GET', path: `${G}/g1/status` },
    { id: 'gizmo scale (no subresource)', method: 'GET', path: `${G}/g1/scale` },
    { id: 'gizmo delete', method: 'DELETE', path: `${G}/g2` },
    { id: 'widget duplicate create', method: 'POST', path: W, body: wj('upd') },
    { id: 'widget duplicate create dryRun', method: 'POST', path: `${W}?dryRun=All`, body: wj('upd') },
    { id: 'HEAD widget', method: 'HEAD', path: `${W}/upd` },
    { id: 'OPTIONS widget', method: 'OPTIONS', path: `${W}/upd` },
    { id: 'list after everything', method: 'GET', path: W },
    { id: 'list as Table after everything', method: 'GET', path: W, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
  ];
}

export const battery2 = (): Case[] => [...updateCases(), ...patchCases(), ...applyCases(), ...deleteCases(), ...miscCases()];
