import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NLU_PASSES } from "../../src/modules/embedded/nlu/pipeline.ts";
import { MENTION_FILTER_RULES } from "../../src/modules/embedded/nlu/rules/mention-filters.ts";
import { NEGATION_CUE_RULES } from "../../src/modules/embedded/nlu/rules/negation-cues.ts";
import { PATIENT_REQUEST_RULES } from "../../src/modules/embedded/nlu/rules/patient-requests.ts";
import { bundledPath } from "../../src/foundation/package-paths.ts";
import { readTurn } from "../modules/embedded/nlu/nlu-harness.ts";

/** docs/embedded-engine.md stays true: its worked example, pass list, rule names and attribute file are checked against the code. */
const doc = readFileSync(bundledPath("docs", "embedded-engine.md"), "utf8");

/** The fenced block right after `<!-- marker -->`. */
function blockAfter(marker: string): string {
  const match = new RegExp(`<!-- ${marker} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!match) throw new Error(`docs/embedded-engine.md: no block after <!-- ${marker} -->`);
  return match[1]!;
}

/** The text between `<!-- name -->` and the next blank line or closing marker. */
function section(name: string): string {
  const start = doc.indexOf(`<!-- ${name} -->`);
  if (start < 0) throw new Error(`docs/embedded-engine.md: no <!-- ${name} -->`);
  const rest = doc.slice(start);
  return rest.slice(0, rest.search(/\n\n(?!- |\|)/));
}

describe("docs/embedded-engine.md", () => {
  it("lists the NLU passes in the order the pipeline runs them", () => {
    const rows = section("passes")
      .split("\n")
      .filter((line) => line.startsWith("| ") && !line.startsWith("| pass"));
    expect(rows.map((row) => row.split("|")[1]!.trim())).toEqual(NLU_PASSES.map((pass) => pass.name));
  });

  it("reads the worked example to the frames it shows", () => {
    const lines = blockAfter("worked-example:exchange")
      .trim()
      .split("\n")
      .map((line) => line.replace(/^(?:doctor|patient): /, ""));
    const utterance = lines.pop()!;
    const question = lines.pop()!;
    const turn = readTurn({ history: lines, question, utterance });
    expect(turn.frames).toEqual(JSON.parse(blockAfter("worked-example:frames")));
  });

  it("names every rule of the three rule tables, with its example", () => {
    const filters = section("rules:mention-filters");
    for (const rule of MENTION_FILTER_RULES) expect(filters).toContain(`*${rule.name}*`);
    const cues = section("rules:negation-cues");
    for (const rule of NEGATION_CUE_RULES) expect(cues).toContain(`*${rule.name}* (${rule.kind})`);
    const requests = section("rules:patient-requests");
    for (const rule of PATIENT_REQUEST_RULES)
      expect(requests).toContain(`*${rule.name}* (${rule.kind}) — "${rule.example}"`);
  });

  it("shows the attribute file as it is", () => {
    expect(blockAfter("attribute-file: initiation.ts")).toBe(
      readFileSync(bundledPath("src", "modules", "embedded", "nlu", "attributes", "initiation.ts"), "utf8"),
    );
  });
});
