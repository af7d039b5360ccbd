import { basename, extname } from 'node:path';
import packageJSON from '../../../package.json' with { type: 'json' };

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

function packageVersion(): string {
  const { version } = packageJSON as { version?: unknown };
  return typeof version === 'string' ? version : '0.0.0';
}
