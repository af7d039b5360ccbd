/**
 * The subset of k8s.io/apimachinery/pkg/util/validation that label selectors need:
 * label keys are qualified names, label values are at most 63 characters.
 * Each function returns the list of problems; an empty list means valid.
 */

const qualifiedNameChars = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const qualifiedNameRe = new RegExp(`^${qualifiedNameChars}$`);
const qualifiedNameMaxLength = 63;
const labelValueMaxLength = 63;
const dns1123LabelChars = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainRe = new RegExp(`^${dns1123LabelChars}(\\.${dns1123LabelChars})*$`);
const dns1123SubdomainMaxLength = 253;

const qualifiedNameErr = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** RegexError: `msg (e.g. 'a',  or 'b', regex used for validation is 'fmt')`, or `msg (regex used for validation is 'fmt')`. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${fmt}')`;
}

/** Go's len(): the UTF-8 byte length, which is what kube's length limits count. */
function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** IsQualifiedName: an optional DNS-1123 subdomain prefix and '/', then a name of ≤ 63 chars. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) {
      errs.push('prefix part must be non-empty');
    } else {
      for (const e of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${e}`);
    }
  } else {
    return ['a qualified name ' + regexError(qualifiedNameErr, qualifiedNameChars, 'MyName', 'my.name', '123-abc') + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"];
  }
  if (name.length === 0) {
    errs.push('name part must be non-empty');
  } else if (byteLength(name) > qualifiedNameMaxLength) {
    errs.push(`name part must be no more than ${qualifiedNameMaxLength} characters`);
  }
  // An empty name fails the pattern too: kube reports both causes.
  if (!qualifiedNameRe.test(name)) {
    errs.push('name part ' + regexError(qualifiedNameErr, qualifiedNameChars, 'MyName', 'my.name', '123-abc'));
  }
  return errs;
}

/** IsDNS1123Subdomain: lower-case RFC 1123 subdomain of at most 253 characters. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > dns1123SubdomainMaxLength) {
    errs.push(`must be no more than ${dns1123SubdomainMaxLength} characters`);
  }
  if (!dns1123SubdomainRe.test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        `${dns1123LabelChars}(\\.${dns1123LabelChars})*`,
        'example.com',
      ),
    );
  }
  return errs;
}

/** IsValidLabelValue: empty, or a qualified-name-like string of at most 63 characters. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > labelValueMaxLength) {
    errs.push(`must be no more than ${labelValueMaxLength} characters`);
  }
  if (value.length > 0 && !qualifiedNameRe.test(value)) {
    errs.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        `(${qualifiedNameChars})?`,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  }
  return errs;
}
