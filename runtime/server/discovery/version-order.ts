/**
 * Kube-aware version order (apimachinery version.CompareKubeAwareVersionStrings): GA before beta
 * before alpha, then higher major, then higher minor; versions that are not kube-like come after
 * all kube-like ones, in ascending string order. Negative when `a` sorts before `b`.
 */
export function compareVersionsForDiscovery(a: string, b: string): number {
  if (a === b) return 0;
  const pa = parseKubeVersion(a);
  const pb = parseKubeVersion(b);
  if (pa === undefined && pb === undefined) return a < b ? -1 : 1;
  if (pa === undefined) return 1;
  if (pb === undefined) return -1;
  if (pa.stability !== pb.stability) return pb.stability - pa.stability;
  if (pa.major !== pb.major) return pb.major - pa.major;
  return pb.minor - pa.minor;
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

interface KubeVersion {
  readonly major: number;
  /** 2 GA, 1 beta, 0 alpha. */
  readonly stability: number;
  readonly minor: number;
}

function parseKubeVersion(v: string): KubeVersion | undefined {
  const m = KUBE_VERSION.exec(v);
  if (m === null) return undefined;
  const stability = m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0;
  return { major: Number(m[1]), stability, minor: m[3] === undefined ? 0 : Number(m[3]) };
}
