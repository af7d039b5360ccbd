import { consoleLogger, type Logger } from '../../endpoints/filters/log.js';
import type { CABundleContentProvider, CertKeyContentProvider, Listener } from './interfaces.js';

/** What a TLS server is given: its pair and, when client certificates are asked for, the CAs it names to clients. */
export interface TLSContent {
  readonly cert: string;
  readonly key: string;
  readonly clientCA?: string;
}

/** A running TLS server whose credentials can be replaced (Serving.setSecureContext). */
export interface SecureContextTarget {
  setSecureContext(tls: TLSContent): void;
}

/**
 * kube's DynamicServingCertificateController: keeps the serving server's TLS credentials those of
 * its content providers. When the pair or the client CAs change, the server gets a new secure
 * context: handshakes from then on use it, connections already open keep what they negotiated.
 */
export class DynamicServingCertificateController implements Listener {
  private target: SecureContextTarget | undefined;
  private applied: TLSContent | undefined;
  private queued = false;
  private readonly logger: Logger;

  constructor(
    private readonly o: {
      readonly serving: CertKeyContentProvider;
      /** The CAs clients are asked for a certificate from; none: no client certificate is asked for. */
      readonly clientCA?: CABundleContentProvider;
      readonly logger?: Logger;
    },
  ) {
    this.logger = o.logger ?? consoleLogger;
    o.serving.addListener(this);
    o.clientCA?.addListener(this);
  }

  /** The credentials as the providers have them now (the server's options at construction). */
  tls(): TLSContent {
    const { cert, key } = this.o.serving.currentCertKeyContent();
    return { cert, key, ...(this.o.clientCA !== undefined ? { clientCA: this.o.clientCA.currentCABundleContent() } : {}) };
  }

  /** From now on, changes reach `target`; it is brought up to date at once. */
  start(target: SecureContextTarget): void {
    this.target = target;
    this.sync();
  }

  stop(): void {
    this.target = undefined;
  }

  /** Providers tell of changes one at a time (a CA, then the pair): they are applied together. */
  enqueue(): void {
    if (this.queued) return;
    this.queued = true;
    setImmediate(() => {
      this.queued = false;
      this.sync();
    });
  }

  private sync(): void {
    const target = this.target;
    if (target === undefined) return;
    const next = this.tls();
    const last = this.applied;
    if (last !== undefined && last.cert === next.cert && last.key === next.key && last.clientCA === next.clientCA) return;
    try {
      target.setSecureContext(next);
    } catch (err) {
      this.logger.error('key failed with : could not build the TLS context', { name: 'DynamicServingCertificateController', err });
      return;
    }
    this.applied = next;
    if (last === undefined) return;
    if (last.clientCA !== next.clientCA) this.logger.info('Loaded client CA', { name: this.o.clientCA?.name });
    if (last.cert !== next.cert || last.key !== next.key) this.logger.info('Loaded serving cert', { name: this.o.serving.name });
  }
}
