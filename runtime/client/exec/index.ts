// client-go credential plugins (plugin/pkg/client/auth/exec): running them and reading their ExecCredential.
export { ExecAuthenticator, ExecConfigError } from './authenticator.js';
export { decodeExecResponse, encodeExecRequest, ExecCredentialError, type ClientCertificate, type ExecCluster, type ExecCredentials } from './credential.js';
export { EXEC_INFO_ENV, ExecPluginError, runExecPlugin } from './plugin.js';
export { EXEC_API_VERSIONS, EXEC_INTERACTIVE_MODES, type ExecConfig, type ExecEnvVar, type ExecInteractiveMode, type ExecPluginOptions } from './types.js';
