import { readFileSync } from 'node:fs';
import { x509KeyPairError } from '../../apimachinery/crypto/x509keypair.js';
import { consoleLogger, type Logger } from '../../endpoints/filters/log.js';
import type { DynamicFileOptions } from './dynamic-cafile-content.js';
import { FileWatch } from './file-watch.js';
import type { CertKeyContent, CertKeyContentProvider, ControllerRunner, Listener } from './interfaces.js';

/**
 * kube's DynamicCertKeyPairContent: the serving certificate and key of --tls-cert-file and
 * --tls-private-key-file, read again while the server runs. A new pair must be one (Go's
 * tls.X509KeyPair: the key is the certificate's) or it is refused, the last good pair served
 * and the error logged. A tool that writes the certificate before the key makes the first
 * read after the certificate fail that check; the key's own event then loads the pair.
 */
export class DynamicCertKeyPairContent implements CertKeyContentProvider, ControllerRunner {
  readonly name: string;
  private current: CertKeyContent | undefined;
  private readonly listeners: Listener[] = [];
  private readonly watch: FileWatch;
  private readonly logger: Logger;

  constructor(
    purpose: string,
    readonly certFile: string,
    readonly keyFile: string,
    o: DynamicFileOptions = {},
  ) {
    if (certFile === '' || keyFile === '') throw new Error('missing filename for serving cert');
    this.name = `${purpose}::${certFile}::${keyFile}`;
    this.logger = o.logger ?? consoleLogger;
    this.loadCertKeyPair();
    this.watch = new FileWatch(this.name, [certFile, keyFile], () => this.loadCertKeyPair(), { logger: this.logger, ...(o.resyncMs !== undefined ? { resyncMs: o.resyncMs } : {}) });
  }

  addListener(listener: Listener): void {
    this.listeners.push(listener);
  }

  currentCertKeyContent(): CertKeyContent {
    return this.current!;
  }

  start(): void {
    this.watch.start();
  }

  stop(): Promise<void> {
    return this.watch.stop();
  }

  /** Reads both files; a changed valid pair replaces the current one and tells the listeners. */
  loadCertKeyPair(): void {
    const cert = readFileSync(this.certFile, 'utf8');
    const key = readFileSync(this.keyFile, 'utf8');
    if (cert.length === 0 || key.length === 0) throw new Error(`missing content for serving cert ${JSON.stringify(this.name)}`);
    const invalid = x509KeyPairError(Buffer.from(cert), Buffer.from(key));
    if (invalid !== undefined) throw new Error(invalid);
    if (this.current !== undefined && this.current.cert === cert && this.current.key === key) return;
    const first = this.current === undefined;
    this.current = { cert, key };
    if (first) return;
    this.logger.info('Loaded a new cert/key pair', { name: this.name });
    for (const l of this.listeners) l.enqueue();
  }
}
