import { EXEC_API_VERSIONS, EXEC_INTERACTIVE_MODES, type ExecConfig, type ExecInteractiveMode } from '../exec/types.js';
import { KubeconfigError, type AuthInfo, type Cluster, type ExecConfigEntry } from './types.js';

/**
 * clientcmd's checks of a selected user's exec plugin (validateAuthInfo, in its words, with the
 * file and field): a command, a supported apiVersion, named env variables, an interactiveMode.
 * The cluster's exec extension becomes the plugin's spec.cluster.config.
 */
export function checkExec(name: string, u: AuthInfo, e: ExecConfigEntry, cluster: Cluster): ExecConfig {
  const fail = (f: string, detail: string): never => {
    throw new KubeconfigError(u.origin.file, `${u.origin.field}.exec${f === '' ? '' : `.${f}`}`, detail);
  };
  if (e.command === '') fail('command', `command must be specified for ${name} to use exec authentication plugin`);
  if (e.apiVersion === '') fail('apiVersion', `apiVersion must be specified for ${name} to use exec authentication plugin`);
  if (!EXEC_API_VERSIONS.includes(e.apiVersion)) fail('apiVersion', `exec plugin: invalid apiVersion ${JSON.stringify(e.apiVersion)}`);
  (e.env ?? []).forEach((v, i) => {
    if (v.name === '') fail(`env[${i}].name`, `env variable name must be specified for ${name} to use exec authentication plugin`);
  });
  if (e.interactiveMode === '') fail('interactiveMode', `interactiveMode must be specified for ${name} to use exec authentication plugin`);
  const mode = EXEC_INTERACTIVE_MODES.find((m) => m === e.interactiveMode);
  if (mode === undefined) return fail('interactiveMode', `invalid interactiveMode for ${name}: ${JSON.stringify(e.interactiveMode)}`);
  return withMode(e, mode, cluster.execExtension);
}

function withMode(e: ExecConfigEntry, interactiveMode: ExecInteractiveMode, config: unknown): ExecConfig {
  return { ...e, interactiveMode, ...(config !== undefined ? { config } : {}) };
}

/** The providers kubectl 1.26 removed, with the replacement client-go names for each. */
const REMOVED_PROVIDERS: Readonly<Record<string, string>> = {
  gcp: `The gcp auth plugin has been removed.
Please use the "gke-gcloud-auth-plugin" kubectl/client-go credential plugin instead.
See https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke for further details`,
  azure: `The azure auth plugin has been removed.
Please use the https://github.com/Azure/kubelogin kubectl/client-go credential plugin instead.
See https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins for further details`,
};

/** `auth-provider` is not run: gcp and azure say what client-go says; any other points to exec plugins. */
export function authProviderError(name: string, u: AuthInfo): KubeconfigError {
  const field = `${u.origin.field}.auth-provider`;
  if (u.exec !== undefined) return new KubeconfigError(u.origin.file, field, `authProvider cannot be provided in combination with an exec plugin for ${name}`);
  const provider = u.authProvider ?? '';
  const removed = Object.hasOwn(REMOVED_PROVIDERS, provider) ? REMOVED_PROVIDERS[provider] : undefined;
  return new KubeconfigError(
    u.origin.file,
    field,
    removed ??
      `this client does not run auth providers (${JSON.stringify(provider)} for ${name}): kubectl removed the gcp and azure providers in 1.26 in favour of client-go credential plugins; configure an exec plugin instead (e.g. kubelogin for OIDC)`,
  );
}
