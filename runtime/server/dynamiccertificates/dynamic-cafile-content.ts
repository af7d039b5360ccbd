import { readFileSync } from 'node:fs';
import { CABundle } from '../../authentication/clientcert.js';
import { consoleLogger, type Logger } from '../../endpoints/filters/log.js';
import { FileWatch } from './file-watch.js';
import type { CAContentProvider, ControllerRunner, Listener } from './interfaces.js';

export interface DynamicFileOptions {
  /** How often the file is read besides its watch events; default a minute (kube's FileRefreshDuration). */
  readonly resyncMs?: number;
  readonly logger?: Logger;
}

/**
 * kube's DynamicFileCAContent: a CA bundle read from a file (--client-ca-file,
 * --requestheader-client-ca-file) and read again while the server runs. New content that is
 * empty or holds no certificate is refused, the last good bundle kept and the error logged;
 * listeners are told only when the bytes changed. The first read happens here and throws.
 */
export class DynamicFileCAContent implements CAContentProvider, ControllerRunner {
  readonly name: string;
  private content = '';
  private bundle: CABundle | undefined;
  private readonly listeners: Listener[] = [];
  private readonly watch: FileWatch;
  private readonly logger: Logger;

  constructor(
    purpose: string,
    readonly filename: string,
    o: DynamicFileOptions = {},
  ) {
    if (filename === '') throw new Error('missing filename for ca bundle');
    this.name = `${purpose}::${filename}`;
    this.logger = o.logger ?? consoleLogger;
    this.loadCABundle();
    this.watch = new FileWatch(this.name, [filename], () => this.loadCABundle(), { logger: this.logger, ...(o.resyncMs !== undefined ? { resyncMs: o.resyncMs } : {}) });
  }

  addListener(listener: Listener): void {
    this.listeners.push(listener);
  }

  currentCABundleContent(): string {
    return this.content;
  }

  currentCABundle(): CABundle {
    return this.bundle!;
  }

  start(): void {
    this.watch.start();
  }

  stop(): Promise<void> {
    return this.watch.stop();
  }

  /** Reads the file; a change that parses replaces the bundle and tells the listeners. */
  loadCABundle(): void {
    const content = readFileSync(this.filename, 'utf8');
    if (content.length === 0) throw new Error(`missing content for CA bundle ${JSON.stringify(this.name)}`);
    if (this.bundle !== undefined && content === this.content) return;
    let bundle: CABundle;
    try {
      bundle = new CABundle(content, this.name);
    } catch {
      throw new Error(`error loading CA bundle for ${JSON.stringify(this.name)}: data does not contain any valid RSA or ECDSA certificates`);
    }
    const first = this.bundle === undefined;
    this.content = content;
    this.bundle = bundle;
    if (first) return;
    this.logger.info('Loaded a new CA Bundle and Verifier', { name: this.name });
    for (const l of this.listeners) l.enqueue();
  }
}
