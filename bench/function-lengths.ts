/**
 * Keeps two style rules true in the library, the runner, the server and the command: no function longer
 * than 60 lines, and no regular expression longer than 120 characters unless it is named (assigned to a
 * constant with a doc comment that shows an example). Prints the offenders and exits 1 when there are
 * any; `tests/house-rules/code-shape.test.ts` runs the same check.
 *
 *   npx tsx bench/function-lengths.ts [--dir DIR]... [--max-lines 60] [--max-regex 120]
 */
import { scriptArgs } from "./script-args.ts";
import { checkCodeShape } from "../test-support/code-shape.ts";

const { values } = scriptArgs({
  options: {
    dir: { type: "string", multiple: true, default: ["src", "eval", "server", "cli"] },
    "max-lines": { type: "string", default: "60" },
    "max-regex": { type: "string", default: "120" },
  },
});
for (const dir of values.dir) {
  const report = checkCodeShape(dir, {
    maxFunctionLines: Number(values["max-lines"]),
    maxRegexChars: Number(values["max-regex"]),
  });
  console.log(
    `${dir}: ${report.functions} functions, longest ${report.longest.lines} lines (${report.longest.where}); ${report.regexes} regular expressions`,
  );
  for (const problem of report.problems) console.log(`  ${problem}`);
  if (report.problems.length > 0) process.exitCode = 1;
}
