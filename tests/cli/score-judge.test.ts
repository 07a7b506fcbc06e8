import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../src/data/meditod.ts";
import type { ChatCall } from "../../test-support/fake-llm-server.ts";
import { fakeServerForTest } from "../backends/helpers.ts";
import { tempDirForFile } from "../temp-dirs.ts";
import { runCli, startCli } from "./helpers.ts";

/**
 * `anamnesis score meditod-nlu --judge openai:<model>` against a local OpenAI-protocol server whose
 * verdicts are scripted: the judged non-medical F1 must equal the hand computation.
 */

const scratch = tempDirForFile("anamnesis-judge-");

const dialogue = loadMeditod().dialogues.get("115")!;
const gold = (turn: number) => {
  const utterance = dialogue.utterances[turn]!;
  if (utterance.speaker !== "patient") throw new Error("not a patient turn");
  return utterance.nlu;
};

// Turn 1 gold: coughing onset "few months ago", dyspnea onset "few months ago" (non-medical).
// Turn 5 gold: coughing positive_characteristics ["wet cough"], sputum color "white or yellowish".
const predictions = [
  {
    dialogue_id: "115",
    turn: 1,
    prediction: [
      {
        intent: "inform",
        slots: {
          positive_symptom: [
            { value: "coughing", onset: "a few months back", progression: "gradually getting worse over time" },
            { value: "dyspnea", onset: "yesterday" },
          ],
        },
      },
    ],
  },
  {
    dialogue_id: "115",
    turn: 5,
    prediction: [
      {
        intent: "inform",
        slots: {
          positive_symptom: [
            { value: "coughing", positive_characteristics: ["productive cough"] },
            { value: "colored/excess sputum", color: "yellowish white" },
          ],
        },
      },
    ],
  },
];

/** The judge's scripted opinion: these pairs mean the same, nothing else does. */
const SAME = new Set([
  "few months ago|a few months back",
  "wet cough|productive cough",
  "white or yellowish|yellowish white",
]);

function verdict(call: ChatCall) {
  const prompt = call.messages[0]!.content;
  const gold = /Phrase 1: (.*)\n/.exec(prompt)![1]!;
  const predicted = /Phrase 2: (.*)\n/.exec(prompt)![1]!;
  return { content: SAME.has(`${gold}|${predicted}`) ? "Positive." : "negative" };
}

describe("anamnesis score --judge <backend id>", () => {
  it("judges non-medical attributes with the paper's prompt and matches the hand computation", async () => {
    expect(gold(1)[0]!.slots!.positive_symptom![1]!.onset).toBe("few months ago");
    const file = join(scratch, "nlu.jsonl");
    writeFileSync(file, predictions.map((line) => JSON.stringify(line)).join("\n"));
    const server = await fakeServerForTest("openai", { respond: verdict });
    const env = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ANAMNESIS_CACHE_DIR: join(scratch, "cache") };
    const args = [
      "score",
      "meditod-nlu",
      "--predictions",
      file,
      "--judge",
      "openai:gpt-3.5-turbo-0125",
      "--base-url",
      server.baseUrl,
      "--json",
    ];
    const judged = await runCli(args, { env });
    expect(judged.stderr).toBe("");
    const scores = JSON.parse(judged.stdout);
    // Non-medical: onset coughing TP (judged same), onset dyspnea FN + FP, characteristics TP, color TP.
    expect(scores.non_medical).toEqual({ precision: 0.75, recall: 0.75, f1: 0.75 });
    expect(scores.medical.f1).toBe(1);
    // Overall pools medical (exact) and judged non-medical counts.
    const medicalTuples = 3 + 2; // turn 1: coughing, its progression, dyspnea; turn 5: coughing, sputum
    const overall = (medicalTuples + 3) / (medicalTuples + 4);
    expect(scores.overall.precision).toBeCloseTo(overall, 15);
    expect(server.calls).toHaveLength(4);
    const prompt = server.calls[0]!.messages[0]!;
    expect(prompt.role).toBe("system");
    expect(prompt.content).toMatch(/^You are an expert in the English language\./);
    expect(server.calls[0]!.body.max_tokens).toBe(10);
    expect(server.calls[0]!.body.temperature).toBe(0);

    // The same judgement again comes from the verdict cache: no request.
    const again = await runCli(args, { env });
    expect(JSON.parse(again.stdout)).toEqual(scores);
    expect(server.calls).toHaveLength(4);

    const exact = await runCli(["score", "meditod-nlu", "--predictions", file, "--json"], { env });
    expect(JSON.parse(exact.stdout).non_medical).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it("takes the judge from a --provider-module, as any command does", async () => {
    const file = join(scratch, "nlu-plugin.jsonl");
    writeFileSync(file, predictions.map((line) => JSON.stringify(line)).join("\n"));
    const plugin = fileURLToPath(new URL("../fixtures/word-overlap-judge.js", import.meta.url));
    const env = { ANAMNESIS_CACHE_DIR: join(scratch, "cache-plugin") };
    const judged = await startCli(
      [
        "score",
        "meditod-nlu",
        "--predictions",
        file,
        "--provider-module",
        plugin,
        "--judge",
        "overlap:words",
        "--json",
      ],
      { env },
    ).done;
    expect(judged.stderr).toBe("");
    // Word overlap agrees with the scripted opinion above on these four pairs.
    expect(JSON.parse(judged.stdout).non_medical).toEqual({ precision: 0.75, recall: 0.75, f1: 0.75 });
  });

  it("reports a plug-in's own AnamnesisError on one line with exit 2: the plug-in's `anamnesis` is the CLI's, not a second copy", async () => {
    const file = join(scratch, "nlu-refusing.jsonl");
    writeFileSync(file, predictions.map((line) => JSON.stringify(line)).join("\n"));
    const plugin = fileURLToPath(new URL("../fixtures/refusing-provider.js", import.meta.url));
    const result = await startCli([
      "score",
      "meditod-nlu",
      "--predictions",
      file,
      "--provider-module",
      plugin,
      "--judge",
      "refusing:any",
      "--json",
    ]).done;
    expect([result.status, result.stderr.trim()]).toEqual([2, "anamnesis: refusing: this plug-in serves no model"]);
  });

  it("explains on one line why the embedded engine cannot judge", async () => {
    const file = join(scratch, "nlu-embedded.jsonl");
    writeFileSync(file, predictions.map((line) => JSON.stringify(line)).join("\n"));
    const result = await runCli(["score", "meditod-nlu", "--predictions", file, "--judge", "embedded", "--json"]);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("embedded is the offline MediTOD engine");
    expect(result.stderr).toContain("--judge exact");
    expect(result.stderr).not.toContain("not available in this version");
  });
});
