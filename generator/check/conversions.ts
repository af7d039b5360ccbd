import { Node, type SourceFile } from 'ts-morph';
import type { DiagnosticSink } from '../model/diagnostics.js';
import type { SourceLocation } from '../model/types.js';

const FUNCTIONS = ['toHub', 'fromHub'] as const;

/**
 * A `<Kind>Conversion` must be an object with both `toHub` and `fromHub`
 * (the generated scheme calls both); a missing one is reported at the
 * declaration instead of surfacing as tsc errors in generated files.
 */
export function checkConversion(file: SourceFile, name: string, relativePath: string, sink: DiagnosticSink): void {
  for (const decl of file.getExportedDeclarations().get(name) ?? []) {
    const at = locationOf(decl, relativePath);
    const members = memberNames(decl);
    if (members === undefined) {
      sink.error(at, `${name} must be an object { toHub(from), fromHub(hub) } (satisfies Conversion<${name.replace(/Conversion$/, '')}, hub.${name.replace(/Conversion$/, '')}>)`);
      continue;
    }
    const missing = FUNCTIONS.filter((f) => !members.has(f));
    if (missing.length > 0) {
      sink.error(at, `${name} has no ${missing.join(' and no ')}: a conversion needs toHub (this version to the hub) and fromHub (the hub to this version)`);
    }
  }
}

/** The member names of the exported value; undefined when it is not an object. */
function memberNames(decl: Node): ReadonlySet<string> | undefined {
  if (!Node.isVariableDeclaration(decl)) return undefined;
  let init = decl.getInitializer();
  while (init !== undefined && (Node.isSatisfiesExpression(init) || Node.isAsExpression(init) || Node.isParenthesizedExpression(init) || Node.isTypeAssertion(init))) {
    init = init.getExpression();
  }
  if (init !== undefined && Node.isObjectLiteralExpression(init)) {
    const names = new Set<string>();
    for (const p of init.getProperties()) {
      // A spread may bring anything: trust the type for it.
      if (Node.isSpreadAssignment(p)) return typeMembers(decl);
      names.add(p.getName());
    }
    return names;
  }
  return typeMembers(decl);
}

function typeMembers(decl: Node): ReadonlySet<string> | undefined {
  const type = decl.getType();
  if (!type.isObject()) return undefined;
  return new Set(type.getProperties().map((p) => p.getName()));
}

function locationOf(decl: Node, file: string): SourceLocation {
  const node = Node.isVariableDeclaration(decl) ? decl.getNameNode() : decl;
  const { line, column } = decl.getSourceFile().getLineAndColumnAtPos(node.getStart());
  return { file, line, column };
}
