import { sprintf } from './format.js';
import type { EventRecorder, Referenceable } from './types.js';

export interface FakeRecorderOptions {
  /** How many events are kept; further ones are dropped (client-go's channel would block instead). */
  readonly bufferSize: number;
  /** Appends ` involvedObject{kind=…,apiVersion=…}` to each entry. */
  readonly includeObject?: boolean;
}

/**
 * FakeRecorder for tests: each event becomes the string "<type> <reason> <message>" in `events`,
 * in order. Nothing is validated or sent anywhere.
 */
export class FakeRecorder implements EventRecorder {
  readonly events: string[] = [];
  readonly includeObject: boolean;
  readonly bufferSize: number;

  constructor(options: FakeRecorderOptions) {
    this.bufferSize = options.bufferSize;
    this.includeObject = options.includeObject ?? false;
  }

  event(object: Referenceable, eventtype: string, reason: string, message: string): void {
    this.#write(object, undefined, eventtype, reason, '%s', [message]);
  }

  eventf(object: Referenceable, eventtype: string, reason: string, messageFmt: string, ...args: unknown[]): void {
    this.#write(object, undefined, eventtype, reason, messageFmt, args);
  }

  annotatedEventf(object: Referenceable, annotations: Readonly<Record<string, string>>, eventtype: string, reason: string, messageFmt: string, ...args: unknown[]): void {
    this.#write(object, annotations, eventtype, reason, messageFmt, args);
  }

  /** Takes the oldest recorded event, if any (a receive from client-go's Events channel). */
  shift(): string | undefined {
    return this.events.shift();
  }

  #write(object: Referenceable, annotations: Readonly<Record<string, string>> | undefined, eventtype: string, reason: string, messageFmt: string, args: readonly unknown[]): void {
    if (this.events.length >= this.bufferSize) return;
    this.events.push(sprintf(`${eventtype} ${reason} ${messageFmt}`, ...args) + objectString(object, this.includeObject) + annotationsString(annotations));
  }
}

function objectString(object: Referenceable, include: boolean): string {
  if (!include) return '';
  const o = object as { readonly kind?: unknown; readonly apiVersion?: unknown };
  return ` involvedObject{kind=${typeof o.kind === 'string' ? o.kind : ''},apiVersion=${typeof o.apiVersion === 'string' ? o.apiVersion : ''}}`;
}

/** Go's fmt.Sprint of a map[string]string: `map[a:1 b:2]`, keys sorted. */
function annotationsString(annotations: Readonly<Record<string, string>> | undefined): string {
  if (annotations === undefined) return '';
  const keys = Object.keys(annotations).sort();
  if (keys.length === 0) return '';
  return ` map[${keys.map((k) => `${k}:${annotations[k]}`).join(' ')}]`;
}
