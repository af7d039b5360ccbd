import { X509Certificate } from 'node:crypto';
import { TLSSocket, type DetailedPeerCertificate } from 'node:tls';
import { connectionOf, type APIRequest } from '../apimachinery/request/http.js';

/**
 * Client certificates for the authenticators: the chain a TLS client presented, and its
 * verification against a CA bundle as Go's crypto/x509 Verify does it with
 * KeyUsages [ClientAuth] (kube's x509.DefaultVerifyOptions). The TLS layer asks for a
 * certificate but accepts any (Serving: requestCert, rejectUnauthorized false), so every
 * authenticator that trusts a certificate verifies it here against its own bundle.
 */

const EKU_CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const EKU_ANY = '2.5.29.37.0';
/** Go's maxChainLength is larger; no client chain of ours comes near this. */
const MAX_CHAIN_LENGTH = 10;

/** The subject fields the authenticators read (pkix.Name's CommonName and Organization). */
export interface CertificateSubject {
  /** '' when absent; the last one when repeated, as Go fills pkix.Name. */
  readonly commonName: string;
  readonly organizations: readonly string[];
}

/** A chain leaf → trusted root, with the leaf's subject. */
export interface VerifiedChain {
  readonly chain: readonly X509Certificate[];
  readonly subject: CertificateSubject;
}

/** Why a certificate is not trusted; the message is worded as Go's crypto/x509 errors. */
export class CertificateVerificationError extends Error {
  override readonly name = 'CertificateVerificationError';
}

/** A set of trusted CA certificates (kube's CAContentProvider, static). */
export class CABundle {
  readonly roots: readonly X509Certificate[];

  /** Throws when `pem` holds no certificate; `source` names it in that error (a file path). */
  constructor(
    pem: string | Buffer,
    readonly source: string,
  ) {
    const blocks = String(pem).match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
    if (blocks.length === 0) throw new Error(`${source}: no certificates found`);
    this.roots = blocks.map((b) => new X509Certificate(b));
  }

  /** The bundle as PEM (for the TLS server's list of acceptable client CAs). */
  toPEM(): string {
    return this.roots.map((r) => r.toString()).join('');
  }

  /**
   * Certificate.Verify for client authentication: `certs[0]` is the leaf, the rest are
   * intermediates it may chain through. Returns the first chain ending at one of the roots
   * whose extended key usages allow client auth; throws CertificateVerificationError otherwise.
   */
  verify(certs: readonly X509Certificate[], now: number): X509Certificate[] {
    const [leaf, ...intermediates] = certs;
    if (leaf === undefined) throw new CertificateVerificationError('x509: no certificate');
    checkValidity(leaf, now);
    const found = this.roots.some((r) => r.raw.equals(leaf.raw)) ? [[leaf]] : this.chainsFrom([leaf], intermediates, now);
    if (found.length === 0) throw new CertificateVerificationError('x509: certificate signed by unknown authority');
    const usable = found.find(allowsClientAuth);
    if (usable === undefined) throw new CertificateVerificationError('x509: certificate specifies an incompatible key usage');
    return usable;
  }

  /** Every chain from the last certificate of `chain` up to a root (Go's buildChains). */
  private chainsFrom(chain: readonly X509Certificate[], intermediates: readonly X509Certificate[], now: number): X509Certificate[][] {
    const cert = chain[chain.length - 1]!;
    const out: X509Certificate[][] = [];
    for (const root of this.roots) {
      if (signedBy(cert, root) && isValidAt(root, now)) out.push([...chain, root]);
    }
    if (chain.length >= MAX_CHAIN_LENGTH) return out;
    for (const inter of intermediates) {
      if (chain.some((c) => c.raw.equals(inter.raw))) continue;
      // Only a CA may sign (Go's NotAuthorizedToSign); roots are trusted as given.
      if (!inter.ca || !signedBy(cert, inter) || !isValidAt(inter, now)) continue;
      out.push(...this.chainsFrom([...chain, inter], intermediates, now));
    }
    return out;
  }
}

/** A bundle that may be replaced while the server runs (kube's CAContentProvider; see server/dynamiccertificates). */
export interface CABundleProvider {
  currentCABundle(): CABundle;
}

/**
 * Verifies the client certificate of a request against one bundle. The peer chain of a TLS
 * connection does not change, and the outcome of verifying it can only change when the clock
 * crosses a validity bound of a certificate involved, so the outcome (trusted or not) is
 * remembered per connection until the next such bound. Without that, every request on a
 * kept-alive connection would pay a signature check, and a request-header authenticator would
 * pay it twice for every client certificate signed by another CA.
 */
export class ClientCertificateVerifier {
  private readonly outcomes = new WeakMap<object, { result: VerifiedChain | CertificateVerificationError; until: number; bundle: CABundle }>();
  private readonly now: () => number;

  /** `bundle` may change while the server runs (a CA file reloaded): each request verifies against the current one. */
  constructor(
    private readonly source: CABundle | CABundleProvider,
    opts: { now?: () => number } = {},
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** The bundle certificates are verified against now. */
  get bundle(): CABundle {
    return this.source instanceof CABundle ? this.source : this.source.currentCABundle();
  }

  /**
   * Undefined when the request came without a client certificate (or over plain HTTP); the
   * verified chain and its leaf's subject otherwise. Throws when the certificate is not
   * trusted, with the certificate named in the message as kube logs it.
   */
  verify(req: APIRequest): VerifiedChain | undefined {
    const outcome = this.check(req);
    if (outcome instanceof CertificateVerificationError) throw outcome;
    return outcome;
  }

  /** verify's outcome as a value: the error is returned, not thrown. */
  check(req: APIRequest): VerifiedChain | CertificateVerificationError | undefined {
    const socket = connectionOf(req.raw);
    if (!(socket instanceof TLSSocket)) return undefined;
    const certs = peerCertificates(socket);
    if (certs.length === 0) return undefined;
    const now = this.now();
    const bundle = this.bundle;
    let outcome = this.outcomes.get(socket);
    if (outcome === undefined || now >= outcome.until || outcome.bundle !== bundle) {
      outcome = { result: this.verifyChain(bundle, certs, now), until: nextValidityBound([...certs, ...bundle.roots], now), bundle };
      this.outcomes.set(socket, outcome);
    }
    return outcome.result;
  }

  private verifyChain(bundle: CABundle, certs: readonly X509Certificate[], now: number): VerifiedChain | CertificateVerificationError {
    try {
      const chain = bundle.verify(certs, now);
      return { chain, subject: subjectOf(chain[0]!) };
    } catch (err) {
      return new CertificateVerificationError(`verifying certificate ${certificateIdentifier(certs[0]!)} failed: ${(err as Error).message}`, { cause: err });
    }
  }
}

/** The first notBefore or notAfter of `certs` later than `now` (Infinity when none). */
function nextValidityBound(certs: readonly X509Certificate[], now: number): number {
  let next = Infinity;
  for (const c of certs) {
    for (const t of [Date.parse(c.validFrom), Date.parse(c.validTo) + 1]) if (t > now && t < next) next = t;
  }
  return next;
}

const peerChains = new WeakMap<TLSSocket, readonly X509Certificate[]>();

/** The certificates the client sent, leaf first (empty when none); read once per connection. */
export function peerCertificates(socket: TLSSocket): readonly X509Certificate[] {
  let chain = peerChains.get(socket);
  if (chain === undefined) {
    chain = readPeerChain(socket);
    peerChains.set(socket, chain);
  }
  return chain;
}

function readPeerChain(socket: TLSSocket): X509Certificate[] {
  const out: X509Certificate[] = [];
  const seen = new Set<string>();
  // issuerCertificate links end at a self-signed certificate pointing at itself.
  let c: DetailedPeerCertificate | undefined = socket.getPeerCertificate(true);
  while (c?.raw !== undefined && !seen.has(c.fingerprint256) && out.length <= MAX_CHAIN_LENGTH) {
    seen.add(c.fingerprint256);
    out.push(new X509Certificate(c.raw));
    c = c.issuerCertificate;
  }
  return out;
}

function signedBy(cert: X509Certificate, issuer: X509Certificate): boolean {
  return cert.checkIssued(issuer) && cert.verify(issuer.publicKey);
}

function isValidAt(cert: X509Certificate, now: number): boolean {
  return now >= Date.parse(cert.validFrom) && now <= Date.parse(cert.validTo);
}

function checkValidity(cert: X509Certificate, now: number): void {
  const notBefore = Date.parse(cert.validFrom);
  const notAfter = Date.parse(cert.validTo);
  if (now < notBefore) throw new CertificateVerificationError(`x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is before ${rfc3339(notBefore)}`);
  if (now > notAfter) throw new CertificateVerificationError(`x509: certificate has expired or is not yet valid: current time ${rfc3339(now)} is after ${rfc3339(notAfter)}`);
}

/** Go's checkChainForKeyUsage: every certificate that restricts its extended key usage must allow client auth. */
function allowsClientAuth(chain: readonly X509Certificate[]): boolean {
  return chain.every((c) => c.keyUsage === undefined || c.keyUsage.includes(EKU_ANY) || c.keyUsage.includes(EKU_CLIENT_AUTH));
}

function subjectOf(cert: X509Certificate): CertificateSubject {
  // The legacy object gives one string per attribute, or an array when the attribute repeats.
  const subject = cert.toLegacyObject().subject as unknown as Readonly<Record<string, string | readonly string[] | undefined>>;
  const all = (v: string | readonly string[] | undefined): readonly string[] => (v === undefined ? [] : typeof v === 'string' ? [v] : v);
  return { commonName: all(subject['CN']).at(-1) ?? '', organizations: all(subject['O']) };
}

/** Serial number and subject, to find the certificate in a log line. */
function certificateIdentifier(cert: X509Certificate): string {
  return `SN=${BigInt(`0x${cert.serialNumber}`).toString()}, subject=${JSON.stringify(cert.subject.replaceAll('\n', ', '))}`;
}

function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
