// The differential probe's battery (hack/compare-upstream.ts), part 1: creates with hostile
// bodies, YAML, names and metadata; reads with bad query parameters and Accept headers. Every
// case is sent to both servers in order, so the objects one case creates are there for the next.
import type { Case, Json, ServerState } from './compare-client.js';
import { GROUP } from './compare-crds.js';

export const NS = 'probe';
export const W = `/apis/${GROUP}/v1/namespaces/${NS}/widgets`;
export const WALL = `/apis/${GROUP}/v1/widgets`;
export const G = `/apis/${GROUP}/v1/gizmos`;

export function widget(
  name: string | undefined,
  spec: Json = { image: 'img', cronSpec: '*/5 * * * *', replicas: 2, ports: [{ name: 'http', port: 80 }] },
  meta: { [k: string]: Json } = {},
): { [k: string]: Json } {
  return { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { ...(name !== undefined ? { name } : {}), ...meta }, spec };
}
export const wj = (name: string | undefined, spec?: Json, meta: { [k: string]: Json } = {}): string => JSON.stringify(widget(name, spec, meta));

/** A saved object's field, e.g. its resourceVersion, for a later request to the same server. */
export function savedMeta(s: ServerState, key: string, field: 'resourceVersion' | 'uid'): string {
  const o = s.saved.get(key) as { metadata?: { [k: string]: Json } } | undefined;
  return String(o?.metadata?.[field] ?? '');
}

const post = (id: string, body: string | Buffer, extra: Partial<Case> = {}): Case => ({ id: `create ${id}`, method: 'POST', path: W, body, ...extra });

const VALIDATIONS = ['Strict', 'Warn', 'Ignore', 'bogus', 'strict'];

function bodyCases(): Case[] {
  const c: Case[] = [
    post('empty body', ''),
    post('truncated JSON', '{"apiVersion":"probe.example.com/v1","kind":"Widget","metadata":{"name":"t"'),
    post('truncated in string', '{"apiVersion":"probe.exa'),
    post('trailing garbage', `${wj('trail')}xyz`),
    post('two JSON objects', `${wj('two1')}${wj('two2')}`),
    post('array', '[]'),
    post('array of object', `[${wj('arr')}]`),
    post('string', '"widget"'),
    post('number', '42'),
    post('null', 'null'),
    post('true', 'true'),
    post('empty object', '{}'),
    post(
      'invalid UTF-8 in value',
      Buffer.concat([Buffer.from('{"apiVersion":"probe.example.com/v1","kind":"Widget","metadata":{"name":"utf"},"spec":{"image":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')]),
    ),
    post('BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(wj('bom'))])),
    post('leading whitespace', `  \n${wj('ws')}`),
    post('single quotes', "{'apiVersion':'probe.example.com/v1'}"),
    post('NaN', '{"apiVersion":"probe.example.com/v1","kind":"Widget","metadata":{"name":"nan"},"spec":{"image":"a","ratio":NaN}}'),
    post('comment', '{"apiVersion":"probe.example.com/v1",/* c */"kind":"Widget","metadata":{"name":"cm"},"spec":{"image":"a"}}'),
  ];
  const dup = '{"apiVersion":"probe.example.com/v1","kind":"Widget","metadata":{"name":"NAME","name":"NAME"},"spec":{"image":"a","image":"b"}}';
  const unknown = (n: string): string => JSON.stringify({ ...widget(n), bogusTop: 1, metadata: { name: n, bogusMeta: 2 }, spec: { image: 'a', bogusSpec: 3, ports: [{ name: 'p', bogusItem: 4 }] } });
  for (const [i, fv] of ['', ...VALIDATIONS].entries()) {
    const q = fv === '' ? '' : `?fieldValidation=${fv}`;
    c.push(post(`duplicate keys fieldValidation=${fv || '(none)'}`, dup.replaceAll('NAME', `dup${i}`), { path: W + q }));
    c.push(post(`unknown fields fieldValidation=${fv || '(none)'}`, unknown(`unk${i}`), { path: W + q }));
    c.push(
      post(`duplicate keys YAML fieldValidation=${fv || '(none)'}`, `apiVersion: probe.example.com/v1\nkind: Widget\nmetadata:\n  name: ydup${i}\nspec:\n  image: a\n  image: b\n`, {
        path: W + q,
        ct: 'application/yaml',
      }),
    );
    c.push(
      post(`unknown apply-less meta field fieldValidation=${fv || '(none)'}`, JSON.stringify({ ...widget(`um${i}`), metadata: { name: `um${i}`, labels: { a: 'b' }, finalizer: ['x'] } }), {
        path: W + q,
      }),
    );
  }
  const proto = (n: string, where: string): string => {
    const o = widget(n) as { [k: string]: { [k: string]: Json } };
    const inject = '"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}';
    const s = JSON.stringify(o);
    if (where === 'top') return s.replace(/^\{/, `{${inject},`);
    if (where === 'metadata') return s.replace('"metadata":{', `"metadata":{${inject},`);
    if (where === 'labels') return s.replace('"metadata":{', `"metadata":{"labels":{"__proto__":"x","constructor":"y"},`);
    return s.replace('"spec":{', `"spec":{${inject},`);
  };
  for (const where of ['top', 'metadata', 'labels', 'spec']) {
    c.push(post(`__proto__/constructor keys in ${where}`, proto(`proto-${where}`, where)));
    c.push(post(`__proto__/constructor keys in ${where} Strict`, proto(`protos-${where}`, where), { path: `${W}?fieldValidation=Strict` }));
  }
  c.push(post('__proto__ in free (preserve-unknown)', wj('proto-free', { image: 'a', free: JSON.parse('{"__proto__":{"x":1},"constructor":{"y":2}}') as Json })));
  c.push(post('10,000-deep arrays', `{"apiVersion":"probe.example.com/v1","kind":"Widget","metadata":{"name":"deep1"},"spec":{"image":"a","free":{"x":${'['.repeat(10000)}${']'.repeat(10000)}}}}`));
  c.push(post('10,000-deep objects', `{"apiVersion":"probe.example.com/v1","kind":"Widget","metadata":{"name":"deep2"},"spec":{"image":"a","free":${'{"a":'.repeat(10000)}1${'}'.repeat(10000)}}}`));
  c.push(post('100-deep objects', `{"apiVersion":"probe.example.com/v1","kind":"Widget","metadata":{"name":"deep3"},"spec":{"image":"a","free":${'{"a":'.repeat(100)}1${'}'.repeat(100)}}}`));
  const num = (id: string, raw: string, field = 'replicas'): Case =>
    post(`number ${id}`, `{"apiVersion":"probe.example.com/v1","kind":"Widget","metadata":{"name":"num-${id.replace(/[^a-z0-9]/g, '')}"},"spec":{"image":"a","${field}":${raw}}}`);
  c.push(num('1e400', '1e400'), num('huge int', '99999999999999999999'), num('float 1.5', '1.5'), num('1.0', '1.0'), num('1e0', '1e0'), num('string', '"2"'), num('negative', '-1'));
  c.push(num('above maximum', '11'), num('null', 'null'), num('bool', 'true'), num('neg zero', '-0'), num('int32 overflow', '3000000000', 'minReplicas'));
  c.push(num('ratio 1e400', '1e400', 'ratio'), num('ratio string', '"x"', 'ratio'), num('enabled string', '"true"', 'enabled'), num('mode not in enum', '"c"', 'mode'));
  c.push(num('image too long', JSON.stringify('x'.repeat(65)), 'image'), num('image object', '{}', 'image'), num('cronSpec bad pattern', '"nope"', 'cronSpec'));
  c.push(post('CEL rule violated', wj('cel-bad', { image: 'a', replicas: 1, minReplicas: 5 })));
  c.push(post('required image missing', wj('noimage', { replicas: 1 })));
  c.push(post('spec not an object', wj('specstr', 'x')));
  c.push(
    post(
      'list-map duplicate keys',
      wj('lmdup', {
        image: 'a',
        ports: [
          { name: 'a', port: 1 },
          { name: 'a', port: 2 },
        ],
      }),
    ),
  );
  c.push(post('list-map item missing key', wj('lmnokey', { image: 'a', ports: [{ port: 1 }] })));
  c.push(post('list-set duplicates', wj('setdup', { image: 'a', tags: ['x', 'x'] })));
  c.push(post('extra map with int', wj('extraint', { image: 'a', extra: { a: 1 } })));
  c.push(post('3 MiB body', wj('big', { image: 'a' }, { annotations: { big: 'x'.repeat(3 * 1024 * 1024 + 10) } })));
  c.push(post('300 KiB annotations', wj('bigann', { image: 'a' }, { annotations: { a: 'x'.repeat(300 * 1024) } })));
  c.push(post('apiVersion missing', JSON.stringify({ kind: 'Widget', metadata: { name: 'noapi' }, spec: { image: 'a' } })));
  c.push(post('kind missing', JSON.stringify({ apiVersion: `${GROUP}/v1`, metadata: { name: 'nokind' }, spec: { image: 'a' } })));
  c.push(post('both missing', JSON.stringify({ metadata: { name: 'noboth' }, spec: { image: 'a' } })));
  c.push(post('apiVersion other version', JSON.stringify({ ...widget('v2'), apiVersion: `${GROUP}/v2` })));
  c.push(post('apiVersion core v1', JSON.stringify({ ...widget('corev1'), apiVersion: 'v1' })));
  c.push(post('apiVersion other group', JSON.stringify({ ...widget('og'), apiVersion: 'stable.example.com/v1' })));
  c.push(post('apiVersion malformed', JSON.stringify({ ...widget('mal'), apiVersion: 'a/b/c' })));
  c.push(post('kind Gizmo', JSON.stringify({ ...widget('kg'), kind: 'Gizmo' })));
  c.push(post('kind Pod', JSON.stringify({ ...widget('kp'), kind: 'Pod' })));
  c.push(post('kind lowercase', JSON.stringify({ ...widget('kl'), kind: 'widget' })));
  c.push(post('kind WidgetList', JSON.stringify({ ...widget('kwl'), kind: 'WidgetList' })));
  c.push(post('apiVersion number', JSON.stringify({ ...widget('avn'), apiVersion: 1 })));
  c.push(post('metadata array', JSON.stringify({ ...widget('x'), metadata: [] })));
  c.push(post('metadata string', JSON.stringify({ ...widget('x'), metadata: 'x' })));
  c.push(post('metadata.name number', JSON.stringify({ ...widget('x'), metadata: { name: 5 } })));
  c.push(post('labels array', wj('labarr', { image: 'a' }, { labels: ['a'] })));
  c.push(post('label value number', wj('labnum', { image: 'a' }, { labels: { a: 1 } })));
  c.push(post('namespace differs from URL', wj('nsdiff', { image: 'a' }, { namespace: 'other' })));
  c.push(post('namespace matches URL', wj('nssame', { image: 'a' }, { namespace: NS })));
  c.push({ id: 'create into missing namespace', method: 'POST', path: `/apis/${GROUP}/v1/namespaces/nosuchns/widgets`, body: wj('nons', { image: 'a' }) });
  c.push({ id: 'create into bad namespace name', method: 'POST', path: `/apis/${GROUP}/v1/namespaces/Bad_NS/widgets`, body: wj('badns', { image: 'a' }) });
  return c;
}

function yamlCases(): Case[] {
  const y = (id: string, body: string): Case => post(`YAML ${id}`, body, { ct: 'application/yaml' });
  const head = (n: string): string => `apiVersion: probe.example.com/v1\nkind: Widget\nmetadata:\n  name: ${n}\n`;
  return [
    y('valid', `${head('yok')}spec:\n  image: a\n  replicas: 3\n`),
    y('bad indentation', `${head('yind')}spec:\n  image: a\n   replicas: 3\n`),
    y('unclosed double quote', `${head('yq')}spec:\n  image: "a\n`),
    y('unclosed single quote', `${head('yq2')}spec:\n  image: 'a\n`),
    y('tab indentation', `${head('ytab')}spec:\n\timage: a\n`),
    y('unclosed flow', `${head('yflow')}spec: {image: a\n`),
    y(
      'alias bomb',
      `a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n${head('ybomb')}spec:\n  image: a\n`,
    ),
    y('anchors and aliases', `${head('yalias')}spec:\n  image: &img a\n  tags: [*img]\n`),
    y('undefined alias', `${head('yundef')}spec:\n  image: *nope\n`),
    y('two documents', `${head('ymd1')}spec:\n  image: a\n---\n${head('ymd2')}spec:\n  image: b\n`),
    y('leading document marker', `---\n${head('ylead')}spec:\n  image: a\n`),
    y('!!binary tag', `${head('ybin')}spec:\n  image: !!binary aGVsbG8=\n`),
    y('custom tag', `${head('ytag')}spec:\n  image: !custom a\n`),
    y('!!int on string', `${head('ytint')}spec:\n  image: !!int 5\n`),
    y('list', `- a\n- b\n`),
    y('scalar', `hello\n`),
    y('empty', ``),
    y('only comment', `# nothing\n`),
    y('null document', `null\n`),
    y('non-string key', `${head('ykey')}spec:\n  image: a\n  extra:\n    1: x\n`),
    y('yes/no booleans', `${head('yyes')}spec:\n  image: a\n  enabled: yes\n`),
    y('octal number', `${head('yoct')}spec:\n  image: a\n  replicas: 010\n`),
    y('merge key', `base: &b {image: a}\n${head('ymerge')}spec:\n  <<: *b\n`),
    y('JSON as YAML', wj('yjson', { image: 'a' })),
  ];
}

function nameCases(): Case[] {
  const n = (id: string, name: string | undefined, meta: { [k: string]: Json } = {}): Case => post(`name ${id}`, wj(name, { image: 'a' }, meta));
  return [
    n('uppercase', 'UPPER'),
    n('254 chars', 'a'.repeat(254)),
    n('253 chars', 'a'.repeat(253)),
    n('64-char label', 'b'.repeat(64)),
    n('dots', 'a.b.c'),
    n('empty', ''),
    n('missing', undefined),
    n('generateName only', undefined, { generateName: 'gen-' }),
    n('generateName invalid', undefined, { generateName: 'GEN_' }),
    n('generateName 300 chars', undefined, { generateName: 'g'.repeat(300) }),
    n('.. ', '..'),
    n('.', '.'),
    n('slash', 'a/b'),
    n('percent', 'a%b'),
    n('space', 'a b'),
    n('leading dash', '-a'),
    n('trailing dot', 'a.'),
    n('unicode', 'ünï'),
    n('colon', 'a:b'),
    { id: 'get name %2F', method: 'GET', path: `${W}/a%2Fb` },
    { id: 'get name %00', method: 'GET', path: `${W}/a%00b` },
    { id: 'get name ..', method: 'GET', path: `${W}/..` },
    { id: 'get name %2E%2E', method: 'GET', path: `${W}/%2E%2E` },
    { id: 'get name UPPER (missing)', method: 'GET', path: `${W}/UPPER` },
    { id: 'get name with colon', method: 'GET', path: `${W}/a:b` },
    { id: 'get missing widget', method: 'GET', path: `${W}/nosuch` },
    { id: 'get missing gizmo', method: 'GET', path: `${G}/nosuch` },
  ];
}

function metadataCases(): Case[] {
  const m = (id: string, meta: { [k: string]: Json }, name = `meta-${id.replace(/[^a-z0-9]/g, '').slice(0, 40)}`): Case => post(`metadata ${id}`, wj(name, { image: 'a' }, meta));
  return [
    m('label key with space', { labels: { 'bad key': 'v' } }),
    m('label value 64 chars', { labels: { k: 'v'.repeat(64) } }),
    m('label value bad chars', { labels: { k: 'a b' } }),
    m('label prefix too long', { labels: { [`${'p'.repeat(254)}/k`]: 'v' } }),
    m('label name too long', { labels: { ['k'.repeat(64)]: 'v' } }),
    m('label empty key', { labels: { '': 'v' } }),
    m('label two slashes', { labels: { 'a/b/c': 'v' } }),
    m('annotation bad key', { annotations: { 'bad key!': 'v' } }),
    m('annotation empty key', { annotations: { '': 'v' } }),
    m('annotations 256 KiB + 1', { annotations: { a: 'x'.repeat(256 * 1024) } }),
    m('finalizer no slash', { finalizers: ['bad'] }),
    m('finalizer kubernetes', { finalizers: ['kubernetes'] }),
    m('finalizer ok', { finalizers: ['example.com/ok'] }),
    m('finalizer two slashes', { finalizers: ['a/b/c'] }),
    m('finalizer empty', { finalizers: [''] }),
    m('finalizer duplicate', { finalizers: ['example.com/a', 'example.com/a'] }),
    m('ownerRef missing uid', { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p' }] }),
    m('ownerRef missing name', { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', uid: '1' }] }),
    m('ownerRef missing kind and apiVersion', { ownerReferences: [{ name: 'p', uid: '1' }] }),
    m('ownerRef two controllers', {
      ownerReferences: [
        { apiVersion: 'v1', kind: 'Pod', name: 'p', uid: '1', controller: true },
        { apiVersion: 'v1', kind: 'Pod', name: 'q', uid: '2', controller: true },
      ],
    }),
    m('ownerRef apiVersion bad', { ownerReferences: [{ apiVersion: 'a/b/c', kind: 'Pod', name: 'p', uid: '1' }] }),
    m('managedFields garbage entry', { managedFields: [{ manager: 1 }] }),
    m('managedFields empty entry', { managedFields: [{}] }),
    m('managedFields string', { managedFields: 'x' }),
    m('managedFields bad fieldsV1', { managedFields: [{ manager: 'm', operation: 'Apply', apiVersion: `${GROUP}/v1`, fieldsType: 'FieldsV1', fieldsV1: { 'f:nope': 1 } }] }),
    m('managedFields bad operation', { managedFields: [{ manager: 'm', operation: 'Bogus', apiVersion: `${GROUP}/v1`, fieldsType: 'FieldsV1', fieldsV1: {} }] }),
    m('resourceVersion set', { resourceVersion: '123' }),
    m('resourceVersion garbage', { resourceVersion: 'abc' }),
    m('uid set', { uid: 'my-uid' }),
    m('creationTimestamp set', { creationTimestamp: '2001-01-01T00:00:00Z' }),
    m('creationTimestamp garbage', { creationTimestamp: 'yesterday' }),
    m('deletionTimestamp set', { deletionTimestamp: '2001-01-01T00:00:00Z' }),
    m('deletionGracePeriodSeconds set', { deletionGracePeriodSeconds: 5 }),
    m('generation set', { generation: 7 }),
    m('selfLink set', { selfLink: '/x' }),
  ];
}

function readCases(): Case[] {
  const q = (id: string, query: string, base = W): Case => ({ id: `list ${id}`, method: 'GET', path: `${base}?${query}` });
  const c: Case[] = [
    { id: 'list widgets', method: 'GET', path: W },
    { id: 'list widgets all namespaces', method: 'GET', path: WALL },
    { id: 'list gizmos', method: 'GET', path: G },
    q('limit=-1', 'limit=-1'),
    q('limit=abc', 'limit=abc'),
    q('limit=0', 'limit=0'),
    q('limit=2', 'limit=2'),
    q('limit=1.5', 'limit=1.5'),
    q('resourceVersion=abc', 'resourceVersion=abc'),
    q('resourceVersion=-1', 'resourceVersion=-1'),
    q('resourceVersion=99999999', 'resourceVersion=99999999'),
    q('resourceVersionMatch=bogus', 'resourceVersionMatch=bogus'),
    q('resourceVersionMatch=bogus&resourceVersion=0', 'resourceVersionMatch=bogus&resourceVersion=0'),
    q('resourceVersionMatch=Exact without RV', 'resourceVersionMatch=Exact'),
    q('resourceVersionMatch=NotOlderThan without RV', 'resourceVersionMatch=NotOlderThan'),
    q('resourceVersionMatch=Exact&resourceVersion=0', 'resourceVersionMatch=Exact&resourceVersion=0'),
    q('resourceVersionMatch=NotOlderThan&resourceVersion=0', 'resourceVersionMatch=NotOlderThan&resourceVersion=0'),
    q('resourceVersionMatch=Exact with continue', 'resourceVersionMatch=Exact&resourceVersion=1&continue=abc'),
    q('timeoutSeconds=-1', 'timeoutSeconds=-1'),
    q('timeoutSeconds=abc', 'timeoutSeconds=abc'),
    q('labelSelector a in (', 'labelSelector=a%20in%20('),
    q('labelSelector !!', 'labelSelector=!!'),
    q('labelSelector a=b=c', 'labelSelector=a%3Db%3Dc'),
    q('labelSelector bad value', 'labelSelector=a%3D%25%25'),
    q('labelSelector key too long', `labelSelector=${'k'.repeat(64)}%3Dv`),
    q('labelSelector ok', 'labelSelector=a%3Db'),
    q('fieldSelector unsupported field', 'fieldSelector=spec.image%3Dx'),
    q('fieldSelector metadata.name', 'fieldSelector=metadata.name%3Dx'),
    q('fieldSelector metadata.namespace!=', 'fieldSelector=metadata.namespace!%3Dx'),
    q('fieldSelector bogus syntax', 'fieldSelector=bogus'),
    q('fieldSelector set op', 'fieldSelector=metadata.name%20in%20(a)'),
    q('continue garbage', 'continue=garbage'),
    q('continue base64 json', `continue=${Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":"a"}').toString('base64')}`),
    q('continue bad version', `continue=${Buffer.from('{"v":"bogus","rv":1,"start":"a"}').toString('base64')}`),
    q('continue with resourceVersion', 'continue=abc&resourceVersion=0'),
    q('pretty=true', 'pretty=true'),
    q('pretty=bogus', 'pretty=bogus'),
    q('unknown query parameter', 'nosuch=1'),
    q('includeObject=Object (no Table)', 'includeObject=Object'),
    q('watch=bogus', 'watch=bogus&timeoutSeconds=1'),
    q('watch with resourceVersion=abc', 'watch=true&resourceVersion=abc&timeoutSeconds=1'),
    q('watch with bad labelSelector', 'watch=true&labelSelector=!!&timeoutSeconds=1'),
    q('watch empty stream', 'watch=true&timeoutSeconds=1&fieldSelector=metadata.name%3Dnosuch'),
    q('watch sendInitialEvents without match', 'watch=true&sendInitialEvents=true&timeoutSeconds=1'),
    q('watch allowWatchBookmarks=bogus', 'watch=true&allowWatchBookmarks=bogus&timeoutSeconds=1&fieldSelector=metadata.name%3Dnosuch'),
    q('watch resourceVersionMatch=Exact', 'watch=true&resourceVersionMatch=Exact&resourceVersion=1&timeoutSeconds=1'),
    { id: 'get single resourceVersion=abc', method: 'GET', path: `${W}/yok?resourceVersion=abc` },
    { id: 'get single resourceVersion=0', method: 'GET', path: `${W}/yok?resourceVersion=0` },
    { id: 'get single resourceVersionMatch=Exact', method: 'GET', path: `${W}/yok?resourceVersionMatch=Exact&resourceVersion=1` },
    { id: 'get single', method: 'GET', path: `${W}/yok` },
    { id: 'get unknown version', method: 'GET', path: `/apis/${GROUP}/v9/namespaces/${NS}/widgets` },
    { id: 'get unknown resource', method: 'GET', path: `/apis/${GROUP}/v1/namespaces/${NS}/nosuch` },
    { id: 'get widgets by name without namespace', method: 'GET', path: `${WALL}/yok` },
    { id: 'gizmos under a namespace', method: 'GET', path: `/apis/${GROUP}/v1/namespaces/${NS}/gizmos` },
    { id: 'get unknown subresource', method: 'GET', path: `${W}/yok/nosuch` },
    { id: 'get status', method: 'GET', path: `${W}/yok/status` },
    { id: 'get scale', method: 'GET', path: `${W}/yok/scale` },
    { id: 'get scale of missing', method: 'GET', path: `${W}/nosuch/scale` },
    { id: 'get group discovery', method: 'GET', path: `/apis/${GROUP}/v1` },
  ];
  const acc = (id: string, accept: string, path = W): Case => ({ id: `accept ${id}${path === W ? ' (list)' : ' (get)'}`, method: 'GET', path, accept });
  for (const p of [W, `${W}/yok`]) {
    c.push(
      acc('bogus', 'application/bogus', p),
      acc('text/html', 'text/html', p),
      acc('*/*', '*/*', p),
      acc('Table v1', 'application/json;as=Table;v=v1;g=meta.k8s.io', p),
      acc('Table v1beta1', 'application/json;as=Table;v=v1beta1;g=meta.k8s.io', p),
      acc('Table bogus version', 'application/json;as=Table;v=v9;g=meta.k8s.io', p),
      acc('PartialObjectMetadata v1', 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1', p),
      acc('PartialObjectMetadata v1beta1', 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1', p),
      acc('PartialObjectMetadataList v1', 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', p),
      acc('as=Bogus', 'application/json;as=Bogus;g=meta.k8s.io;v=v1', p),
      acc('protobuf', 'application/vnd.kubernetes.protobuf', p),
      acc('protobuf then json', 'application/vnd.kubernetes.protobuf, application/json', p),
      acc('yaml', 'application/yaml', p),
      acc('stream=watch', 'application/json;stream=watch', p),
      acc('empty', '', p),
    );
  }
  c.push({ id: 'accept Table includeObject=Object', method: 'GET', path: `${W}?includeObject=Object`, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
  c.push({ id: 'accept Table includeObject=None', method: 'GET', path: `${W}?includeObject=None`, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
  c.push({ id: 'accept Table includeObject=bogus', method: 'GET', path: `${W}?includeObject=bogus`, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
  c.push({ id: 'accept Table gizmos', method: 'GET', path: G, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
  return c;
}

export const battery1 = (): Case[] => [...bodyCases(), ...yamlCases(), ...nameCases(), ...metadataCases(), ...readCases()];
