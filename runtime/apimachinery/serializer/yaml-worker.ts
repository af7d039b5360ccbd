/**
 * Entry of the threads that decode large YAML bodies (yaml-pool.ts): each message is one body,
 * decoded by decodeYAMLBody with the limits sent along; the answer is the decoded value and its
 * duplicate fields, or the decoder's Status as data. Nothing else runs here.
 */
import { parentPort } from 'node:worker_threads';
import { StatusError } from '../errors/index.js';
import { decodeYAMLBody, type DecodeOptions } from './decode.js';

export interface YAMLJob {
  readonly bytes: Uint8Array;
  readonly opts: DecodeOptions;
}

export type YAMLAnswer =
  /** The value as JSON text: the main thread parses it faster than it deserializes a cloned object graph. */
  | { readonly kind: 'decoded'; readonly json: string; readonly duplicateFields: string[]; readonly yamlDuplicateKeys: string[] }
  | { readonly kind: 'status'; readonly status: StatusError['status'] }
  | { readonly kind: 'error'; readonly message: string };

parentPort?.on('message', (job: YAMLJob) => {
  let answer: YAMLAnswer;
  try {
    const { value, duplicateFields, yamlDuplicateKeys = [] } = decodeYAMLBody(job.bytes, job.opts);
    answer = { kind: 'decoded', json: JSON.stringify(value), duplicateFields, yamlDuplicateKeys };
  } catch (err) {
    answer = err instanceof StatusError ? { kind: 'status', status: err.status } : { kind: 'error', message: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(answer);
});
