// The control plane in this process for the aggregator tests, with an admin HTTPS client, the
// typed clientset over its loopback client, and bounded polling.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIService, APIServiceCondition } from '../../apis/apiregistration/v1/types.js';
import { Clientset } from '../../generated/clientset/index.js';
import { apiGroups } from '../../generated/index.js';
import { isNotFound } from '../../runtime/apimachinery/errors/index.js';
import { startControlPlane, type ControlPlane, type ControlPlaneOptions } from '../../runtime/controlplane/controlplane.js';
import { readCredentials } from '../integration/harness.js';
import { HttpsClient } from '../integration/https.js';
import { until } from '../integration/assertions.js';

export interface AggregatorEnv {
  readonly dataDir: string;
  readonly plane: ControlPlane;
  /** As system:admin (the admin kubeconfig's client certificate). */
  readonly admin: HttpsClient;
  /** The typed clients over the control plane's loopback client. */
  readonly cs: Clientset;
  close(): Promise<void>;
}

/** A token the control plane knows (--token-auth-file): user `tina`, uid `tina-uid`, groups `devs`, `ops`. */
export const TOKEN = 'tina-token';

export async function startAggregatorEnv(o: Partial<ControlPlaneOptions> = {}): Promise<AggregatorEnv> {
  const dataDir = mkdtempSync(join(tmpdir(), 'aggregator-'));
  const tokenAuthFile = join(dataDir, 'tokens.csv');
  writeFileSync(tokenAuthFile, `${TOKEN},tina,tina-uid,"devs,ops"\n`);
  const plane = await startControlPlane({
    dataDir,
    securePort: 0,
    bindAddress: '127.0.0.1',
    storageBackend: 'sqlite',
    tokenAuthFile,
    groups: apiGroups,
    aggregator: { availabilityCheckPeriodMs: 1_000, connectTimeoutMs: 2_000, discoveryCheckTimeoutMs: 2_000 },
    ...o,
  });
  const admin = new HttpsClient(readCredentials(plane.kubeconfigPath));
  return {
    dataDir,
    plane,
    admin,
    cs: new Clientset(plane.loopback),
    async close() {
      admin.close();
      await plane.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The APIService named `name`, or undefined when there is none. */
export async function getAPIService(cs: Clientset, name: string): Promise<APIService | undefined> {
  try {
    return await cs.apiregistrationV1().apiservices().get(name);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

export function availableOf(svc: APIService | undefined): APIServiceCondition | undefined {
  return svc?.status?.conditions?.find((c) => c.type === 'Available');
}

/** Waits for the Available condition of `name` to have `status` (and `reason`, when given); returns it. */
export function availability(cs: Clientset, name: string, status: 'True' | 'False', reason?: string): Promise<APIServiceCondition> {
  return until(`${name} Available=${status}${reason !== undefined ? `/${reason}` : ''}`, async () => {
    const c = availableOf(await getAPIService(cs, name));
    return c?.status === status && (reason === undefined || c.reason === reason) ? c : undefined;
  });
}

export { until };
