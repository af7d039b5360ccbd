import { compileRule } from '../../runtime/apimachinery/cel/compile.js';
import type { DiagnosticSink } from '../model/diagnostics.js';
import { type Definitions, inlineSchema } from '../model/inline.js';
import type { SchemaSites } from './sites.js';

/**
 * Compiles every CEL rule written in apis/, on the type that declares it
 * (whether or not a kind uses the type), as the apiserver compiles a CRD's
 * rules when it is written; a rule that does not compile is reported at its
 * own `@validation` marker.
 */
export function checkRules(sites: SchemaSites, definitions: Definitions, sink: DiagnosticSink): void {
  for (const site of sites.rules) {
    const node = inlineSchema(site.node, definitions, { resourceRoot: site.resourceRoot });
    for (const problem of compileRule(site.rule, node, { isResourceRoot: site.resourceRoot })) {
      const text = problem.field === 'rule' ? site.rule.rule : site.rule.messageExpression;
      // The compiler's text last: cel-go's form runs over several lines (the source and a caret).
      sink.error(site.marker, `marker @validation: CEL ${problem.field} "${text}" (on ${site.target}) does not compile: ${problem.message}`);
    }
  }
}
