import { basename, dirname } from 'node:path';
import type { DiagnosticSink } from '../model/diagnostics.js';
import { parseComment } from './comments.js';
import { decodeMarkers, Markers } from './markers.js';

/** `v1`, `v1alpha1`, `v2beta3`: the version directory convention of Kubernetes. */
export const VERSION_DIR = /^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$/;

/** One `apis/<group-dir>/<version>/` directory with its doc.ts markers. */
export interface PackageInfo {
  /** Project-relative directory, forward slashes. */
  readonly dir: string;
  readonly groupDir: string;
  readonly version: string;
  readonly groupName: string;
  /** Prefix of OpenAPI definition names for types declared here. */
  readonly openapiPackage: string;
  readonly markers: Markers;
  readonly docFile: string;
}

/**
 * Reads the package markers of one version directory from the leading
 * comment of its doc.ts. Returns undefined (after reporting) when doc.ts has
 * no @groupName, since nothing about the package can be known without it.
 */
export function readPackage(dir: string, docText: string | undefined, sink: DiagnosticSink): PackageInfo | undefined {
  const docFile = `${dir}/doc.ts`;
  if (docText === undefined) {
    sink.error({ file: dir, line: 1 }, 'version directory has no doc.ts with a @groupName marker');
    return undefined;
  }
  const comment = leadingDocComment(docText);
  const markers = comment === undefined ? Markers.empty : decodeMarkers(parseComment(comment.text, comment.line), 'package', docFile, sink);
  const groupName = markers.one('groupName')?.value;
  if (groupName === undefined) {
    sink.error({ file: docFile, line: 1 }, 'doc.ts needs a leading /** … */ comment with @groupName (use @groupName "" for the core group)');
    return undefined;
  }
  const version = basename(dir);
  return {
    dir,
    groupDir: dirname(dir),
    version,
    groupName,
    openapiPackage: markers.one('openapiModelPackage')?.value ?? defaultOpenAPIPackage(groupName, version),
    markers,
    docFile,
  };
}

/** `wardle.example.com`, `v1` → `com.example.wardle.v1`, as CRD-backed OpenAPI names are formed. */
export function defaultOpenAPIPackage(group: string, version: string): string {
  const reversed = group === '' ? ['io', 'k8s', 'api', 'core'] : group.split('.').reverse();
  return [...reversed, version].join('.');
}

function leadingDocComment(text: string): { text: string; line: number } | undefined {
  const match = /^\s*(\/\*\*[\s\S]*?\*\/)/.exec(text);
  if (match === null) return undefined;
  const before = text.slice(0, text.indexOf(match[1]!));
  return { text: match[1]!, line: before.split('\n').length };
}
