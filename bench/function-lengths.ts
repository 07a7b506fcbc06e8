/**
 * Keeps two of the engine's style rules true: no function in `src/modules/embedded/` longer than 60
 * lines, and no regular expression longer than 120 characters unless it is named (assigned to a
 * constant with a doc comment that shows an example). Prints the offenders and exits 1 when there are
 * any; `tests/house-rules/code-shape.test.ts` runs the same check.
 *
 *   npx tsx bench/function-lengths.ts [--dir src/modules/embedded] [--max-lines 60] [--max-regex 120]
 */
import { parseArgs } from "node:util";
import { checkCodeShape } from "../test-support/code-shape.ts";

const { values } = parseArgs({
  options: { dir: { type: "string", default: "src/modules/embedded" }, "max-lines": { type: "string", default: "60" }, "max-regex": { type: "string", default: "120" } },
});
const report = checkCodeShape(values.dir, { maxFunctionLines: Number(values["max-lines"]), maxRegexChars: Number(values["max-regex"]) });
console.log(`${report.functions} functions, longest ${report.longest.lines} lines (${report.longest.where}); ${report.regexes} regular expressions`);
for (const problem of report.problems) console.log(`  ${problem}`);
if (report.problems.length > 0) process.exitCode = 1;
