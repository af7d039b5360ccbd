// Discovery, OpenAPI and version documents under hostile query strings (ignored: a success),
// unacceptable Accept headers (406 for the discovery documents), aggregated-discovery Accept
// clauses of unknown versions, and unknown versions of served groups: go-restful's 404 Status
// below /api and the core server's groups, the mux's plain 404 for a custom resource group.
import { NOT_ACCEPTABLE, NOT_FOUND, PLAIN_404, fixed, type Expect, type FuzzCase } from '../cases.js';
import type { Rand } from '../prng.js';
import { CANARY, type FuzzContext } from '../requests.js';
import { CR_GROUP } from '../targets.js';

const DISCOVERY = ['/api', '/apis', '/api/v1', '/apis/wardle.example.com', '/apis/wardle.example.com/v1beta1', `/apis/${CR_GROUP}`, `/apis/${CR_GROUP}/v1`, '/apis/apiextensions.k8s.io/v1'];
const DOCUMENTS = [...DISCOVERY, '/openapi/v2', '/openapi/v3', '/openapi/v3/api/v1', '/openapi/v3/apis/wardle.example.com/v1beta1', `/openapi/v3/apis/${CR_GROUP}/v1`, '/version', '/version/'];

const isObject: Expect = {
  code: 'success',
  check: (body) =>
    typeof body === 'object' && body !== null && !Array.isArray(body) && !JSON.stringify(body).includes(CANARY) ? undefined : `not a JSON document: ${JSON.stringify(body).slice(0, 200)}`,
};

export const discovery = (r: Rand, _c: FuzzContext): FuzzCase => {
  const category = 'discovery and OpenAPI';
  switch (r.int(4)) {
    case 0:
    case 1: {
      const query = r.pick([
        'timeout=32s',
        `__proto__[${CANARY}]=1&constructor=x`,
        'pretty=%FF%FE',
        `limit=abc&watch=maybe&labelSelector=${encodeURIComponent('a in (')}`,
        `x=${'q'.repeat(8000)}`,
        'a=%ZZ',
        'a&&&b==c',
      ]);
      return fixed(category, 'discovery', 'discovery', { path: `${r.pick(DOCUMENTS)}?${query}`, headers: { Accept: 'application/json' } }, [isObject]);
    }
    case 2: {
      const accept = r.pick(['text/html', 'image/png', 'application/xml', 'application/json;g=apidiscovery.k8s.io;v=v9;as=APIGroupDiscoveryList', 'application/json;as=Nope;v=v1;g=meta.k8s.io']);
      return fixed(category, 'discovery', 'discovery', { path: r.pick(DISCOVERY), headers: { Accept: accept } }, [NOT_ACCEPTABLE]);
    }
    default: {
      const [path, expect] = r.pick([
        ['/apis/wardle.example.com/v9', NOT_FOUND],
        ['/apis/wardle.example.com/v1beta1x', NOT_FOUND],
        ['/api/v2', NOT_FOUND],
        [`/apis/${CR_GROUP}/v2`, PLAIN_404],
      ] as const);
      return fixed(category, 'discovery', 'discovery', { path, headers: { Accept: 'application/json' } }, [expect]);
    }
  }
};
