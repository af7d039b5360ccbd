import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Kubernetes release whose published OpenAPI v3 documents are vendored beside this module. */
export const KUBERNETES_VERSION = '1.32';

/** Where the documents are kept, relative to the project root (errors name files by it). */
export const DOCUMENTS_DIR = `generator/openapi-import/kube-${KUBERNETES_VERSION}`;

/** One vendored document: kube's api/openapi-spec/v3 file of one group version. */
export interface VendoredDocument {
  /** Path below DOCUMENTS_DIR: `api/v1.json`, `apis/<group>/<version>.json`. */
  readonly path: string;
  /** API group; `""` is the legacy core group. */
  readonly group: string;
  readonly version: string;
  /** SHA-256 of the vendored (minified) bytes. */
  readonly sha256: string;
  /** SHA-256 of kube's file: `JSON.stringify(JSON.parse(vendored), null, 2) + '\n'` gives it back byte for byte. */
  readonly upstreamSha256: string;
}

/**
 * The GA group versions a controller needs (see kube-1.32/README.md). The
 * digests are here, in a source file, so that replacing a document changes
 * the generator's cache key (generator/crd-import/cache.ts hashes the
 * generator's sources, not its JSON) and a document edited by hand is
 * refused instead of silently generating different clients.
 */
export const VENDORED_DOCUMENTS: readonly VendoredDocument[] = [
  {
    path: 'api/v1.json',
    group: '',
    version: 'v1',
    sha256: '99150fd1bb7376a84d16bf9db65464dfbeda8fb3de86f59dde4cae169397aa20',
    upstreamSha256: 'e70786b2b36d53fa99dd72910f2ef82a12384abc8d28ce144ebc9899c32b109c',
  },
  {
    path: 'apis/admissionregistration.k8s.io/v1.json',
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    sha256: '87a3c93ec875770061ed14721378e936b9ffbe49d44cb1ac9144ff0894a068a3',
    upstreamSha256: '3c3dbc0a05ac303bb29ba00f3ac6e108f563fc8647c38289919790b8981a8126',
  },
  {
    path: 'apis/apps/v1.json',
    group: 'apps',
    version: 'v1',
    sha256: '70a7d2625698d8cb580fcef0105aaf9585ebe6e1d655c6b4312bee66c8e12d7b',
    upstreamSha256: 'ca3e54d3c12821353fa4c8aea2704d29ad1a216a142dbaefbab6ecea69457375',
  },
  {
    path: 'apis/autoscaling/v1.json',
    group: 'autoscaling',
    version: 'v1',
    sha256: '83713190a215bc8ae1aa21b8aefcabbc8ca0d2a249421dcf65f30d520163d647',
    upstreamSha256: '4eef107675046b9d39bfe36b8a84afc18f376f36ac562e82526506240902b183',
  },
  {
    path: 'apis/autoscaling/v2.json',
    group: 'autoscaling',
    version: 'v2',
    sha256: 'fa74675a99ae21ccd9890653b4ac4690c97de94e87ed5461e125b2c627c88136',
    upstreamSha256: '56e5be885071fa09dbc915513fc2550b8c07305cfd222edeff689adbe15a1b37',
  },
  {
    path: 'apis/batch/v1.json',
    group: 'batch',
    version: 'v1',
    sha256: 'cc9edf3cac4942c587c5553df8fc76d57ce9dfc7ede51cb363d5549ef812cf05',
    upstreamSha256: '5f09687551d11cc84567d8cc5f97b65465512c81d496c8c63f712a5e34352447',
  },
  {
    path: 'apis/certificates.k8s.io/v1.json',
    group: 'certificates.k8s.io',
    version: 'v1',
    sha256: 'e366a2f175e4c009b31b6f62f28b7599ec5d0683a4df1baa5073aee9bb627500',
    upstreamSha256: '8eb26a08f4700b58d8156a9e605c575fa543a479f277583873a9c981fa74bbf0',
  },
  {
    path: 'apis/coordination.k8s.io/v1.json',
    group: 'coordination.k8s.io',
    version: 'v1',
    sha256: '66e79c111f3f0bfa4e263b2fa20820b4acfc2f7b1a739518c3a8fa85356e0429',
    upstreamSha256: '503bb5bb7acd8cd03666428710e010b680cfd8fa3368bc729b23975cf2cbbf8d',
  },
  {
    path: 'apis/discovery.k8s.io/v1.json',
    group: 'discovery.k8s.io',
    version: 'v1',
    sha256: '909f4b7a51567582ed553c14f9a1ec299dfef6ae857f28dc6e45ad987b67022c',
    upstreamSha256: '89c718eac1f1db2d49e6029c5dedefdeca2fb5fee470a9f96f2951f08e5190f2',
  },
  {
    path: 'apis/events.k8s.io/v1.json',
    group: 'events.k8s.io',
    version: 'v1',
    sha256: '6a35d15d29fa05da6157a469f5bf84996eeba8b136c466598bfa36df44cc9bf8',
    upstreamSha256: '7aee17d2a6df52171498c42c078d3db180b43e88f8a3b54648996de350166228',
  },
  {
    path: 'apis/networking.k8s.io/v1.json',
    group: 'networking.k8s.io',
    version: 'v1',
    sha256: '18e164553b56f2062b9b7d27037bfaa43e53d603f9b34b109e2571067c2483e9',
    upstreamSha256: '215fb8d4007896a5e8c413cc7fd55235e4749ffaed0aeecbcbfd264a31d9e84c',
  },
  {
    path: 'apis/node.k8s.io/v1.json',
    group: 'node.k8s.io',
    version: 'v1',
    sha256: '61cfa3045fc37015c2ea686928268c6511b04c95c0c19590ad46a38f751341a1',
    upstreamSha256: '93df193868b3d77aa76e768c4afadfd846036a4dc8b16a290026058818f22403',
  },
  {
    path: 'apis/policy/v1.json',
    group: 'policy',
    version: 'v1',
    sha256: 'cb03952e036b1e84178cb3cb0774165df22df9f087cc7e6a152340480ccacd42',
    upstreamSha256: '67d39994828e99e249a930a28a694333b640ea81aecd7a2093927ea2143061ec',
  },
  {
    path: 'apis/rbac.authorization.k8s.io/v1.json',
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    sha256: '177b9a2cd6923521d9abc97abcf60744c5b3c22f6ccd8cbcc1ea5e539199ed75',
    upstreamSha256: 'cb328e53ccb31d9bf0c070dcf135f7404ddd51d9621e0ca22b76463022e44a6e',
  },
  {
    path: 'apis/scheduling.k8s.io/v1.json',
    group: 'scheduling.k8s.io',
    version: 'v1',
    sha256: '6485124e85b0d210632ba8bc0135b29eb1d68549c93fe2e94d360c401dc71190',
    upstreamSha256: 'ae9a1e1df8c3b61cc6338d34a4b57ee54e95c63c93c7f2ccb3d176afd0cb52e2',
  },
  {
    path: 'apis/storage.k8s.io/v1.json',
    group: 'storage.k8s.io',
    version: 'v1',
    sha256: '085d13cb91398bb8937f10dcd1f1d583a8c2fb567dafaf53a80bc263d5c83975',
    upstreamSha256: 'eb37f206e8b9e097e6e16faf8c4778cbe1c77a2a4d6f21d8f5ec723564e2bb4d',
  },
];

/** A document as read: its text parsed once, and the path errors name it by. */
export interface LoadedDocument extends VendoredDocument {
  /** Project-relative path (`generator/openapi-import/kube-1.32/apis/apps/v1.json`). */
  readonly file: string;
  readonly document: unknown;
}

/** The directory of the vendored documents in this installation of the generator. */
export function documentsDir(): string {
  return join(dirname(fileURLToPath(import.meta.url)), `kube-${KUBERNETES_VERSION}`);
}

/**
 * Reads the vendored documents (all, or those `only` names by path), each
 * checked against its digest: a document that is not the one recorded is an
 * error naming it.
 */
export function loadDocuments(only?: readonly string[]): LoadedDocument[] {
  const dir = documentsDir();
  const chosen = only === undefined ? VENDORED_DOCUMENTS : VENDORED_DOCUMENTS.filter((d) => only.includes(d.path));
  return chosen.map((d) => {
    const bytes = readFileSync(join(dir, d.path));
    const digest = createHash('sha256').update(bytes).digest('hex');
    const file = `${DOCUMENTS_DIR}/${d.path}`;
    if (digest !== d.sha256) throw new Error(`${file}: sha256 ${digest} is not the vendored document's ${d.sha256} (see ${DOCUMENTS_DIR}/README.md)`);
    return { ...d, file, document: JSON.parse(bytes.toString('utf8')) as unknown };
  });
}
