/**
 * A kubeconfig user's `exec` credential plugin (clientcmd/api ExecConfig): the program that
 * prints an ExecCredential of client.authentication.k8s.io (EKS's `aws eks get-token`, GKE's
 * `gke-gcloud-auth-plugin`, AKS's and OIDC's `kubelogin`).
 */

/** Whether the plugin may read the user's terminal (clientcmd's ExecInteractiveMode). */
export type ExecInteractiveMode = 'Never' | 'IfAvailable' | 'Always';

export const EXEC_INTERACTIVE_MODES: readonly ExecInteractiveMode[] = ['Never', 'IfAvailable', 'Always'];

/** The ExecCredential versions kubectl still runs (v1alpha1 was removed in 1.24). */
export const EXEC_API_VERSIONS: readonly string[] = ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'];

export interface ExecEnvVar {
  readonly name: string;
  readonly value: string;
}

export interface ExecConfig {
  /** A program on PATH, or a path (a relative one was resolved against its kubeconfig's directory). */
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to this process's environment for the plugin. */
  readonly env?: readonly ExecEnvVar[];
  /** The ExecCredential version sent to and expected from the plugin: one of EXEC_API_VERSIONS. */
  readonly apiVersion: string;
  /** Printed when the command is not found: how to install it. */
  readonly installHint?: string;
  /** Send the cluster (server, CA, the cluster's exec extension) as spec.cluster. */
  readonly provideClusterInfo?: boolean;
  readonly interactiveMode: ExecInteractiveMode;
  /** The cluster's `client.authentication.k8s.io/exec` extension, sent as spec.cluster.config. */
  readonly config?: unknown;
}

/** How plugins are run; the defaults are kubectl's. */
export interface ExecPluginOptions {
  /** Kills a plugin that has not finished after this long; default none (a browser login may take minutes), as client-go. */
  readonly timeoutMs?: number;
  /** Where the plugin's standard error goes; default this process's. */
  readonly stderr?: 'inherit' | 'ignore';
  /** Whether standard input is a terminal; default isatty(0). */
  readonly stdinIsTerminal?: () => boolean;
}
