import { type ParseError, parse, printParseErrorCode } from "jsonc-parser";

/** Line and column (1-based) of a character offset. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return `line ${line}, column ${offset - before.lastIndexOf("\n")}`;
}

/**
 * Parse JSON with comments and trailing commas (tsconfig, biome.jsonc, .oxlintrc.json) with jsonc-parser, the parser
 * VS Code uses (strings are never rewritten). A leading UTF-8 BOM is skipped, as tsc and the linters skip it. Throws
 * SyntaxError naming the first error and where it is.
 */
export function parseJsonc(input: string): unknown {
  const text = input.startsWith("\uFEFF") ? input.slice(1) : input;
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  const first = errors[0];
  if (first) throw new SyntaxError(`${printParseErrorCode(first.error)} at ${position(text, first.offset)}`);
  return value;
}
