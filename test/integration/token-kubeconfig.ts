// A kubeconfig for a bearer-token user of a control plane started by the harness: its server
// and CA, the token, and no client certificate (the admin kubeconfig's certificate would
// authenticate first, as x509 comes before tokens in kube's authenticator order).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlPlane } from './harness.js';

/** Writes `<dir>/<user>-<port>.kubeconfig` and returns its path. */
export function tokenKubeconfig(cp: ControlPlane, dir: string, user: string, token: string): string {
  const path = join(dir, `${user}-${cp.port}.kubeconfig`);
  const ca = Buffer.from(cp.credentials.caPEM).toString('base64');
  writeFileSync(
    path,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: cp.url, 'certificate-authority-data': ca } }],
      users: [{ name: user, user: { token } }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user, namespace: 'default' } }],
      'current-context': 'ctx',
    }),
  );
  return path;
}
