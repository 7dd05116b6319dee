/**
 * Finds state a module creates when it is imported: everything at the top level of a source file that is not a
 * declaration of something inert. Parsed with the TypeScript compiler, so it sees `let` and `var`, statements that
 * run code on import, and `const` bindings whose value is built by a call, a `new`, or a mutable literal, however
 * they are written.
 *
 * Inert: functions, classes without static fields, types, imports and re-exports, and `const` bindings of literals
 * (strings, numbers, template strings, regular expressions), of other identifiers, and of array or object literals
 * that are frozen by `as const` or typed read-only (`Readonly…<…>`, `readonly …[]`).
 */
import ts from "typescript";

export interface ModuleStateFinding {
  line: number;
  text: string;
  why: string;
}

export function findModuleState(fileName: string, source: string): ModuleStateFinding[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const findings: ModuleStateFinding[] = [];
  const report = (node: ts.Node, why: string) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    findings.push({ line: line + 1, text: node.getText(file).split("\n")[0] ?? "", why });
  };

  for (const statement of file.statements) {
    if (ts.isVariableStatement(statement)) {
      const flags = statement.declarationList.flags;
      if (!(flags & ts.NodeFlags.Const)) {
        report(statement, "a module-level let/var");
        continue;
      }
      for (const declaration of statement.declarationList.declarations) {
        const why = declaration.initializer && mutableValue(declaration.initializer, declaration.type);
        if (why) report(declaration, why);
      }
    } else if (ts.isExportAssignment(statement)) {
      const why = mutableValue(statement.expression, undefined);
      if (why) report(statement, `the default export is ${why}`);
    } else if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        if (!ts.isPropertyDeclaration(member)) continue;
        const isStatic = ts.getModifiers(member)?.some((modifier) => modifier.kind === ts.SyntaxKind.StaticKeyword);
        if (isStatic) report(member, "a static class field");
      }
    } else if (ts.isExpressionStatement(statement)) {
      report(statement, "code that runs on import");
    } else if (!isDeclaration(statement)) {
      report(statement, "a top-level statement that runs on import");
    }
  }
  return findings;
}

/**
 * Why a value built at module level is (or may be) mutable state; undefined when it is inert. Inside a value typed
 * read-only, nested `new` lookup tables are typed by that annotation too.
 */
function mutableValue(
  expression: ts.Expression,
  type: ts.TypeNode | undefined,
  readonlyContext = false,
): string | undefined {
  const value = unwrap(expression);
  if (
    ts.isStringLiteral(value) ||
    ts.isNumericLiteral(value) ||
    ts.isNoSubstitutionTemplateLiteral(value) ||
    ts.isRegularExpressionLiteral(value) ||
    ts.isIdentifier(value) ||
    ts.isArrowFunction(value) ||
    ts.isFunctionExpression(value) ||
    value.kind === ts.SyntaxKind.TrueKeyword ||
    value.kind === ts.SyntaxKind.FalseKeyword ||
    value.kind === ts.SyntaxKind.NullKeyword
  ) {
    return undefined;
  }
  if (ts.isTemplateExpression(value)) {
    const parts = value.templateSpans.map((span) => mutableValue(span.expression, undefined));
    return parts.find((part) => part !== undefined);
  }
  if (ts.isSpreadElement(value)) return mutableValue(value.expression, undefined, readonlyContext);
  if (ts.isPropertyAccessExpression(value)) return undefined;
  if (ts.isArrayLiteralExpression(value) || ts.isObjectLiteralExpression(value)) {
    if (!readonlyContext && !isFrozen(expression, type)) {
      return "a mutable array or object literal (add `as const` or a read-only type)";
    }
    const elements = ts.isArrayLiteralExpression(value)
      ? [...value.elements]
      : value.properties.flatMap((property) => (ts.isPropertyAssignment(property) ? [property.initializer] : []));
    return elements.map((element) => mutableValue(element, undefined, true)).find((why) => why !== undefined);
  }
  if (ts.isNewExpression(value)) {
    if (readonlyContext || isReadonlyType(type)) return undefined;
    return "an object created with `new` (type it read-only if it is a lookup table)";
  }
  if (ts.isCallExpression(value)) return "a value created by a call";
  return `a ${ts.SyntaxKind[value.kind]} expression`;
}

function unwrap(expression: ts.Expression): ts.Expression {
  let current = expression;
  while (ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isParenthesizedExpression(current)) {
    current = current.expression;
  }
  return current;
}

function isFrozen(expression: ts.Expression, type: ts.TypeNode | undefined): boolean {
  if (isReadonlyType(type)) return true;
  let current = expression;
  while (ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isParenthesizedExpression(current)) {
    if (
      ts.isAsExpression(current) &&
      ts.isTypeReferenceNode(current.type) &&
      current.type.typeName.getText() === "const"
    ) {
      return true;
    }
    current = current.expression;
  }
  return false;
}

function isReadonlyType(type: ts.TypeNode | undefined): boolean {
  if (!type) return false;
  if (ts.isTypeOperatorNode(type)) return type.operator === ts.SyntaxKind.ReadonlyKeyword;
  return ts.isTypeReferenceNode(type) && /^Readonly/.test(type.typeName.getText());
}

function isDeclaration(statement: ts.Statement): boolean {
  return (
    ts.isImportDeclaration(statement) ||
    ts.isImportEqualsDeclaration(statement) ||
    ts.isExportDeclaration(statement) ||
    ts.isFunctionDeclaration(statement) ||
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isEnumDeclaration(statement) ||
    ts.isModuleDeclaration(statement) ||
    ts.isEmptyStatement(statement)
  );
}
