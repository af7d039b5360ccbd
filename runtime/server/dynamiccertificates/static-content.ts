import { CABundle } from '../../authentication/clientcert.js';
import type { CAContentProvider, CertKeyContent, CertKeyContentProvider } from './interfaces.js';

/** A CA bundle that never changes (the control plane's own PKI when no file flag names one). */
export class StaticCAContent implements CAContentProvider {
  private readonly bundle: CABundle;

  constructor(
    readonly name: string,
    pem: string,
  ) {
    this.bundle = new CABundle(pem, name);
  }

  addListener(): void {}

  currentCABundleContent(): string {
    return this.bundle.toPEM();
  }

  currentCABundle(): CABundle {
    return this.bundle;
  }
}

/** A serving pair that never changes (the one the server made in <data-dir>/pki). */
export class StaticCertKeyContent implements CertKeyContentProvider {
  private readonly content: CertKeyContent;

  constructor(
    readonly name: string,
    cert: string,
    key: string,
  ) {
    this.content = { cert, key };
  }

  addListener(): void {}

  currentCertKeyContent(): CertKeyContent {
    return this.content;
  }
}
