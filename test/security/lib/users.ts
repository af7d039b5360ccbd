// The users of the security matrix and the kubeconfigs kubectl reaches the control plane with:
// token users of --token-auth-file, a client-certificate user signed by the control plane's own
// CA, a service account's token from `kubectl create token`, anonymous, and impersonation
// (`--as`/`--as-group`) by the admin or by a user allowed to impersonate one user only.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCA, ensureLeaf } from '../../../runtime/controlplane/certs.js';
import type { ControlPlane } from '../../integration/harness.js';

/** `token,user,uid,"groups"` lines of the --token-auth-file (kube's CSV). */
export const TOKEN_FILE = 'alice-token,alice,uid-alice,"devs"\nbob-token,bob,uid-bob,"ops"\n';

/** Who runs kubectl: a kubeconfig (undefined: the admin's, system:masters) and extra flags (`--as`). */
export interface User {
  /** The label of a matrix row. */
  readonly label: string;
  /** The username the server's messages name (the impersonated one for `--as`). */
  readonly name: string;
  readonly kubeconfig?: string;
  readonly flags: readonly string[];
  /**
   * A user who may not ask `kubectl auth can-i` (anonymous: SelfSubjectAccessReviews are for
   * authenticated users) is asked about by the admin in a SubjectAccessReview with these groups.
   */
  readonly reviewGroups?: readonly string[];
}

type UserEntry = Readonly<Record<string, string>>;

/** Writes a kubeconfig of the control plane's server and CA with one user entry. */
export function writeKubeconfig(cp: ControlPlane, dir: string, name: string, user: UserEntry): string {
  const path = join(dir, `${name}-${cp.port}.kubeconfig`);
  const cluster = { server: cp.url, 'certificate-authority-data': b64(cp.credentials.caPEM) };
  writeFileSync(
    path,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster }],
      users: [{ name, user }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: name, namespace: 'default' } }],
      'current-context': 'ctx',
    }),
  );
  return path;
}

/**
 * A client certificate for `CN=<user>, O=<group>` signed by the cluster CA in `<data-dir>/pki`
 * (the one --client-ca-file defaults to), as an administrator signs one for a new user.
 */
export async function clientCertificate(cp: ControlPlane, dir: string, user: string, group: string): Promise<UserEntry> {
  const ca = await ensureCA(join(cp.dataDir, 'pki'), 'ca', 'kube-ts-ca');
  const pair = await ensureLeaf(dir, `${user}-${cp.port}`, ca, { subject: `CN=${user}, O=${group}`, server: false, hosts: [] });
  return { 'client-certificate-data': b64(pair.certPEM), 'client-key-data': b64(pair.keyPEM) };
}

/**
 * Anonymous: a user entry with no credential. An empty entry makes kubectl prompt for a username
 * and password on stdin; a username without a password stops the prompt and sends no credential
 * the server accepts (kube has no basic authentication), so the request is system:anonymous.
 */
export const ANONYMOUS_ENTRY: UserEntry = { username: 'anonymous' };

function b64(s: string): string {
  return Buffer.from(s).toString('base64');
}
