/**
 * The red flags on the lay-words corpus (`data/red-flag-corpus/`): recall on the statements that
 * must fire each flag, and false alarms on the near-misses that must fire none, for the lay-word
 * rules alone, the semantic signal alone and both, per flag; then a chat turn's cost in-process (wall
 * and CPU time; the rules alone, and with the semantic signal warm) and one new sentence's encoding
 * (`./red-flags-chat-turns.ts`: the sample's non-test patient turns, whichever part is scored).
 *
 *   npx tsx bench/red-flags.ts                       # the development part and the turn's cost
 *   npx tsx bench/red-flags.ts --turns 0             # the development part only (for tuning)
 *   npx tsx bench/red-flags.ts --choose-thresholds   # the semantic thresholds, chosen on the development part
 *   npx tsx bench/red-flags.ts --part test --json    # both parts and the turn's cost: the figures reported
 *                                                    # (tables on stderr, JSON on stdout; --turns N, default 200)
 *
 * The semantic signal compares with the development statements, so a development statement is scored
 * leave-one-out (its own statement left out). Its thresholds are chosen on the development part only
 * (`--choose-thresholds`: the highest recall whose false alarms stay at or under 2 %, then the fewest
 * false alarms) and kept in `ontology/red-flags.json`; the test part is never read while choosing.
 * "Rules" are the flags' stated criteria over the patient's words, as the chat reads them; the CMAS
 * criteria need an NLU and are measured by the consultation suites. Without the encoder the semantic
 * columns say so and the rules are still scored.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { loadRedFlags } from "../src/clinical/red-flags.ts";
import { bundledSemanticRedFlags, statementText } from "../src/clinical/red-flags-encoder.ts";
import type { SemanticRedFlags, SemanticThresholds } from "../src/clinical/red-flags-semantic.ts";
import { bundledPath } from "../src/foundation/package-paths.ts";
import { defaultCacheDir } from "../src/backends/response-cache.ts";
import { chatTurnCosts } from "./red-flags-chat-turns.ts";

type Statement = string | string[];
interface CorpusPart {
  readonly flags: Record<string, { fires: Statement[]; nearMisses: Statement[] }>;
}
type Signal = "rules" | "semantic" | "both";
const SIGNALS: readonly Signal[] = ["rules", "semantic", "both"];
/** Per flag and signal: statements that fired their flag of all, near-misses that fired any flag of all. */
interface Tally {
  caught: number;
  fires: number;
  falseAlarms: number;
  nearMisses: number;
}

const { values } = parseArgs({
  options: {
    part: { type: "string", default: "development" },
    json: { type: "boolean", default: false },
    "choose-thresholds": { type: "boolean", default: false },
    turns: { type: "string", default: "200" },
  },
});
const rules = loadRedFlags();
const BULK_WAIT_MS = 3_600_000;
/** The tables: on stdout, or on stderr under `--json` (stdout is then the JSON alone, for `bench/measurements.ts`). */
const print = (line: string): void => void (values.json ? console.error(line) : console.log(line));
const readPart = (name: string): CorpusPart =>
  JSON.parse(readFileSync(bundledPath("data", "red-flag-corpus", `${name}.json`), "utf8")) as CorpusPart;

/** The flags each signal fires on a statement (its turns read as one conversation). */
function firedBy(
  statement: Statement,
  semantic: SemanticRedFlags | null,
  thresholds: SemanticThresholds,
  leaveOut: boolean,
): Record<Signal, Set<string>> {
  const turns = typeof statement === "string" ? [statement] : statement;
  const byRules = new Set(rules.evaluateSaid(turns).map((flag) => flag.id));
  const bySemantic = new Set<string>();
  for (const turn of turns) {
    for (const { scores } of semantic?.scoresOf(turn, leaveOut ? statementText(statement) : undefined) ?? [])
      for (const flag of semantic!.firedBy(scores, thresholds)) bySemantic.add(flag);
  }
  return { rules: byRules, semantic: bySemantic, both: new Set([...byRules, ...bySemantic]) };
}

/** Per flag (and `all`) and signal, the tallies of a corpus part. */
function score(
  part: CorpusPart,
  semantic: SemanticRedFlags | null,
  thresholds: SemanticThresholds,
  leaveOut: boolean,
): Map<string, Record<Signal, Tally>> {
  const table = new Map<string, Record<Signal, Tally>>();
  const row = (flag: string) => {
    if (!table.has(flag))
      table.set(flag, {
        rules: { caught: 0, fires: 0, falseAlarms: 0, nearMisses: 0 },
        semantic: { caught: 0, fires: 0, falseAlarms: 0, nearMisses: 0 },
        both: { caught: 0, fires: 0, falseAlarms: 0, nearMisses: 0 },
      });
    return table.get(flag)!;
  };
  for (const [flag, { fires, nearMisses }] of Object.entries(part.flags)) {
    for (const [statement, mustFire] of [
      ...fires.map((s) => [s, true] as const),
      ...nearMisses.map((s) => [s, false] as const),
    ]) {
      const fired = firedBy(statement, semantic, thresholds, leaveOut);
      for (const signal of SIGNALS) {
        for (const tally of [row(flag)[signal], row("all")[signal]]) {
          if (mustFire) {
            tally.fires += 1;
            if (fired[signal].has(flag)) tally.caught += 1;
          } else {
            tally.nearMisses += 1;
            if (fired[signal].size > 0) tally.falseAlarms += 1;
          }
        }
      }
    }
  }
  return table;
}

const ratio = (a: number, b: number): string => (b === 0 ? "—" : `${a}/${b} ${((100 * a) / b).toFixed(0)}%`);

function printTable(title: string, table: Map<string, Record<Signal, Tally>>, semanticOn: boolean): void {
  print(`\n${title} — recall (statements that fired their flag) · false alarms (near-misses that fired any flag)`);
  print(["flag".padEnd(44), ...SIGNALS.map((signal) => signal.padEnd(30))].join(""));
  for (const [flag, row] of [...table].sort(([a], [b]) => (a === "all" ? 1 : b === "all" ? -1 : a.localeCompare(b)))) {
    const cells = SIGNALS.map((signal) =>
      signal === "semantic" && !semanticOn
        ? "off".padEnd(30)
        : `${ratio(row[signal].caught, row[signal].fires)} · ${ratio(row[signal].falseAlarms, row[signal].nearMisses)}`.padEnd(
            30,
          ),
    );
    print([flag.padEnd(44), ...cells].join(""));
  }
}

/** The chat turn's costs as a table: p50 and p95 of wall time and of CPU time (every thread). */
function printCosts(costs: Awaited<ReturnType<typeof chatTurnCosts>>): void {
  const LABELS: Record<string, string> = {
    noRedFlags: "chat turn, no red flags (the engine)",
    rulesOnly: "chat turn, rules alone",
    screening: "red-flag screening alone (rules)",
    withSemantic: "chat turn, rules + semantic (warm)",
    oneSentence: "one new sentence encoded",
  };
  print("\nin-process cost (ms) — p50 / p95 of wall time · CPU time (every thread)");
  for (const [name, cost] of Object.entries(costs)) {
    const cells = [cost.wallMs, cost.cpuMs].map(({ p50, p95 }) => `${p50} / ${p95}`.padEnd(18));
    print([(LABELS[name] ?? name).padEnd(38), ...cells, `(${cost.turns})`].join(""));
  }
}

/** The thresholds of the best development figures: most recall with false alarms ≤ 2 %, then fewest false alarms. */
function chooseThresholds(development: CorpusPart, semantic: SemanticRedFlags): SemanticThresholds {
  let best: { thresholds: SemanticThresholds; caught: number; falseAlarms: number } | null = null;
  for (let similarity = 0.5; similarity <= 0.951; similarity += 0.01) {
    for (let margin = -0.1; margin <= 0.201; margin += 0.01) {
      const thresholds = { similarity: Number(similarity.toFixed(2)), margin: Number(margin.toFixed(2)) };
      const all = score(development, semantic, thresholds, true).get("all")!.semantic;
      if (all.falseAlarms > 0.02 * all.nearMisses) continue;
      if (!best || all.caught > best.caught || (all.caught === best.caught && all.falseAlarms < best.falseAlarms))
        best = { thresholds, caught: all.caught, falseAlarms: all.falseAlarms };
    }
  }
  if (!best) throw new Error("no thresholds keep the development false alarms at or under 2 %");
  print(`chosen on the development part: ${JSON.stringify(best)}`);
  return best.thresholds;
}

/** The statements' turns of a part, for encoding. */
const turnsOf = (part: CorpusPart): string[] =>
  Object.values(part.flags).flatMap(({ fires, nearMisses }) =>
    [...fires, ...nearMisses].flatMap((s) => (typeof s === "string" ? [s] : s)),
  );

async function main(): Promise<void> {
  // The corpus is encoded in bulk: the bench waits for it, where a chat turn would go on without it.
  const semantic = bundledSemanticRedFlags(rules, { cacheDir: defaultCacheDir(process.env), waitMs: BULK_WAIT_MS });
  const on = await semantic.warmUp();
  if (!on) print(`semantic signal off: ${semantic.status().reason}`);
  const development = readPart("development");
  if (on) await semantic.prepare(turnsOf(development));
  const thresholds = values["choose-thresholds"] && on ? chooseThresholds(development, semantic) : rules.file.semantic;
  const dev = score(development, on ? semantic : null, thresholds, true);
  printTable("development part (semantic: leave-one-out)", dev, on);
  const result: Record<string, unknown> = {
    thresholds,
    semantic: semantic.status(),
    development: Object.fromEntries(dev),
  };
  if (values.part === "test") {
    const testPart = readPart("test");
    if (on) await semantic.prepare(turnsOf(testPart));
    const test = score(testPart, on ? semantic : null, thresholds, false);
    printTable("test part", test, on);
    result.test = Object.fromEntries(test);
  }
  if (Number(values.turns) > 0 && !values["choose-thresholds"]) {
    result.chatTurn = await chatTurnCosts(rules, on, Number(values.turns));
    printCosts(result.chatTurn as Awaited<ReturnType<typeof chatTurnCosts>>);
  }
  if (values.json) console.log(JSON.stringify(result));
}

await main();
