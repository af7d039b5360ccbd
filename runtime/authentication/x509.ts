import type { Authenticator } from './authenticator.js';
import type { ClientCertificateVerifier } from './clientcert.js';

/**
 * x509.New with CommonNameUserConversion: a client certificate that verifies against the
 * client CA (--client-ca-file) names the user, CN as the name and every O as a group.
 * No certificate: not this authenticator's credential. A certificate that does not verify
 * (another CA, expired, not for client auth) is an error, so the request is refused rather
 * than served as anonymous. A verified certificate without a CN names nobody.
 * system:authenticated is added by the composition (authenticatedGroupAdder).
 */
export function x509Authenticator(verifier: ClientCertificateVerifier): Authenticator {
  return {
    async authenticate(req) {
      const verified = verifier.verify(req);
      if (verified === undefined || verified.subject.commonName === '') return undefined;
      return { user: { name: verified.subject.commonName, groups: verified.subject.organizations } };
    },
  };
}
