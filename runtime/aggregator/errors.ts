import { newInternalError, newServiceUnavailable, type StatusError } from '../apimachinery/errors/index.js';

/**
 * The answers of the proxy when the server behind an APIService cannot serve, worded as
 * kube-aggregator's plain-text ones (`service unavailable`, `error trying to reach service`)
 * and naming the APIService, as Status objects.
 */

/** The APIService's Available condition is not True. */
export function apiServiceUnavailable(name: string): StatusError {
  return newServiceUnavailable(`service unavailable: APIService "${name}" is not available`);
}

/** The service reference leads to no address (no such Service, port or endpoints). */
export function serviceUnresolvable(name: string, cause: unknown): StatusError {
  return newServiceUnavailable(`service unavailable: APIService "${name}": ${messageOf(cause)}`);
}

/** Dialling, the TLS handshake, or the exchange with the backend failed before an answer. */
export function backendUnreachable(name: string, cause: unknown): StatusError {
  return newServiceUnavailable(`error trying to reach service: APIService "${name}": ${messageOf(cause)}`);
}

/** The transport could not be built from the APIService (a caBundle without certificates). */
export function transportBuildFailed(name: string, cause: Error): StatusError {
  return newInternalError(new Error(`APIService "${name}": ${cause.message}`));
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
