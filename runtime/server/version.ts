import type { Handler } from '../apimachinery/request/http.js';
import { webServiceNotFound, type PathRecorderMux } from './mux.js';
import packageJSON from '../../package.json' with { type: 'json' };
import type { VersionInfo } from '../apimachinery/version.js';

export type { VersionInfo };

// Imported (not read at run time) so a bundle of the server carries it.
const pkg: { name?: string; version?: string } = packageJSON;

const GO_ARCH: Readonly<Record<string, string>> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x' };

/**
 * The Kubernetes API level this server implements (1.32: clients' version-skew logic and the
 * gcloud kubectl dispatcher read `minor`). Fields that describe a Go build say what is true of
 * this one instead: no git commit or build date is claimed, `goVersion` is the Node.js runtime
 * and `compiler` names this project and its package version.
 */
export function defaultVersionInfo(): VersionInfo {
  return {
    major: '1',
    minor: '32',
    gitVersion: 'v1.32.0',
    gitCommit: '',
    gitTreeState: '',
    buildDate: '',
    goVersion: `node${process.versions.node}`,
    compiler: `${pkg.name ?? 'kube-ts-apiserver'}@${pkg.version ?? '0.0.0'}`,
    platform: `${process.platform}/${GO_ARCH[process.arch] ?? process.arch}`,
  };
}

/** GET /version. */
export function versionHandler(info: VersionInfo): Handler {
  const body = JSON.stringify(info, null, 2);
  return async (_req, res) => {
    res.writeBytes(200, body, 'application/json');
  };
}

/**
 * `/version` as kube's go-restful web service rooted there serves it: the route answers with and
 * without the trailing slash (the Python client asks for `/version/`), and any deeper path is the
 * web service's 404.
 */
export function installVersionEndpoint(mux: PathRecorderMux, info: VersionInfo): void {
  const handler = versionHandler(info);
  mux.handle('/version', handler);
  mux.handle('/version/', handler, { listed: false });
  mux.handlePrefix('/version/', webServiceNotFound, { listed: false });
}
