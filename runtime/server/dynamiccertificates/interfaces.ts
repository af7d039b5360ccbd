import type { CABundle } from '../../authentication/clientcert.js';

/**
 * kube's dynamiccertificates interfaces: content providers that may change while the server runs
 * (files reloaded), the listeners told when they do, and the controllers that keep them current.
 */

/** Told that content it depends on changed; it re-reads the providers itself (kube's Listener.Enqueue). */
export interface Listener {
  enqueue(): void;
}

/** Content that changes, and tells its listeners when it has. */
export interface Notifier {
  addListener(listener: Listener): void;
}

/** CA certificates as PEM that may change: what a TLS server names to clients as acceptable issuers. */
export interface CABundleContentProvider extends Notifier {
  /** `<purpose>::<file>`: names the content in logs. */
  readonly name: string;
  currentCABundleContent(): string;
}

/** A CA bundle: PEM for the TLS layer and the ConfigMap, parsed for the authenticators. */
export interface CAContentProvider extends CABundleContentProvider {
  currentCABundle(): CABundle;
}

/** A serving certificate (chain first) and its private key, PEM. */
export interface CertKeyContent {
  readonly cert: string;
  readonly key: string;
}

export interface CertKeyContentProvider extends Notifier {
  readonly name: string;
  currentCertKeyContent(): CertKeyContent;
}

/** Something that keeps content current while it runs (kube's ControllerRunner). */
export interface ControllerRunner {
  start(): void;
  stop(): Promise<void>;
}
