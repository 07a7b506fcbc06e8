import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

/**
 * The shape checks of `bench/function-lengths.ts`: function lengths (lines from the declaration to
 * its closing brace) and the length of regular expressions — literals, and `new RegExp(...)` with a
 * literal or template source — that are not named. A regular expression is named when it is the
 * initialiser of a `const` whose JSDoc comment contains an example in quotes.
 */

export interface CodeShapeLimits {
  readonly maxFunctionLines: number;
  readonly maxRegexChars: number;
}

export interface CodeShapeReport {
  readonly functions: number;
  readonly regexes: number;
  readonly longest: { readonly lines: number; readonly where: string };
  readonly problems: readonly string[];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

function isFunctionLike(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessor(node)
  );
}

/** The name a function is known by, for messages. */
function functionName(node: ts.FunctionLikeDeclaration): string {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return "(anonymous)";
}

/** Whether a regular expression is the initialiser of a const with a JSDoc comment holding a quoted example. */
function isNamedRegex(node: ts.Node, file: ts.SourceFile): boolean {
  let declaration: ts.Node = node;
  while (declaration.parent && !ts.isVariableDeclaration(declaration) && !ts.isSourceFile(declaration.parent))
    declaration = declaration.parent;
  if (!ts.isVariableDeclaration(declaration)) return false;
  const statement = declaration.parent.parent;
  const comments = ts.getLeadingCommentRanges(file.text, statement.getFullStart()) ?? [];
  return comments.some((range) => {
    const text = file.text.slice(range.pos, range.end);
    return text.startsWith("/**") && /["“][^"”]+["”]/.test(text);
  });
}

/** The source length of a regular expression node, or undefined when the node is not one. */
function regexLength(node: ts.Node, file: ts.SourceFile): number | undefined {
  if (ts.isRegularExpressionLiteral(node)) return node.text.length;
  if (
    ts.isNewExpression(node) &&
    ts.isIdentifier(node.expression) &&
    node.expression.text === "RegExp" &&
    node.arguments?.[0]
  ) {
    return node.arguments[0].getText(file).length;
  }
  return undefined;
}

/** Checks every `.ts` file under `dir`. */
export function checkCodeShape(dir: string, limits: CodeShapeLimits): CodeShapeReport {
  const problems: string[] = [];
  let functions = 0;
  let regexes = 0;
  let longest = { lines: 0, where: "" };
  for (const path of sourceFiles(dir)) {
    const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node) =>
      `${relative(process.cwd(), path)}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (isFunctionLike(node) && node.body) {
        functions += 1;
        const lines =
          file.getLineAndCharacterOfPosition(node.end).line -
          file.getLineAndCharacterOfPosition(node.getStart(file)).line +
          1;
        if (lines > longest.lines) longest = { lines, where: `${functionName(node)} ${where(node)}` };
        if (lines > limits.maxFunctionLines)
          problems.push(`function ${functionName(node)} is ${lines} lines (${where(node)})`);
      }
      const length = regexLength(node, file);
      if (length !== undefined) {
        regexes += 1;
        if (length > limits.maxRegexChars && !isNamedRegex(node, file))
          problems.push(`unnamed regular expression of ${length} characters (${where(node)})`);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return { functions, regexes, longest, problems };
}
