import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';

/**
 * `<program>/v<version> (<os>/<arch>) kube-ts/node-<node version>`, the shape of client-go's
 * DefaultKubernetesUserAgent, so audit logs and API priority and fairness can tell clients apart.
 */
export function defaultUserAgent(): string {
  const script = process.argv[1];
  const program = script === undefined ? 'node' : basename(script, extname(script)) || 'node';
  const arch = process.arch === 'x64' ? 'amd64' : process.arch === 'ia32' ? '386' : process.arch;
  return `${program}/v${packageVersion()} (${process.platform}/${arch}) kube-ts/node-${process.version}`;
}

let version: string | undefined;

function packageVersion(): string {
  if (version !== undefined) return version;
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    version = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    version = '0.0.0';
  }
  return version;
}
