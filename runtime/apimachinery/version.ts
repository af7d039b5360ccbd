/**
 * version.Info (k8s.io/apimachinery/pkg/version) as `/version` serves it, in Go's field order:
 * what the server builds and what a discovery client's serverVersion() decodes. The emulation and
 * minimum-compatibility fields are `omitempty` in Go: a server that does not emulate an older
 * version leaves them out.
 */
export interface VersionInfo {
  major: string;
  minor: string;
  emulationMajor?: string;
  emulationMinor?: string;
  minCompatibilityMajor?: string;
  minCompatibilityMinor?: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}
