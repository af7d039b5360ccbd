import { CABundle } from '../../authentication/clientcert.js';
import type { CAContentProvider, Listener } from './interfaces.js';

/**
 * kube's unionCAContent: every certificate of several bundles, in order (what the TLS layer
 * offers clients as acceptable issuers: client CA and front-proxy CA). It changes when one of
 * them does; its listeners are theirs.
 */
export class UnionCAContent implements CAContentProvider {
  readonly name: string;
  private readonly providers: readonly CAContentProvider[];
  private cached: { content: string; bundle: CABundle } | undefined;

  constructor(...providers: CAContentProvider[]) {
    this.providers = providers;
    this.name = providers.map((p) => p.name).join(',');
  }

  addListener(listener: Listener): void {
    for (const p of this.providers) p.addListener(listener);
  }

  currentCABundleContent(): string {
    return this.providers.map((p) => withNewline(p.currentCABundleContent())).join('');
  }

  currentCABundle(): CABundle {
    const content = this.currentCABundleContent();
    if (this.cached?.content !== content) this.cached = { content, bundle: new CABundle(content, this.name) };
    return this.cached.bundle;
  }
}

/** Bundles are concatenated: one without its final newline must not run into the next BEGIN line. */
function withNewline(pem: string): string {
  return pem.endsWith('\n') ? pem : `${pem}\n`;
}
