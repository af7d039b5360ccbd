import { validateDefaults } from '../../runtime/apiextensions/validation/defaults.js';
import { formatFieldError } from '../../runtime/apimachinery/validation/field.js';
import { SchemaValidator } from '../../runtime/apimachinery/validation/schema-validator.js';
import type { DiagnosticSink } from '../model/diagnostics.js';
import { type Definitions, inlineSchema } from '../model/inline.js';
import type { SchemaSites } from './sites.js';

/**
 * Validates every `@default` against the schema of its field, as kube's CRD
 * validation does (structuraldefaulting.ValidateDefaults: pruned-clean, valid
 * against the type, enum, pattern, format, bounds and CEL rules), so a bad
 * default fails codegen at its marker instead of failing every create.
 */
export function checkDefaults(sites: SchemaSites, definitions: Definitions, sink: DiagnosticSink): void {
  const validator = new SchemaValidator();
  for (const site of sites.defaults) {
    const node = inlineSchema(site.node, definitions, { resourceRoot: false });
    // Only this node's own default: nested ones are checked at their own markers.
    const own = validateDefaults(node, '', validator).filter((e) => e.field === 'default' || e.field.startsWith('default.') || e.field.startsWith('default['));
    for (const e of own) {
      sink.error(site.marker, `marker @default: ${JSON.stringify(site.node.default)} is not a valid value of ${site.target}: ${formatFieldError(e)}`);
    }
  }
}
