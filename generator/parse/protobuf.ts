import { type InterfaceDeclaration, Node, type PropertySignature, SyntaxKind, type TypeAliasDeclaration, type TypeNode } from 'ts-morph';
import { DiagnosticSink } from '../model/diagnostics.js';
import { PROTO_WELL_KNOWN, type ProtoField, type ProtoFieldType, type ProtoMessage, type ProtoWellKnown } from '../model/protobuf.js';
import type { SourceLocation } from '../model/types.js';
import { decodeMarkers } from './markers.js';
import type { PackageInfo } from './packages.js';
import { collectProperties, commentOf, type NamedDeclaration, propertyName, resolveTypeReference } from './schema.js';

/** The package whose scalars and TypeMeta have a protobuf meaning of their own. */
const META_GROUP = 'meta.k8s.io';
const META_VERSION = 'v1';

/** Aliases of apis/meta/v1 that are protobuf scalars. */
const META_SCALARS: Readonly<Record<string, 'int32' | 'int64' | 'bytes'>> = { int32: 'int32', int64: 'int64', Bytes: 'bytes' };

export interface ProtobufContext {
  readonly sink: DiagnosticSink;
  relativePath(file: string): string;
  packageOf(file: string): PackageInfo | undefined;
}

type Located<T> = T & { readonly location: SourceLocation };
type LocatedMessage = Located<Omit<ProtoMessage, 'fields'> & { readonly fields: readonly Located<ProtoField>[] }>;

/**
 * Reads the `@protobuf` field numbers of the interfaces of every package.
 * A type is a message when any of its fields is numbered; then every field
 * must be (TypeMeta's apiVersion and kind excepted: the envelope carries
 * them), numbers must be unique, every field type must have a wire form and
 * every message it refers to must be numbered too. Problems go to the sink.
 * Field markers are decoded again here with a scratch sink: the schema pass
 * already reports malformed markers once.
 */
export function readProtobufMessages(interfaces: ReadonlyMap<PackageInfo, readonly InterfaceDeclaration[]>, ctx: ProtobufContext): Map<PackageInfo, ProtoMessage[]> {
  const reader = new MessageReader(ctx);
  const found = new Map<PackageInfo, LocatedMessage[]>();
  for (const [pkg, decls] of interfaces) {
    found.set(
      pkg,
      decls.flatMap((d) => reader.message(d) ?? []),
    );
  }
  // Named lists become messages of the package that declares them, once some field uses them.
  for (const { pkg, message } of reader.namedLists.values()) found.set(pkg, [...(found.get(pkg) ?? []), message]);
  const known = new Set([...found.values()].flatMap((ms) => ms.map((m) => m.name)));
  for (const messages of found.values()) {
    for (const m of messages) {
      for (const f of m.fields) {
        if (f.type.kind === 'message' && !known.has(f.type.name)) {
          ctx.sink.error(f.location, `marker @protobuf: field ${f.name} of ${shortName(m.name)} refers to ${shortName(f.type.name)}, which has no @protobuf field numbers`);
        }
      }
    }
  }
  const out = new Map<PackageInfo, ProtoMessage[]>();
  for (const [pkg, messages] of found) {
    out.set(
      pkg,
      messages.map(withoutLocations).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    );
  }
  return out;
}

function withoutLocations(m: LocatedMessage): ProtoMessage {
  return { name: m.name, kind: m.kind, namedList: m.namedList, fields: m.fields.map(({ location: _, ...f }) => f) };
}

function shortName(definition: string): string {
  return definition.slice(definition.lastIndexOf('.') + 1);
}

class MessageReader {
  private readonly scratch = new DiagnosticSink();
  /** The named lists fields refer to, by definition name, with the package declaring each. */
  readonly namedLists = new Map<string, { pkg: PackageInfo; message: LocatedMessage }>();

  constructor(private readonly ctx: ProtobufContext) {}

  message(decl: InterfaceDeclaration): LocatedMessage | undefined {
    const props = collectProperties(decl, this.scratch, (n) => this.location(n)).filter((p) => !this.isTypeMeta(p.getParent()));
    const numbered = props.map((p) => ({ prop: p, marker: this.marker(p) }));
    if (numbered.every((n) => n.marker === undefined)) return undefined;
    const name = this.definitionName(decl);
    if (name === undefined) return undefined;
    const missing = numbered.filter((n) => n.marker === undefined).map((n) => propertyName(n.prop));
    if (missing.length > 0) {
      this.ctx.sink.error(this.location(decl), `marker @protobuf: ${decl.getName()} numbers some fields but not ${missing.join(', ')}: number every field (as Go's generated.proto does) or none`);
    }
    const fields: Located<ProtoField>[] = [];
    const byNumber = new Map<number, string>();
    for (const { prop, marker } of numbered) {
      if (marker === undefined) continue;
      const field = this.field(prop, marker);
      if (field === undefined) continue;
      const other = byNumber.get(field.number);
      if (other !== undefined) {
        this.ctx.sink.error(field.location, `marker @protobuf: field number ${field.number} of ${decl.getName()} is used by both ${other} and ${field.name}`);
        continue;
      }
      byNumber.set(field.number, field.name);
      fields.push(field);
    }
    return {
      name,
      kind: this.inlinesTypeMeta(decl) ? decl.getName() : undefined,
      namedList: false,
      fields: fields.sort((a, b) => a.number - b.number),
      location: this.location(decl),
    };
  }

  private marker(prop: PropertySignature): { number: number; flags: readonly string[] } | undefined {
    const file = this.ctx.relativePath(prop.getSourceFile().getFilePath());
    return decodeMarkers(commentOf(prop), 'field', file, this.scratch).one('protobuf')?.value;
  }

  private field(prop: PropertySignature, marker: { number: number; flags: readonly string[] }): Located<ProtoField> | undefined {
    const location = this.location(prop);
    const name = propertyName(prop);
    const typeNode = prop.getTypeNode();
    const shape = typeNode === undefined ? `property ${name} needs a type annotation` : this.shape(typeNode);
    if (typeof shape === 'string') {
      this.ctx.sink.error(location, `marker @protobuf: field ${name}: ${shape}`);
      return undefined;
    }
    const pointer = marker.flags.includes('pointer');
    const omitZero = marker.flags.includes('omitzero');
    if ((pointer || omitZero) && shape.cardinality !== 'single') {
      this.ctx.sink.error(location, `marker @protobuf: field ${name}: ${pointer ? 'pointer' : 'omitzero'} applies to a single value, not to a ${shape.cardinality === 'map' ? 'map' : 'list'}`);
      return undefined;
    }
    if (omitZero && !(shape.type.kind === 'wellKnown' && (shape.type.name === 'Time' || shape.type.name === 'MicroTime'))) {
      this.ctx.sink.error(location, `marker @protobuf: field ${name}: omitzero is supported on Time and MicroTime fields only`);
      return undefined;
    }
    if (pointer && omitZero) {
      this.ctx.sink.error(location, `marker @protobuf: field ${name}: a pointer is never a zero struct, so omitzero does not apply`);
      return undefined;
    }
    return { name, number: marker.number, ...shape, pointer, omitEmpty: prop.hasQuestionToken(), omitZero, location };
  }

  /** The cardinality and value type of a property's type, or why it has no wire form. */
  private shape(node: TypeNode): { cardinality: ProtoField['cardinality']; type: ProtoFieldType } | string {
    const inner = unwrap(node);
    if (Node.isArrayTypeNode(inner)) return this.element(inner.getElementTypeNode(), 'repeated');
    if (Node.isTypeReference(inner)) {
      const ref = inner.getTypeName().getText();
      const args = inner.getTypeArguments();
      if ((ref === 'Array' || ref === 'ReadonlyArray') && args.length === 1) return this.element(args[0]!, 'repeated');
      if (ref === 'Record' && args.length === 2) {
        if (unwrap(args[0]!).getKind() !== SyntaxKind.StringKeyword) return 'map keys must be string';
        return this.element(args[1]!, 'map');
      }
    }
    const type = this.valueType(inner);
    return typeof type === 'string' ? type : { cardinality: 'single', type };
  }

  private element(node: TypeNode, cardinality: 'repeated' | 'map'): { cardinality: 'repeated' | 'map'; type: ProtoFieldType } | string {
    const inner = unwrap(node);
    if (Node.isArrayTypeNode(inner) || (Node.isTypeReference(inner) && ['Array', 'ReadonlyArray', 'Record'].includes(inner.getTypeName().getText()))) {
      return 'nested lists and maps have no protobuf form: name the inner list (`export type ExtraValue = string[]`, which go-to-protobuf wraps in a message) or wrap the inner map in a named message';
    }
    const type = this.valueType(inner);
    return typeof type === 'string' ? type : { cardinality, type };
  }

  private valueType(node: TypeNode): ProtoFieldType | string {
    switch (node.getKind()) {
      case SyntaxKind.StringKeyword:
        return { kind: 'scalar', scalar: 'string' };
      case SyntaxKind.BooleanKeyword:
        return { kind: 'scalar', scalar: 'bool' };
      case SyntaxKind.NumberKeyword:
        return 'a plain number has no protobuf type: use int32 or int64 from apis/meta/v1';
      default:
        break;
    }
    if (Node.isLiteralTypeNode(node) || Node.isUnionTypeNode(node)) return literalUnionType(node);
    if (Node.isTypeLiteral(node)) return 'an inline object type has no protobuf message: declare it as a named interface';
    if (!Node.isTypeReference(node)) return `type "${node.getText()}" has no protobuf form`;
    const decl = resolveTypeReference(node);
    if (decl === undefined) return `type ${node.getTypeName().getText()} is not declared in apis/`;
    return this.declarationType(decl);
  }

  private declarationType(decl: NamedDeclaration): ProtoFieldType | string {
    const name = decl.getName();
    if (this.inMeta(decl)) {
      const scalar = META_SCALARS[name];
      if (scalar !== undefined) return { kind: 'scalar', scalar };
      if ((PROTO_WELL_KNOWN as readonly string[]).includes(name)) return { kind: 'wellKnown', name: name as ProtoWellKnown };
      if (name === 'Duration') return 'Duration has no protobuf decoder yet';
    }
    if (Node.isInterfaceDeclaration(decl)) {
      const definition = this.definitionName(decl);
      return definition === undefined ? `type ${name} is declared outside an apis/<group>/<version>/ package` : { kind: 'message', name: definition };
    }
    if (Node.isEnumDeclaration(decl)) {
      return decl.getMembers().every((m) => typeof m.getValue() === 'string') ? { kind: 'scalar', scalar: 'string' } : `enum ${name} needs string values`;
    }
    const aliased = unwrap(decl.getTypeNodeOrThrow());
    if (isListNode(aliased)) return this.namedList(decl, aliased);
    if (Node.isTypeLiteral(aliased) || aliased.getKind() === SyntaxKind.ObjectKeyword) return `type ${name} is an object alias with no protobuf message`;
    const type = this.valueType(aliased);
    return typeof type === 'string' ? `${name}: ${type}` : type;
  }

  /**
   * A type alias of a list declared in a version package is a named list, as Go's named slice
   * (`type ExtraValue []string`): go-to-protobuf gives it a message of the alias's name with
   * one field, `repeated <element> items = 1`, usable as a field, a map value or a list element.
   */
  private namedList(decl: TypeAliasDeclaration, list: TypeNode): ProtoFieldType | string {
    const pkg = this.ctx.packageOf(decl.getSourceFile().getFilePath());
    if (pkg === undefined) return `type ${decl.getName()} is declared outside an apis/<group>/<version>/ package`;
    const name = `${pkg.openapiPackage}.${decl.getName()}`;
    if (this.namedLists.has(name)) return { kind: 'message', name };
    const shape = this.shape(list);
    if (typeof shape === 'string') return `${decl.getName()}: ${shape}`;
    const location = this.location(decl);
    const items: Located<ProtoField> = { name: 'items', number: 1, cardinality: 'repeated', type: shape.type, pointer: false, omitEmpty: false, omitZero: false, location };
    this.namedLists.set(name, { pkg, message: { name, kind: undefined, namedList: true, fields: [items], location } });
    return { kind: 'message', name };
  }

  private inMeta(decl: NamedDeclaration): boolean {
    const pkg = this.ctx.packageOf(decl.getSourceFile().getFilePath());
    return pkg?.groupName === META_GROUP && pkg.version === META_VERSION;
  }

  private isTypeMeta(node: Node | undefined): boolean {
    return node !== undefined && Node.isInterfaceDeclaration(node) && node.getName() === 'TypeMeta' && this.inMeta(node);
  }

  private inlinesTypeMeta(decl: InterfaceDeclaration): boolean {
    return decl.getBaseDeclarations().some((b) => Node.isInterfaceDeclaration(b) && (this.isTypeMeta(b) || this.inlinesTypeMeta(b)));
  }

  private definitionName(decl: InterfaceDeclaration): string | undefined {
    const pkg = this.ctx.packageOf(decl.getSourceFile().getFilePath());
    return pkg === undefined ? undefined : `${pkg.openapiPackage}.${decl.getName()}`;
  }

  private location(node: Node): SourceLocation {
    return { file: this.ctx.relativePath(node.getSourceFile().getFilePath()), line: node.getStartLineNumber() };
  }
}

/** Strips parentheses, `readonly` and `| null` (null is how JSON spells an unset pointer). */
function unwrap(node: TypeNode): TypeNode {
  if (Node.isParenthesizedTypeNode(node)) return unwrap(node.getTypeNode());
  if (Node.isTypeOperatorTypeNode(node) && node.getOperator() === SyntaxKind.ReadonlyKeyword) return unwrap(node.getTypeNode());
  if (Node.isUnionTypeNode(node)) {
    const members = node.getTypeNodes().filter((m) => !isNull(m));
    if (members.length === 1) return unwrap(members[0]!);
  }
  return node;
}

/** `T[]`, `Array<T>` or `ReadonlyArray<T>`. */
function isListNode(node: TypeNode): boolean {
  if (Node.isArrayTypeNode(node)) return true;
  return Node.isTypeReference(node) && ['Array', 'ReadonlyArray'].includes(node.getTypeName().getText()) && node.getTypeArguments().length === 1;
}

function isNull(node: TypeNode): boolean {
  return node.getKind() === SyntaxKind.NullKeyword || (Node.isLiteralTypeNode(node) && node.getLiteral().getKind() === SyntaxKind.NullKeyword);
}

/** String literals and unions of them are Go string enums; anything else in a union has no single wire type. */
function literalUnionType(node: TypeNode): ProtoFieldType | string {
  const members = Node.isUnionTypeNode(node) ? node.getTypeNodes().filter((m) => !isNull(m)) : [node];
  const strings = members.every((m) => m.getKind() === SyntaxKind.StringKeyword || (Node.isLiteralTypeNode(m) && Node.isStringLiteral(m.getLiteral())));
  return strings ? { kind: 'scalar', scalar: 'string' } : `the union "${node.getText()}" has no single protobuf type`;
}
