// Throwaway certificate authorities and certificates for the authentication tests.
import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const HOUR = 3_600_000;

export interface TestCA {
  readonly cert: x509.X509Certificate;
  readonly key: webcrypto.CryptoKey;
  readonly certPEM: string;
}

export interface KeyPair {
  /** The leaf, followed by `chain` when given. */
  readonly certPEM: string;
  readonly keyPEM: string;
}

export interface LeafSpec {
  /** e.g. `CN=jane, O=dev, O=ops`. */
  subject: string;
  usage?: 'client' | 'server' | 'none';
  /** Default: valid from an hour ago for a day. */
  notBefore?: Date;
  notAfter?: Date;
  /** A CA certificate (an intermediate). */
  ca?: boolean;
  /** SANs for serving certificates. */
  ips?: string[];
}

export async function newCA(commonName: string): Promise<TestCA> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${commonName}`,
    notBefore: new Date(Date.now() - HOUR),
    notAfter: new Date(Date.now() + 24 * HOUR),
    signingAlgorithm: ALG,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert, key: keys.privateKey, certPEM: cert.toString('pem') };
}

/** A certificate `issuer` signs; with `ca: true` it can be used as an intermediate (its asIssuer). */
export async function newLeaf(issuer: TestCA, spec: LeafSpec): Promise<KeyPair & { asIssuer: TestCA }> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const usage = spec.usage ?? 'client';
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: spec.subject,
    issuer: issuer.cert.subject,
    notBefore: spec.notBefore ?? new Date(Date.now() - HOUR),
    notAfter: spec.notAfter ?? new Date(Date.now() + 24 * HOUR),
    signingAlgorithm: ALG,
    publicKey: keys.publicKey,
    signingKey: issuer.key,
    extensions: [
      new x509.BasicConstraintsExtension(spec.ca ?? false, undefined, true),
      new x509.KeyUsagesExtension(spec.ca ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature : x509.KeyUsageFlags.digitalSignature, true),
      ...(usage === 'none' ? [] : [new x509.ExtendedKeyUsageExtension([usage === 'server' ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth])]),
      await x509.AuthorityKeyIdentifierExtension.create(issuer.cert),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ...(spec.ips ? [new x509.SubjectAlternativeNameExtension(spec.ips.map((ip) => ({ type: 'ip' as const, value: ip })))] : []),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  const keyPEM = `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`;
  const self: TestCA = { cert, key: keys.privateKey, certPEM: cert.toString('pem') };
  return { certPEM: cert.toString('pem'), keyPEM, asIssuer: self };
}

function serial(): string {
  const b = randomBytes(12);
  b[0] = (b[0] ?? 0) & 0x7f;
  return b.toString('hex');
}
