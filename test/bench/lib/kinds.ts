/** A kind the HTTP benches create: where its objects go and one object of it. */
export interface BenchKind {
  readonly title: string;
  collection(ns: string): string;
  manifest(name: string, ns: string): Record<string, unknown>;
}

/** The CronTab custom resource of test/fixtures' CRD (stable.example.com/v1), as the benches create it. */
export const cronTabKind: BenchKind = {
  title: 'CronTab (custom resource, stable.example.com/v1)',
  collection: (ns) => `/apis/stable.example.com/v1/namespaces/${ns}/crontabs`,
  manifest: (name, ns) => ({
    apiVersion: 'stable.example.com/v1',
    kind: 'CronTab',
    metadata: { name, namespace: ns, labels: { app: 'bench' } },
    spec: { cronSpec: '*/5 * * * *', image: 'cron:1', replicas: 1 },
  }),
};
