import type { BenchResults } from "./shared/bench-results.ts";
import { tunedMark } from "./shared/protocol-label.ts";
import { SUITE_REGISTRY } from "./registry.ts";
import type { SuiteRegistry } from "./suite-registry.ts";
import { formatTable } from "./shared/terminal-table.ts";

/**
 * The results as `anamnesis bench` and `merge` print them: one row per suite (its id, what it counted,
 * its scores), framed by its family (the protocol line, the data's caveats). Figures on dialogues the
 * engine was shaped on say so beside them.
 */
export function formatResultsTable(results: BenchResults, registry: SuiteRegistry = SUITE_REGISTRY): string {
  const suites = registry.inTableOrder(Object.keys(results.suites));
  const family = suites[0]!.family;
  const mark = tunedMark(results.tuned_on_split);
  const rows = suites.map((suite) => {
    const [count, ...scores] = suite.resultCells(results.suites[suite.id]);
    return [suite.id, count!, [...scores, ...(mark ? [`(${mark})`] : [])].join("   ")];
  });
  return family.frameResultsTable(formatTable(["suite", family.countLabel, "scores"], rows, [0, 2]), results);
}
