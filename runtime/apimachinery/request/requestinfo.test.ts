import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveRequestInfo } from './requestinfo.js';

function resolve(method: string, url: string) {
  const [path, query = ''] = url.split('?') as [string, string?];
  return resolveRequestInfo(method, path, new URLSearchParams(query));
}

// Cases from k8s.io/apiserver requestinfo_test.go (TestGetAPIRequestInfo), plus this project's groups.
const resourceCases: ReadonlyArray<{
  method: string;
  url: string;
  verb: string;
  prefix: string;
  group: string;
  version: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  parts: string[];
}> = [
  { method: 'GET', url: '/api/v1/namespaces', verb: 'list', prefix: 'api', group: '', version: 'v1', namespace: '', resource: 'namespaces', subresource: '', name: '', parts: ['namespaces'] },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other',
    verb: 'get',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'namespaces',
    subresource: '',
    name: 'other',
    parts: ['namespaces', 'other'],
  },
  { method: 'GET', url: '/api/v1/namespaces/other/pods', verb: 'list', prefix: 'api', group: '', version: 'v1', namespace: 'other', resource: 'pods', subresource: '', name: '', parts: ['pods'] },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods/foo',
    verb: 'get',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: '',
    name: 'foo',
    parts: ['pods', 'foo'],
  },
  {
    method: 'HEAD',
    url: '/api/v1/namespaces/other/pods/foo',
    verb: 'get',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: '',
    name: 'foo',
    parts: ['pods', 'foo'],
  },
  { method: 'GET', url: '/api/v1/pods', verb: 'list', prefix: 'api', group: '', version: 'v1', namespace: '', resource: 'pods', subresource: '', name: '', parts: ['pods'] },
  { method: 'HEAD', url: '/api/v1/pods', verb: 'list', prefix: 'api', group: '', version: 'v1', namespace: '', resource: 'pods', subresource: '', name: '', parts: ['pods'] },
  // special verbs
  {
    method: 'GET',
    url: '/api/v1/proxy/namespaces/other/pods/foo',
    verb: 'proxy',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: '',
    name: 'foo',
    parts: ['pods', 'foo'],
  },
  {
    method: 'GET',
    url: '/api/v1/proxy/namespaces/other/pods/foo/subpath/not/a/subresource',
    verb: 'proxy',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: '',
    name: 'foo',
    parts: ['pods', 'foo', 'subpath', 'not', 'a', 'subresource'],
  },
  { method: 'GET', url: '/api/v1/watch/pods', verb: 'watch', prefix: 'api', group: '', version: 'v1', namespace: '', resource: 'pods', subresource: '', name: '', parts: ['pods'] },
  { method: 'GET', url: '/api/v1/pods?watch=true', verb: 'watch', prefix: 'api', group: '', version: 'v1', namespace: '', resource: 'pods', subresource: '', name: '', parts: ['pods'] },
  { method: 'GET', url: '/api/v1/pods?watch=false', verb: 'list', prefix: 'api', group: '', version: 'v1', namespace: '', resource: 'pods', subresource: '', name: '', parts: ['pods'] },
  { method: 'GET', url: '/api/v1/pods?watch=FALSE', verb: 'list', prefix: 'api', group: '', version: 'v1', namespace: '', resource: 'pods', subresource: '', name: '', parts: ['pods'] },
  { method: 'GET', url: '/api/v1/pods?watch=', verb: 'watch', prefix: 'api', group: '', version: 'v1', namespace: '', resource: 'pods', subresource: '', name: '', parts: ['pods'] },
  {
    method: 'GET',
    url: '/api/v1/watch/namespaces/other/pods',
    verb: 'watch',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: '',
    name: '',
    parts: ['pods'],
  },
  {
    method: 'GET',
    url: '/api/v1/watch/namespaces/other/pods/foo',
    verb: 'watch',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: '',
    name: 'foo',
    parts: ['pods', 'foo'],
  },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods?watch=1',
    verb: 'watch',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: '',
    name: '',
    parts: ['pods'],
  },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods?watch=0',
    verb: 'list',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: '',
    name: '',
    parts: ['pods'],
  },
  // a named get ignores watch=true
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods/foo?watch=true',
    verb: 'get',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: '',
    name: 'foo',
    parts: ['pods', 'foo'],
  },
  // subresources
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods/foo/status',
    verb: 'get',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: 'status',
    name: 'foo',
    parts: ['pods', 'foo', 'status'],
  },
  {
    method: 'GET',
    url: '/api/v1/namespaces/other/pods/foo/proxy/subpath',
    verb: 'get',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: 'proxy',
    name: 'foo',
    parts: ['pods', 'foo', 'proxy', 'subpath'],
  },
  {
    method: 'PUT',
    url: '/api/v1/namespaces/other/finalize',
    verb: 'update',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'namespaces',
    subresource: 'finalize',
    name: 'other',
    parts: ['namespaces', 'other', 'finalize'],
  },
  {
    method: 'PUT',
    url: '/api/v1/namespaces/other/status',
    verb: 'update',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'namespaces',
    subresource: 'status',
    name: 'other',
    parts: ['namespaces', 'other', 'status'],
  },
  {
    method: 'PUT',
    url: '/apis/example.com/v1beta1/namespaces/ns/widgets/f/status',
    verb: 'update',
    prefix: 'apis',
    group: 'example.com',
    version: 'v1beta1',
    namespace: 'ns',
    resource: 'widgets',
    subresource: 'status',
    name: 'f',
    parts: ['widgets', 'f', 'status'],
  },
  // verbs from methods
  {
    method: 'PATCH',
    url: '/api/v1/namespaces/other/pods/foo',
    verb: 'patch',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: '',
    name: 'foo',
    parts: ['pods', 'foo'],
  },
  {
    method: 'DELETE',
    url: '/api/v1/namespaces/other/pods/foo',
    verb: 'delete',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: '',
    name: 'foo',
    parts: ['pods', 'foo'],
  },
  { method: 'POST', url: '/api/v1/namespaces/other/pods', verb: 'create', prefix: 'api', group: '', version: 'v1', namespace: 'other', resource: 'pods', subresource: '', name: '', parts: ['pods'] },
  { method: 'POST', url: '/api/v1/namespaces', verb: 'create', prefix: 'api', group: '', version: 'v1', namespace: '', resource: 'namespaces', subresource: '', name: '', parts: ['namespaces'] },
  { method: 'OPTIONS', url: '/api/v1/namespaces/other/pods', verb: '', prefix: 'api', group: '', version: 'v1', namespace: 'other', resource: 'pods', subresource: '', name: '', parts: ['pods'] },
  // deletecollection
  { method: 'DELETE', url: '/api/v1/nodes', verb: 'deletecollection', prefix: 'api', group: '', version: 'v1', namespace: '', resource: 'nodes', subresource: '', name: '', parts: ['nodes'] },
  {
    method: 'DELETE',
    url: '/api/v1/namespaces',
    verb: 'deletecollection',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: '',
    resource: 'namespaces',
    subresource: '',
    name: '',
    parts: ['namespaces'],
  },
  {
    method: 'DELETE',
    url: '/api/v1/namespaces/other/pods',
    verb: 'deletecollection',
    prefix: 'api',
    group: '',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: '',
    name: '',
    parts: ['pods'],
  },
  {
    method: 'DELETE',
    url: '/apis/extensions/v1/namespaces/other/pods',
    verb: 'deletecollection',
    prefix: 'apis',
    group: 'extensions',
    version: 'v1',
    namespace: 'other',
    resource: 'pods',
    subresource: '',
    name: '',
    parts: ['pods'],
  },
  // groups and versions
  {
    method: 'POST',
    url: '/apis/extensions/v1beta3/namespaces/other/pods',
    verb: 'create',
    prefix: 'apis',
    group: 'extensions',
    version: 'v1beta3',
    namespace: 'other',
    resource: 'pods',
    subresource: '',
    name: '',
    parts: ['pods'],
  },
  {
    method: 'GET',
    url: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com',
    verb: 'get',
    prefix: 'apis',
    group: 'apiextensions.k8s.io',
    version: 'v1',
    namespace: '',
    resource: 'customresourcedefinitions',
    subresource: '',
    name: 'widgets.example.com',
    parts: ['customresourcedefinitions', 'widgets.example.com'],
  },
  // trailing and doubled slashes are trimmed only at the ends
  { method: 'GET', url: '/api/v1/pods/', verb: 'list', prefix: 'api', group: '', version: 'v1', namespace: '', resource: 'pods', subresource: '', name: '', parts: ['pods'] },
  // metadata.name field selectors name the object on list and watch (kube's TestSelectorParsing)
  {
    method: 'GET',
    url: '/apis/group/version/resource?fieldSelector=metadata.name=name1',
    verb: 'list',
    prefix: 'apis',
    group: 'group',
    version: 'version',
    namespace: '',
    resource: 'resource',
    subresource: '',
    name: 'name1',
    parts: ['resource'],
  },
  {
    method: 'GET',
    url: '/apis/group/version/resource?watch=true&fieldSelector=metadata.name%3Dname1',
    verb: 'watch',
    prefix: 'apis',
    group: 'group',
    version: 'version',
    namespace: '',
    resource: 'resource',
    subresource: '',
    name: 'name1',
    parts: ['resource'],
  },
  {
    method: 'GET',
    url: '/apis/group/version/resource?fieldSelector=metadata.name=name1,foo',
    verb: 'list',
    prefix: 'apis',
    group: 'group',
    version: 'version',
    namespace: '',
    resource: 'resource',
    subresource: '',
    name: '',
    parts: ['resource'],
  },
  {
    method: 'GET',
    url: '/apis/group/version/resource?fieldSelector=metadata.name=name1,foo&watch=true',
    verb: 'watch',
    prefix: 'apis',
    group: 'group',
    version: 'version',
    namespace: '',
    resource: 'resource',
    subresource: '',
    name: '',
    parts: ['resource'],
  },
  {
    method: 'GET',
    url: '/apis/group/version/resource?fieldSelector=metadata.name=foo&fieldSelector=metadata.name=bar',
    verb: 'list',
    prefix: 'apis',
    group: 'group',
    version: 'version',
    namespace: '',
    resource: 'resource',
    subresource: '',
    name: 'foo',
    parts: ['resource'],
  },
  {
    method: 'GET',
    url: '/apis/group/version/resource?fieldSelector=metadata.name=..',
    verb: 'list',
    prefix: 'apis',
    group: 'group',
    version: 'version',
    namespace: '',
    resource: 'resource',
    subresource: '',
    name: '',
    parts: ['resource'],
  },
  {
    method: 'GET',
    url: '/apis/group/version/resource?fieldSelector=metadata.name=x&limit=abc',
    verb: 'list',
    prefix: 'apis',
    group: 'group',
    version: 'version',
    namespace: '',
    resource: 'resource',
    subresource: '',
    name: '',
    parts: ['resource'],
  },
  {
    method: 'GET',
    url: '/apis/group/version/resource?fieldSelector=metadata.name=x&labelSelector=a%20in',
    verb: 'list',
    prefix: 'apis',
    group: 'group',
    version: 'version',
    namespace: '',
    resource: 'resource',
    subresource: '',
    name: '',
    parts: ['resource'],
  },
  {
    method: 'DELETE',
    url: '/apis/group/version/resource?fieldSelector=metadata.name=x',
    verb: 'deletecollection',
    prefix: 'apis',
    group: 'group',
    version: 'version',
    namespace: '',
    resource: 'resource',
    subresource: '',
    name: '',
    parts: ['resource'],
  },
];

describe('resolveRequestInfo', () => {
  for (const c of resourceCases) {
    it(`${c.method} ${c.url}`, () => {
      const info = resolve(c.method, c.url);
      assert.equal(info.isResourceRequest, true);
      assert.deepEqual(
        {
          verb: info.verb,
          prefix: info.apiPrefix,
          group: info.apiGroup,
          version: info.apiVersion,
          namespace: info.namespace,
          resource: info.resource,
          subresource: info.subresource,
          name: info.name,
          parts: [...info.parts],
        },
        { verb: c.verb, prefix: c.prefix, group: c.group, version: c.version, namespace: c.namespace, resource: c.resource, subresource: c.subresource, name: c.name, parts: c.parts },
      );
      assert.equal(info.path, c.url.split('?')[0]);
    });
  }

  const nonResource: ReadonlyArray<[string, string]> = [
    ['/', 'get'],
    ['', 'get'],
    ['/api', 'get'],
    ['/api/v1', 'get'],
    ['/api/version/', 'get'],
    ['/apis', 'get'],
    ['/apis/example.com', 'get'],
    ['/apis/extensions/v1beta1', 'get'],
    ['/apis/extensions/v1beta1/', 'get'],
    ['/apis/group/version/', 'get'],
    ['/apis/version/resource', 'get'],
    ['/badprefix/version/resource', 'get'],
    ['/not-api/version/resource', 'get'],
    ['/healthz', 'get'],
    ['/readyz/ping', 'get'],
    ['/openapi/v3/apis/example.com/v1beta1', 'get'],
  ];
  for (const [path, verb] of nonResource) {
    it(`non-resource ${JSON.stringify(path)}`, () => {
      const info = resolveRequestInfo('GET', path, new URLSearchParams());
      assert.equal(info.isResourceRequest, false);
      assert.equal(info.verb, verb);
      assert.equal(info.path, path);
      assert.equal(info.resource, '');
    });
  }

  it("reads the path decoded, as Go's url.URL.Path: escapes in names, %2F a separator, non-UTF-8 bytes as U+FFFD", () => {
    assert.equal(resolve('GET', '/api/v1/namespaces/ns/services/fz%E2%80%AEevil').name, 'fz\u202eevil');
    assert.equal(resolve('GET', '/api/v1/namespaces/n%73/services/a').namespace, 'ns');
    const split = resolve('GET', '/api/v1/namespaces/ns/services/a%2Fstatus');
    assert.deepEqual([split.name, split.subresource], ['a', 'status']);
    assert.equal(resolve('GET', '/api/v1/namespaces/ns/services/fz%FF%FE').name, 'fz\ufffd\ufffd');
    assert.equal(resolve('GET', '/api/v1/namespaces/ns/services/100%zz').name, '100%zz');
    assert.equal(resolve('GET', '/api/v1/namespaces/ns/services/a%25b').name, 'a%b');
  });

  it('non-resource verbs are the lower-cased method', () => {
    assert.equal(resolveRequestInfo('POST', '/apis', new URLSearchParams()).verb, 'post');
    assert.equal(resolveRequestInfo('PUT', '/healthz', new URLSearchParams()).verb, 'put');
  });

  it('a bare legacy watch path is a resource request with what is known', () => {
    const info = resolveRequestInfo('GET', '/api/v1/watch', new URLSearchParams());
    assert.equal(info.isResourceRequest, true);
    assert.equal(info.verb, 'watch');
    assert.equal(info.resource, '');
  });

  it('kube table of resource vs non-resource', () => {
    const table: ReadonlyArray<[string, boolean]> = [
      ['/api/version/resource', true],
      ['/apis/group/version/resource/name/subresource', true],
      ['/api/version/resource/name/subresource', true],
      ['/apis/batch/v1/job', true],
      ['/apis/batch/v1/job/foo', true],
      ['/apis/batch/v1/job/foo/scale', true],
      ['/not-api/version/resource', false],
      ['/apis/extensions/v1beta1', false],
      ['/api/version', false],
      ['/api', false],
    ];
    for (const [path, expected] of table) assert.equal(resolveRequestInfo('GET', path, new URLSearchParams()).isResourceRequest, expected, path);
  });
});
