import { renameSync, writeFileSync } from 'node:fs';
import { stringify } from 'yaml';

/**
 * Writes a kubeconfig for the admin user (cluster CA, server URL, client certificate), as
 * kubeadm writes admin.conf. The file is rewritten on every start because the port may change
 * (`--secure-port 0`).
 */
export function writeAdminKubeconfig(path: string, opts: { server: string; caCertPEM: string; clientCertPEM: string; clientKeyPEM: string }): void {
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'kube-ts', cluster: { server: opts.server, 'certificate-authority-data': b64(opts.caCertPEM) } }],
    users: [{ name: 'admin', user: { 'client-certificate-data': b64(opts.clientCertPEM), 'client-key-data': b64(opts.clientKeyPEM) } }],
    contexts: [{ name: 'admin@kube-ts', context: { cluster: 'kube-ts', user: 'admin', namespace: 'default' } }],
    'current-context': 'admin@kube-ts',
    preferences: {},
  };
  // Written beside and renamed into place: a kubectl reading it while a server (or a --workers
  // worker restarting) rewrites it sees the old file or the new one, never half of one.
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, stringify(config), { mode: 0o600 });
  renameSync(tmp, path);
}
