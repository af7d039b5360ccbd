// Protobuf garbage: `k8s\0` envelopes (runtime.Unknown) holding random bytes, a right TypeMeta
// over a random raw object, truncated envelopes and lengths past the end. The kinds that decode
// protobuf (Namespace, Service) refuse them as 400 (422 only if random bytes happen to decode to
// an object that fails validation); the others, and every patch, answer 415.
import { BAD_REQUEST, INVALID, UNSUPPORTED, type Expect, type FuzzCase } from '../cases.js';
import type { Rand } from '../prng.js';
import { aimKeep, verbRequest, type FuzzContext } from '../requests.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return Buffer.from(out);
}

/** A length-delimited field (wire type 2). */
const field = (n: number, b: Buffer): Buffer => Buffer.concat([varint((n << 3) | 2), varint(b.length), b]);
const typeMeta = (apiVersion: string, kind: string): Buffer => Buffer.concat([field(1, Buffer.from(apiVersion)), field(2, Buffer.from(kind))]);

export const protobufGarbage = (r: Rand, c: FuzzContext): FuzzCase => {
  const a = aimKeep(r, c);
  const random = r.bytes(1 + r.int(2048));
  const variants: Array<[Buffer, Expect[]]> = [
    [Buffer.concat([MAGIC, random]), [BAD_REQUEST, INVALID]],
    [Buffer.concat([MAGIC, field(1, typeMeta(a.t.apiVersion, a.t.kind)), field(2, random)]), [BAD_REQUEST, INVALID]],
    [Buffer.concat([MAGIC, field(1, typeMeta('v1', r.pick(['Namespace', 'Service', 'Nope'])))]), [BAD_REQUEST, INVALID]],
    [MAGIC, [BAD_REQUEST]],
    [MAGIC.subarray(0, 3), [BAD_REQUEST]],
    [Buffer.concat([MAGIC, Buffer.from([0x12, 0xff, 0xff, 0xff, 0xff, 0x0f]), random.subarray(0, 8)]), [BAD_REQUEST]],
    [Buffer.concat([MAGIC, field(1, typeMeta(a.t.apiVersion, a.t.kind)), Buffer.from([0x12, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01])]), [BAD_REQUEST]],
  ];
  const [body, kube] = r.pick(variants);
  const verb = r.pick(['create', 'update', 'patch'] as const);
  const expect = verb === 'patch' || !a.t.protobuf ? [UNSUPPORTED] : kube;
  const req = verbRequest(verb, a, c, { body, contentType: PROTOBUF });
  return { category: 'protobuf garbage', target: a.t.id, verb, answer: 'status', ...(verb === 'create' ? {} : { object: a.object as string }), build: () => ({ req, expect }) };
};
