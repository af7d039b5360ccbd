import { type EnumDeclaration, type InterfaceDeclaration, Node, type PropertySignature, SyntaxKind, type TypeAliasDeclaration, type TypeNode } from 'ts-morph';
import type { SchemaSites } from '../check/sites.js';
import type { DiagnosticSink } from '../model/diagnostics.js';
import type { JSONSchemaProps } from '../model/schema.js';
import type { SourceLocation } from '../model/types.js';
import { parseComment, type ParsedComment } from './comments.js';
import { isFrameworkTypeFile } from './framework.js';
import { applySchemaMarkers } from './schema-markers.js';
import { decodeMarkers, type Markers } from './markers.js';
import type { PackageInfo } from './packages.js';
import { type TypeContext, unrepresentable } from './unrepresentable.js';
import type { MarkerSite } from './vocabulary.js';
import type { GoTypeName } from '../../runtime/apimachinery/schema/typeddecode.js';

export type NamedDeclaration = InterfaceDeclaration | TypeAliasDeclaration | EnumDeclaration;

export interface SchemaContext {
  readonly sink: DiagnosticSink;
  /** Where markers with checks that need every definition (rules, defaults) are recorded. */
  readonly sites: SchemaSites;
  /** Project-relative path of a file, forward slashes. */
  relativePath(file: string): string;
  /** The apis/ package a file belongs to, if any. */
  packageOf(file: string): PackageInfo | undefined;
}

/**
 * Translates TypeScript declarations into JSON schemas. Interfaces (and type
 * aliases of object shapes) become named definitions referenced with `$ref`
 * (the name is the package's OpenAPI prefix plus the type name), so recursive
 * types work and OpenAPI documents can share components; aliases of scalars
 * (`int32`, `Time`, string-literal unions) are inlined, as Kubernetes'
 * OpenAPI does.
 */
export class SchemaBuilder {
  /** Definition name → schema; filled on first reference. */
  readonly definitions = new Map<string, JSONSchemaProps>();
  /** Definition name → the Go type names of its fields that are named types (typed decoding's errors). */
  readonly goTypes = new Map<string, Record<string, GoTypeName>>();
  private readonly aliasMarkers = new Map<TypeAliasDeclaration, Markers>();
  private readonly names = new Map<NamedDeclaration, string>();
  private readonly inlined = new Map<NamedDeclaration, JSONSchemaProps>();

  constructor(private readonly ctx: SchemaContext) {}

  /** The `$ref` name of an interface, building its definition if needed. */
  definitionFor(decl: InterfaceDeclaration, site: MarkerSite = 'type', markers?: Markers): string {
    const known = this.names.get(decl);
    if (known !== undefined) return known;
    const name = this.definitionName(decl);
    this.names.set(decl, name);
    this.definitions.set(name, {}); // placeholder: recursion refers to the name
    this.definitions.set(name, this.interfaceSchema(decl, site, markers, name));
    return name;
  }

  /** Schema of a property's type plus the property's own markers and description. */
  propertySchema(prop: PropertySignature): { schema: JSONSchemaProps; markers: Markers } {
    const comment = commentOf(prop);
    const file = this.ctx.relativePath(prop.getSourceFile().getFilePath());
    const markers = decodeMarkers(comment, 'field', file, this.ctx.sink);
    const typeNode = prop.getTypeNode();
    const location = this.location(prop);
    const target = `property ${propertyName(prop)}`;
    let schema: JSONSchemaProps;
    if (markers.has('schemaless')) {
      // controller-gen's Schemaless: the type is not looked at; any value is kept as sent.
      schema = { 'x-kubernetes-preserve-unknown-fields': true };
    } else if (typeNode === undefined) {
      this.ctx.sink.error(location, `property ${prop.getName()} needs a type annotation`);
      schema = {};
    } else {
      schema = this.forTypeNode(typeNode, {
        target,
        at: prop,
        optIn: markers.has('preserveUnknownFields'),
        intOrString: markers.has('intOrString'),
        optional: prop.hasQuestionToken() || markers.has('optional'),
      });
    }
    if (comment.description !== '') schema = { ...schema, description: comment.description };
    schema = this.mark(schema, markers, { location, target, resourceRoot: false });
    return { schema, markers };
  }

  /**
   * The schema of a type written in a declaration. Types with no structural
   * schema (`unknown`, `object`, unions of objects or of unrelated scalars,
   * `undefined` where a value is required) are errors at `ctx.at` unless the
   * declaration opted into unvalidated data (`@preserveUnknownFields`).
   */
  forTypeNode(node: TypeNode, ctx: TypeContext): JSONSchemaProps {
    if (Node.isParenthesizedTypeNode(node)) return this.forTypeNode(node.getTypeNode(), ctx);
    const inner: TypeContext = { ...ctx, optional: false };
    switch (node.getKind()) {
      case SyntaxKind.StringKeyword:
        return { type: 'string' };
      case SyntaxKind.NumberKeyword:
        return { type: 'number' };
      case SyntaxKind.BooleanKeyword:
        return { type: 'boolean' };
      case SyntaxKind.UnknownKeyword:
        return this.opaque(node, ctx, { 'x-kubernetes-preserve-unknown-fields': true });
      case SyntaxKind.ObjectKeyword:
        return this.opaque(node, ctx, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
      default:
        break;
    }
    if (Node.isArrayTypeNode(node)) return { type: 'array', items: this.forTypeNode(node.getElementTypeNode(), inner) };
    if (Node.isTypeOperatorTypeNode(node) && node.getOperator() === SyntaxKind.ReadonlyKeyword) return this.forTypeNode(node.getTypeNode(), ctx);
    if (Node.isLiteralTypeNode(node)) return this.literalUnion([node]) ?? this.unsupported(node);
    if (Node.isUnionTypeNode(node)) return this.union(node.getTypeNodes(), node, ctx);
    if (Node.isTypeLiteral(node))
      return this.objectSchema(
        node.getProperties(),
        node.getIndexSignatures().flatMap((s) => s.getReturnTypeNode() ?? []),
        node,
        inner,
      );
    if (Node.isTypeReference(node)) return this.reference(node, inner);
    return this.unsupported(node);
  }

  /** `unknown` and `object`: any value (object), kept unvalidated, only when the declaration says so. */
  private opaque(node: TypeNode, ctx: TypeContext, schema: JSONSchemaProps): JSONSchemaProps {
    if (!ctx.optIn) this.ctx.sink.error(this.location(ctx.at), unrepresentable.opaque(ctx, node.getText()));
    return schema;
  }

  private reference(node: import('ts-morph').TypeReferenceNode, ctx: TypeContext): JSONSchemaProps {
    const typeName = node.getTypeName().getText();
    const args = node.getTypeArguments();
    const decl = this.resolve(node);
    if (decl === undefined) {
      // Only the lib types with a JSON meaning are accepted without a declaration in apis/.
      if ((typeName === 'Array' || typeName === 'ReadonlyArray') && args.length === 1) return { type: 'array', items: this.forTypeNode(args[0]!, ctx) };
      if (typeName === 'Record' && args.length === 2) {
        const key = args[0]!;
        if (key.getKind() !== SyntaxKind.StringKeyword) this.ctx.sink.error(this.location(node), 'Record keys must be string: JSON object keys are strings');
        return { type: 'object', additionalProperties: this.forTypeNode(args[1]!, ctx) };
      }
      this.ctx.sink.error(this.location(node), `type ${typeName} is not declared in apis/ and has no JSON schema (use the scalars of apis/meta/v1, e.g. Time instead of Date)`);
      return {};
    }
    if (args.length > 0) {
      this.ctx.sink.error(this.location(node), `generic type ${typeName}<…> cannot be used in an API schema`);
      return {};
    }
    if (Node.isInterfaceDeclaration(decl)) return { $ref: this.definitionFor(decl) };
    if (Node.isEnumDeclaration(decl)) return this.enumSchema(decl);
    return this.forAlias(decl);
  }

  /** Schema of a type alias: inline for scalars, a `$ref` to a definition otherwise. */
  forAlias(decl: TypeAliasDeclaration): JSONSchemaProps {
    const cachedInline = this.inlined.get(decl);
    if (cachedInline !== undefined) return cachedInline;
    const known = this.names.get(decl);
    if (known !== undefined) return { $ref: known };
    const typeNode = decl.getTypeNodeOrThrow();
    if (decl.getTypeParameters().length > 0) {
      this.ctx.sink.error(this.location(decl), `generic type ${decl.getName()} cannot be used in an API schema`);
      return {};
    }
    const comment = commentOf(decl);
    const file = this.ctx.relativePath(decl.getSourceFile().getFilePath());
    const markers = decodeMarkers(comment, 'type', file, this.ctx.sink);
    this.aliasMarkers.set(decl, markers);
    const target = `type ${decl.getName()}`;
    const finish = (schema: JSONSchemaProps): JSONSchemaProps => {
      const described = comment.description === '' ? schema : { ...schema, description: comment.description };
      return this.mark(described, markers, { location: this.location(decl), target, resourceRoot: false });
    };
    const ctx: TypeContext = { target, at: decl, optIn: markers.has('preserveUnknownFields'), intOrString: markers.has('intOrString'), optional: false };
    if (isScalarAlias(typeNode)) {
      const schema = finish(this.forTypeNode(typeNode, ctx));
      this.inlined.set(decl, schema);
      return schema;
    }
    if (isListAlias(typeNode)) {
      // A named list (Go's `type ExtraValue []string`) is its array where used, with no
      // description of its own, as kube-openapi writes it; protobuf alone gives it a message.
      const schema = this.mark(this.forTypeNode(typeNode, ctx), markers, { location: this.location(decl), target, resourceRoot: false });
      this.inlined.set(decl, schema);
      return schema;
    }
    const name = this.definitionName(decl);
    this.names.set(decl, name);
    this.definitions.set(name, {});
    this.definitions.set(name, finish(this.forTypeNode(typeNode, ctx)));
    return { $ref: name };
  }

  private interfaceSchema(decl: InterfaceDeclaration, site: MarkerSite, given: Markers | undefined, name: string): JSONSchemaProps {
    const comment = commentOf(decl);
    const file = this.ctx.relativePath(decl.getSourceFile().getFilePath());
    const markers = given ?? decodeMarkers(comment, site, file, this.ctx.sink);
    const properties = collectProperties(decl, this.ctx.sink, (n) => this.location(n));
    const goTypes: Record<string, GoTypeName> = {};
    for (const prop of properties) {
      const typeNode = prop.getTypeNode();
      const goType = typeNode === undefined ? undefined : this.goTypeOf(typeNode);
      if (goType !== undefined) goTypes[propertyName(prop)] = goType;
    }
    if (Object.keys(goTypes).length > 0) this.goTypes.set(name, goTypes);
    const target = `${site === 'kind' ? 'kind' : 'type'} ${decl.getName()}`;
    const ctx: TypeContext = { target, at: decl, optIn: markers.has('preserveUnknownFields'), intOrString: false, optional: false };
    let schema = this.objectSchema(
      properties,
      decl.getIndexSignatures().flatMap((s) => s.getReturnTypeNode() ?? []),
      decl,
      ctx,
    );
    if (comment.description !== '') schema = { ...schema, description: comment.description };
    return this.mark(schema, markers, { location: this.location(decl), target, resourceRoot: site === 'kind' });
  }

  /** Applies a declaration's schema markers and records the node for the checks that need every definition. */
  private mark(schema: JSONSchemaProps, markers: Markers, site: { location: SourceLocation; target: string; resourceRoot: boolean }): JSONSchemaProps {
    const out = applySchemaMarkers(schema, markers, { location: site.location, sink: this.ctx.sink, target: site.target });
    this.ctx.sites.recordMarkers(out, markers, site);
    return out;
  }

  /** `ctx` is the enclosing declaration's: an index signature's values are part of it. */
  private objectSchema(props: readonly PropertySignature[], indexTypes: readonly TypeNode[], at: Node, ctx: TypeContext): JSONSchemaProps {
    const properties: Record<string, JSONSchemaProps> = {};
    const required: string[] = [];
    for (const prop of props) {
      const name = propertyName(prop);
      const { schema, markers } = this.propertySchema(prop);
      properties[name] = schema;
      const optional = prop.hasQuestionToken();
      if (markers.has('required') && markers.has('optional')) {
        this.ctx.sink.error(this.location(prop), `marker @required: property ${name} cannot be both @required and @optional`);
      }
      if (markers.has('required') || (!optional && !markers.has('optional'))) required.push(name);
    }
    const schema: JSONSchemaProps = { type: 'object' };
    if (props.length > 0) schema.properties = properties;
    if (required.length > 0) schema.required = required;
    if (indexTypes.length > 1) this.ctx.sink.error(this.location(at), 'at most one index signature is supported');
    if (indexTypes[0] !== undefined) {
      if (props.length > 0) this.ctx.sink.error(this.location(at), 'an object cannot have both properties and an index signature in a structural schema');
      schema.additionalProperties = this.forTypeNode(indexTypes[0], ctx);
    }
    return schema;
  }

  /**
   * Unions with a structural form: `T | null` (nullable), literals (enum),
   * `number | string` declared int-or-string. `undefined` is dropped where the
   * property is optional (`f?: T | undefined` is `f?: T`) and an error where a
   * value is required. Anything else is an error unless opted in.
   */
  private union(members: readonly TypeNode[], at: TypeNode, ctx: TypeContext): JSONSchemaProps {
    const defined = members.filter((m) => m.getKind() !== SyntaxKind.UndefinedKeyword);
    if (defined.length < members.length && !ctx.optional) {
      this.ctx.sink.error(this.location(ctx.at), unrepresentable.undefinedMember(ctx, at.getText()));
    }
    const nonNull = defined.filter((m) => !isNullType(m));
    const nullable = nonNull.length < defined.length;
    const withNull = (s: JSONSchemaProps): JSONSchemaProps => (nullable ? { ...s, nullable: true } : s);
    if (nonNull.length === 1) return withNull(this.forTypeNode(nonNull[0]!, ctx));
    const literals = this.literalUnion(nonNull);
    if (literals !== undefined) return withNull(literals);
    const kinds = new Set(nonNull.map((m) => m.getKind()));
    if (kinds.size === 2 && kinds.has(SyntaxKind.NumberKeyword) && kinds.has(SyntaxKind.StringKeyword)) {
      if (!ctx.intOrString && !ctx.optIn) this.ctx.sink.error(this.location(ctx.at), unrepresentable.numberOrString(ctx, at.getText()));
      return withNull(intOrString());
    }
    // Kubernetes documents such types (JSONSchemaPropsOrArray, …) as schemaless
    // values: faithful only when the declaration says its data is unvalidated.
    if (!ctx.optIn)
      this.ctx.sink.error(
        this.location(ctx.at),
        unrepresentable.union(
          ctx,
          at.getText(),
          nonNull.map((m) => this.memberKind(m)),
        ),
      );
    return withNull({ 'x-kubernetes-preserve-unknown-fields': true });
  }

  /** Whether a union member is an object (interface, object literal, Record) or a scalar/array. */
  private memberKind(node: TypeNode): 'object' | 'scalar' {
    if (Node.isTypeLiteral(node) || node.getKind() === SyntaxKind.ObjectKeyword) return 'object';
    if (Node.isTypeReference(node)) {
      const decl = this.resolve(node);
      if (decl !== undefined && Node.isInterfaceDeclaration(decl)) return 'object';
      if (decl !== undefined && Node.isTypeAliasDeclaration(decl) && !isScalarAlias(decl.getTypeNodeOrThrow()) && !isListAlias(decl.getTypeNodeOrThrow())) return 'object';
      if (decl === undefined && node.getTypeName().getText() === 'Record') return 'object';
    }
    return 'scalar';
  }

  /** A union of string (or number) literals is an enum; undefined when the members are not all literals. */
  private literalUnion(members: readonly TypeNode[]): JSONSchemaProps | undefined {
    const values: (string | number | boolean)[] = [];
    for (const m of members) {
      if (!Node.isLiteralTypeNode(m)) return undefined;
      const lit = m.getLiteral();
      if (Node.isStringLiteral(lit)) values.push(lit.getLiteralValue());
      else if (Node.isNumericLiteral(lit)) values.push(lit.getLiteralValue());
      else if (lit.getKind() === SyntaxKind.TrueKeyword) values.push(true);
      else if (lit.getKind() === SyntaxKind.FalseKeyword) values.push(false);
      else return undefined;
    }
    const types = new Set(values.map((v) => typeof v));
    if (types.size !== 1) return undefined;
    const type = types.has('string') ? 'string' : types.has('boolean') ? 'boolean' : values.every((v) => Number.isInteger(v)) ? 'integer' : 'number';
    return { type, enum: values };
  }

  private enumSchema(decl: EnumDeclaration): JSONSchemaProps {
    const values = decl.getMembers().map((m) => m.getValue());
    if (values.some((v) => v === undefined)) {
      this.ctx.sink.error(this.location(decl), `enum ${decl.getName()} needs explicit member values`);
      return {};
    }
    const comment = commentOf(decl);
    const schema: JSONSchemaProps = {
      type: values.every((v) => typeof v === 'string') ? 'string' : 'integer',
      enum: values as (string | number)[],
    };
    if (comment.description !== '') schema.description = comment.description;
    return schema;
  }

  /**
   * How Go's decoder names the type written as `node` where its schema cannot tell: a named type
   * (an enum, or an alias of a scalar or a list: `ServiceType` is Go's `v1.ServiceType` where the
   * schema says string), or a list or map of one. Undefined where the schema tells it all (plain
   * scalars, structs, which are `$ref`s, and the aliases of types with their own decoders, which
   * carry a format or int-or-string).
   */
  private goTypeOf(node: TypeNode): GoTypeName | undefined {
    if (Node.isParenthesizedTypeNode(node)) return this.goTypeOf(node.getTypeNode());
    if (Node.isTypeOperatorTypeNode(node) && node.getOperator() === SyntaxKind.ReadonlyKeyword) return this.goTypeOf(node.getTypeNode());
    if (Node.isUnionTypeNode(node)) {
      const members = node.getTypeNodes().filter((m) => m.getKind() !== SyntaxKind.UndefinedKeyword && !isNullType(m));
      return members.length === 1 ? this.goTypeOf(members[0]!) : undefined;
    }
    if (Node.isArrayTypeNode(node)) {
      const items = this.goTypeOf(node.getElementTypeNode());
      return items === undefined ? undefined : { items };
    }
    if (!Node.isTypeReference(node)) return undefined;
    const decl = this.resolve(node);
    const args = node.getTypeArguments();
    if (decl === undefined) {
      const name = node.getTypeName().getText();
      if ((name === 'Array' || name === 'ReadonlyArray') && args.length === 1) {
        const items = this.goTypeOf(args[0]!);
        return items === undefined ? undefined : { items };
      }
      if (name === 'Record' && args.length === 2) {
        const values = this.goTypeOf(args[1]!);
        return values === undefined ? undefined : { values };
      }
      return undefined;
    }
    if (Node.isInterfaceDeclaration(decl)) return undefined;
    const name = this.goNameOf(decl);
    if (Node.isEnumDeclaration(decl)) return name === undefined ? undefined : { name };
    const target = decl.getTypeNodeOrThrow();
    if (isListAlias(target)) {
      const items = this.goTypeOf(target);
      return name === undefined ? items : { ...items, name };
    }
    return isScalarAlias(target) && name !== undefined ? { name } : undefined;
  }

  /** `<version>.<Name>` of a named type of apis/, its `@goType`, or undefined where Go has no name for it. */
  private goNameOf(decl: TypeAliasDeclaration | EnumDeclaration): string | undefined {
    const pkg = this.ctx.packageOf(decl.getSourceFile().getFilePath());
    if (pkg === undefined) return undefined;
    const named = `${pkg.version}.${decl.getName()}`;
    if (Node.isEnumDeclaration(decl)) return named;
    const schema = this.forAlias(decl); // decodes the alias's markers too, once
    const given = this.aliasMarkers.get(decl)?.one('goType')?.value;
    if (given !== undefined) return given === 'string' ? undefined : given;
    const ownDecoder = schema.format !== undefined || schema['x-kubernetes-int-or-string'] === true || schema['x-kubernetes-preserve-unknown-fields'] === true;
    return isScalarAlias(decl.getTypeNodeOrThrow()) && ownDecoder ? undefined : named;
  }

  private resolve(node: import('ts-morph').TypeReferenceNode): NamedDeclaration | undefined {
    return resolveTypeReference(node);
  }

  private definitionName(decl: NamedDeclaration): string {
    const pkg = this.ctx.packageOf(decl.getSourceFile().getFilePath());
    if (pkg === undefined) {
      this.ctx.sink.error(this.location(decl), `type ${decl.getName()} is declared outside an apis/<group>/<version>/ package`);
      return decl.getName();
    }
    return `${pkg.openapiPackage}.${decl.getName()}`;
  }

  private unsupported(node: Node): JSONSchemaProps {
    this.ctx.sink.error(this.location(node), `type "${node.getText()}" has no JSON schema`);
    return {};
  }

  location(node: Node): SourceLocation {
    const { line, column } = node.getSourceFile().getLineAndColumnAtPos(node.getStart());
    return { file: this.ctx.relativePath(node.getSourceFile().getFilePath()), line, column };
  }
}

/** The declaration in the project a type reference names; undefined for lib and node_modules types (but the framework's type packages). */
export function resolveTypeReference(node: import('ts-morph').TypeReferenceNode): NamedDeclaration | undefined {
  let symbol = node.getTypeName().getSymbol();
  if (symbol === undefined) return undefined;
  const aliased = symbol.getAliasedSymbol();
  if (aliased !== undefined) symbol = aliased;
  for (const d of symbol.getDeclarations()) {
    if (Node.isInterfaceDeclaration(d) || Node.isTypeAliasDeclaration(d) || Node.isEnumDeclaration(d)) {
      const file = d.getSourceFile();
      if (file.isDeclarationFile() || (file.isInNodeModules() && !isFrameworkTypeFile(file.getFilePath()))) return undefined;
      return d;
    }
  }
  return undefined;
}

export function intOrString(): JSONSchemaProps {
  return { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };
}

/** The JSDoc of a declaration (the last block, as TypeScript attaches the closest one). */
export function commentOf(node: Node): ParsedComment {
  const docs = Node.isJSDocable(node) ? node.getJsDocs() : [];
  const doc = docs.at(-1);
  if (doc === undefined) return { description: '', tags: [] };
  const start = doc.getSourceFile().getLineAndColumnAtPos(doc.getStart());
  return parseComment(doc.getText(), start.line, start.column);
}

/** Own properties after inherited ones, an own property overriding an inherited one of the same name. */
export function collectProperties(decl: InterfaceDeclaration, sink: DiagnosticSink, location: (n: Node) => SourceLocation): PropertySignature[] {
  const byName = new Map<string, PropertySignature>();
  for (const base of decl.getBaseDeclarations()) {
    if (!Node.isInterfaceDeclaration(base)) {
      sink.error(location(decl), `${decl.getName()} may only extend interfaces`);
      continue;
    }
    for (const p of collectProperties(base, sink, location)) byName.set(propertyName(p), p);
  }
  for (const member of decl.getMembers()) {
    if (Node.isPropertySignature(member)) byName.set(propertyName(member), member);
    else if (!Node.isIndexSignatureDeclaration(member)) sink.error(location(member), 'API types may only declare properties (no methods)');
  }
  return [...byName.values()];
}

export function propertyName(prop: PropertySignature): string {
  const nameNode = prop.getNameNode();
  return Node.isStringLiteral(nameNode) ? nameNode.getLiteralValue() : prop.getName();
}

function isNullType(node: TypeNode): boolean {
  return node.getKind() === SyntaxKind.NullKeyword || (Node.isLiteralTypeNode(node) && node.getLiteral().getKind() === SyntaxKind.NullKeyword);
}

/** Aliases that stay inline: primitives, literal unions and unions of primitives. */
/** `T[]` (or `Array<T>`): an alias of a list is inlined where used. */
function isListAlias(node: TypeNode): boolean {
  if (Node.isParenthesizedTypeNode(node)) return isListAlias(node.getTypeNode());
  return Node.isArrayTypeNode(node) || (Node.isTypeReference(node) && ['Array', 'ReadonlyArray'].includes(node.getTypeName().getText()));
}

function isScalarAlias(node: TypeNode): boolean {
  if (Node.isParenthesizedTypeNode(node)) return isScalarAlias(node.getTypeNode());
  const scalarKinds = [SyntaxKind.StringKeyword, SyntaxKind.NumberKeyword, SyntaxKind.BooleanKeyword];
  if (scalarKinds.includes(node.getKind())) return true;
  if (Node.isLiteralTypeNode(node)) return true;
  if (Node.isUnionTypeNode(node)) return node.getTypeNodes().every((m) => scalarKinds.includes(m.getKind()) || Node.isLiteralTypeNode(m));
  return false;
}
