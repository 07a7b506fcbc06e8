import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUNDLED_MEDITOD_DIR } from "../../src/data/meditod.ts";
import {
  startFakeOpenAIServer,
  type ChatCall,
  type FakeServer,
  type Reply,
} from "../../test-support/fake-llm-server.ts";
import { fakeServerForTest } from "../backends/helpers.ts";
import { runCli } from "../cli/helpers.ts";
import { STAND_IN, writeStandInCheckout } from "../../test-support/stand-in-checkout.ts";
import { tempDirForFile } from "../temp-dirs.ts";

/**
 * `anamnesis bench --protocol official` end to end through the real OpenAI client: the bundled sample
 * plus two made-up dialogues (X1 joins the training pool; X2, a test dialogue, ends with a patient
 * turn), the prompt text from a stand-in commons.py, and a local server that embeds and answers.
 *
 * The embedding is a toy with a known ranking: [1, 0] for a text that mentions "café", [0, 1] for any
 * other. Scores are then 1 or 0 and tie a lot, so the expected exemplars follow from numpy's rule by
 * hand: the matching pool turns first, then the others, later pool turns first within equal scores.
 * Every expected message below is written out from the official code's rules.
 */

const scratch = tempDirForFile("anamnesis-official-bench-");

const X1 = [
  { speaker: "doctor", uttr_id: 0, text: "Hello there.", actions: [{ action: "nod_prompt_salutations" }] },
  {
    speaker: "patient",
    uttr_id: 1,
    text: "I've had a cough since the café trip.",
    // Two statuses of one slot in one frame: format_nlu keeps only the later list.
    nlu: [
      {
        intent: "inform",
        slots: {
          positive_symptom: [{ value: "coughing", onset: "since the café trip" }],
          negative_symptom: [{ value: "fever", onset: "at the café 😀" }],
        },
      },
    ],
    dialog_state: {
      positive_symptom: [{ value: "coughing", onset: "since the café trip" }],
      negative_symptom: [{ value: "fever", onset: "at the café 😀" }],
    },
  },
  {
    speaker: "doctor",
    uttr_id: 2,
    text: "Any fever since the café?",
    actions: [{ action: "inquire", symptom: [{ value: "fever", checks: [{ type: "onset" }] }] }],
  },
  {
    speaker: "patient",
    uttr_id: 3,
    text: "No.",
    nlu: [{ intent: "inform" }],
    dialog_state: {
      positive_symptom: [{ value: "coughing", onset: "since the café trip" }],
      negative_symptom: [{ value: "fever", onset: "at the café 😀" }],
    },
  },
  { speaker: "doctor", uttr_id: 4, text: "Thanks, bye.", actions: [{ action: "nod_prompt_salutations" }] },
];
const X2 = [
  {
    speaker: "doctor",
    uttr_id: 0,
    text: "Good morning, welcome to the café clinic.",
    actions: [{ action: "nod_prompt_salutations" }],
  },
  {
    speaker: "patient",
    uttr_id: 1,
    text: "A naïve question: is my cough bad?",
    nlu: [{ intent: "inform", slots: { positive_symptom: [{ value: "coughing" }] } }],
    dialog_state: { positive_symptom: [{ value: "coughing" }] },
  },
  {
    speaker: "doctor",
    uttr_id: 2,
    text: "Since when — days?",
    actions: [{ action: "inquire", symptom: [{ value: "coughing", checks: [{ type: "onset" }] }] }],
  },
  // Ends the dialogue: the official NLU builds no query for it.
  {
    speaker: "patient",
    uttr_id: 3,
    text: "Two days. Bye.",
    nlu: [{ intent: "inform", slots: { positive_symptom: [{ value: "coughing", onset: "two days" }] } }],
    dialog_state: { positive_symptom: [{ value: "coughing", onset: "two days" }] },
  },
];

const dataDir = join(scratch, "data");
const checkout = writeStandInCheckout(join(scratch, "meditod"));
const bundled = JSON.parse(readFileSync(join(BUNDLED_MEDITOD_DIR, "dialogs.json"), "utf8")) as Record<
  string,
  { utterances: Array<{ speaker: string; text: string }> }
>;
const d407 = bundled["407"]!.utterances;

function writeData(): void {
  cpSync(BUNDLED_MEDITOD_DIR, dataDir, { recursive: true });
  writeFileSync(
    join(dataDir, "dialogs.json"),
    JSON.stringify({ ...bundled, X1: { utterances: X1 }, X2: { utterances: X2 } }),
  );
  writeFileSync(join(dataDir, "train_ids.json"), JSON.stringify(["115", "X1"]));
  writeFileSync(join(dataDir, "test_ids.json"), JSON.stringify(["407", "X2"]));
}

/** The last line of the query's last turn: the patient's utterance (NLU) or the one before the doctor's. */
const lastLine = (call: ChatCall) => call.messages.at(-1)!.content.split("\n\n[output]")[0]!.split("\n").at(-1)!;
const line407 = (turn: number) => `${d407[turn]!.speaker}: ${d407[turn]!.text}`;

/** Replies chosen per query, each testing one rule of post.py. */
function respond(call: ChatCall): Reply {
  const system = call.messages[0]!.content;
  const last = lastLine(call);
  if (system === STAND_IN.expected.nlu) {
    if (last.includes("naïve"))
      return {
        content:
          '[{"intent": "Inform", "slots": {"symptom": [{"value": "Cough", "status": "positive"}, {"value": "Fever", "status": "Maybe"}], "medical_test": [{"value": "X-Ray", "status": "avail"}]}}]',
      };
    if (last === line407(1)) return { content: '```json\n[{"intent": "inform"}]\n```' };
    if (last === line407(3)) return { content: 'Sure. [{"intent": "inform"}]' };
    return { content: '[{"intent": "inform", "slots": {"symptom": [{"value": "Dyspnea", "status": "positive"}]}}]' };
  }
  if (system === STAND_IN.expected.policy) {
    if (last.includes("naïve")) return { content: '```\n[{"action": "inquire"}]\n```' };
    return { content: '[{"action": "Inquire", "symptom": [{"value": "Dyspnea", "checks": [{"type": "onset"}]}]}]' };
  }
  if (last.includes("naïve")) return { content: "Since WHEN has the cough been there?" };
  if (last === line407(1)) return { content: "" };
  if (last === line407(3))
    return { content: "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body></body></html>" };
  return { content: "OK, Tell me more." };
}

const embed = (text: string) => (text.includes("café") ? [1, 0] : [0, 1]);

const X1_STATE_BLOCK = [
  "{",
  '  "positive_symptom": [',
  "    {",
  '      "value": "coughing",',
  '      "onset": "since the caf\\u00e9 trip"',
  "    }",
  "  ],",
  '  "negative_symptom": [',
  "    {",
  '      "value": "fever",',
  '      "onset": "at the caf\\u00e9 \\ud83d\\ude00"',
  "    }",
  "  ]",
  "}",
].join("\n");

let server: FakeServer;
let out: string;
const cacheDir = join(scratch, "cache");
const env = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", MEDITOD_REPO: "", ANAMNESIS_CACHE_DIR: cacheDir };
const benchArgs = (dir: string) => [
  "bench",
  "--suite",
  "meditod",
  "--backend",
  "openai:chat-model",
  "--base-url",
  server.baseUrl,
  "--meditod-repo",
  checkout,
  "--embeddings",
  "openai:bge-large-en-v1.5",
  "--embeddings-base-url",
  server.baseUrl,
  "--data",
  dataDir,
  "--out",
  dir,
  "--json",
];
let results: Record<string, any>;

const readJsonLines = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, any>);
const chatCalls = () => server.calls;
const callFor = (system: string, predicate: (last: string) => boolean) =>
  chatCalls().find((call) => call.messages[0]!.content === system && predicate(lastLine(call)))!;

beforeAll(async () => {
  writeData();
  server = await startFakeOpenAIServer({ respond, embed });
  out = join(scratch, "run");
  const run = await runCli(benchArgs(out), { env });
  expect(run.stderr).not.toMatch(/error/i);
  expect(run.status).toBe(0);
  results = JSON.parse(run.stdout);
}, 120_000);
afterAll(() => server?.close());

describe("anamnesis bench --protocol official", () => {
  it("sends plain chat completions: temperature 0, max_tokens 200, no response format, no tools", () => {
    // 74 patient turns of 407 and X2's first (its last ends the dialogue); 74 + 1 doctor turns for each of policy and NLG.
    expect(chatCalls()).toHaveLength(75 * 3);
    for (const call of chatCalls()) {
      expect(call.body).toMatchObject({ model: "chat-model", temperature: 0, max_tokens: 200 });
      for (const absent of ["response_format", "tools", "tool_choice", "functions"])
        expect(call.body[absent]).toBeUndefined();
      expect(call.messages).toHaveLength(1 + 2 * 5 + 1);
    }
  });

  it("builds the NLU request of X2: café exemplars first, the two-status frame keeping its later list, \\uXXXX escapes", () => {
    const call = callFor(STAND_IN.expected.nlu, (last) => last.includes("naïve"));
    const [, ...rest] = call.messages;
    expect(call.messages[0]).toEqual({ role: "system", content: STAND_IN.expected.nlu });
    expect(rest.slice(0, 4)).toEqual([
      {
        role: "user",
        content:
          "[dialog history]\ndoctor: Hello there.\npatient: I've had a cough since the café trip.\n\n[last turn]\ndoctor: Any fever since the café?\npatient: No.\n\n[output]",
      },
      { role: "assistant", content: '[{"intent": "inform"}]' },
      {
        role: "user",
        content:
          "[dialog history]\n\n\n[last turn]\ndoctor: Hello there.\npatient: I've had a cough since the café trip.\n\n[output]",
      },
      {
        role: "assistant",
        content:
          '[{"intent": "inform", "slots": {"symptom": [{"value": "fever", "onset": "at the caf\\u00e9 \\ud83d\\ude00", "status": "negative"}]}}]',
      },
    ]);
    expect(call.messages.at(-1)).toEqual({
      role: "user",
      content:
        "[dialog history]\n\n\n[last turn]\ndoctor: Good morning, welcome to the café clinic.\npatient: A naïve question: is my cough bad?\n\n[output]",
    });
  });

  it("builds the policy and NLG requests of X2 with the state and the actions as indented json.dumps", () => {
    const policy = callFor(STAND_IN.expected.policy, (last) => last.includes("naïve"));
    expect(policy.messages.slice(1, 7)).toEqual([
      {
        role: "user",
        content: `[dialog state]\n\`\`\`\n${X1_STATE_BLOCK}\n\`\`\`\n\n[last turn]\ndoctor: Any fever since the café?\npatient: No.\n\n[output]`,
      },
      { role: "assistant", content: '[{"action": "nod_prompt_salutations"}]' },
      {
        role: "user",
        content: `[dialog state]\n\`\`\`\n${X1_STATE_BLOCK}\n\`\`\`\n\n[last turn]\ndoctor: Hello there.\npatient: I've had a cough since the café trip.\n\n[output]`,
      },
      {
        role: "assistant",
        content: '[{"action": "inquire", "symptom": [{"value": "fever", "checks": [{"type": "onset"}]}]}]',
      },
      // X1's opening doctor turn: an empty state and an empty last turn (its text embeds as a non-café text).
      { role: "user", content: "[dialog state]\n```\n{}\n```\n\n[last turn]\n\n\n[output]" },
      { role: "assistant", content: '[{"action": "nod_prompt_salutations"}]' },
    ]);
    expect(policy.messages.at(-1)!.content).toBe(
      '[dialog state]\n```\n{\n  "positive_symptom": [\n    {\n      "value": "coughing"\n    }\n  ]\n}\n```\n\n[last turn]\ndoctor: Good morning, welcome to the café clinic.\npatient: A naïve question: is my cough bad?\n\n[output]',
    );
    const nlg = callFor(STAND_IN.expected.nlg, (last) => last.includes("naïve"));
    expect(nlg.messages.slice(1, 3)).toEqual([
      {
        role: "user",
        content:
          '[actions]\n```\n[\n  {\n    "action": "nod_prompt_salutations"\n  }\n]\n```\n\n[last turn]\ndoctor: Any fever since the café?\npatient: No.\n\n[output]',
      },
      { role: "assistant", content: "Thanks, bye." },
    ]);
    expect(nlg.messages.slice(5, 7)).toEqual([
      { role: "user", content: "[actions]\n```\n{}\n```\n\n[last turn]\n\n\n[output]" },
      { role: "assistant", content: "Hello there." },
    ]);
    expect(nlg.messages.at(-1)!.content).toBe(
      '[actions]\n```\n[\n  {\n    "action": "inquire",\n    "symptom": [\n      {\n        "value": "coughing",\n        "checks": [\n          {\n            "type": "onset"\n          }\n        ]\n      }\n    ]\n  }\n]\n```\n\n[last turn]\ndoctor: Good morning, welcome to the café clinic.\npatient: A naïve question: is my cough bad?\n\n[output]',
    );
  });

  it("builds the requests of the bundled test dialogue: history windows, exemplars in reversed tie order", () => {
    const first = callFor(STAND_IN.expected.nlu, (last) => last === line407(1));
    // Utterances 0 … 1: no history before the last turn.
    expect(first.messages.at(-1)!.content).toBe(
      `[dialog history]\n\n\n[last turn]\n${line407(0)}\n${line407(1)}\n\n[output]`,
    );
    const fifth = callFor(STAND_IN.expected.nlu, (last) => last === line407(5));
    expect(fifth.messages.at(-1)!.content).toBe(
      `[dialog history]\n${line407(1)}\n${line407(2)}\n${line407(3)}\n\n[last turn]\n${line407(4)}\n${line407(5)}\n\n[output]`,
    );
    const policy = callFor(STAND_IN.expected.policy, (last) => last === line407(5));
    expect(policy.messages.at(-1)!.content).toMatch(
      new RegExp(`\\n\\n\\[last turn\\]\\n${escape(line407(4))}\\n${escape(line407(5))}\\n\\n\\[output\\]$`),
    );

    const lines = (suite: string) => readJsonLines(join(out, `predictions-${suite}.jsonl`));
    // No 407 text mentions the café: every pool turn but X1's café turns ties at 1, and the later ones come first.
    const nlu = lines("meditod-nlu");
    expect(nlu.find((line) => line.dialogue_id === "407" && line.turn === 1)!.exemplars).toEqual([
      "115:101",
      "115:99",
      "115:97",
      "115:95",
      "115:93",
    ]);
    expect(nlu.find((line) => line.dialogue_id === "X2")!.exemplars).toEqual([
      "X1:3",
      "X1:1",
      "115:101",
      "115:99",
      "115:97",
    ]);
    expect(lines("meditod-pol").find((line) => line.dialogue_id === "407" && line.turn === 2)!.exemplars).toEqual([
      "X1:0",
      "115:102",
      "115:100",
      "115:98",
      "115:96",
    ]);
    expect(lines("meditod-pol").find((line) => line.dialogue_id === "X2")!.exemplars).toEqual([
      "X1:4",
      "X1:2",
      "X1:0",
      "115:102",
      "115:100",
    ]);
  });

  it("keeps every request in requests-<suite>.jsonl, exactly as the server received it", () => {
    for (const [suite, system] of [
      ["meditod-nlu", STAND_IN.expected.nlu],
      ["meditod-pol", STAND_IN.expected.policy],
      ["meditod-nlg", STAND_IN.expected.nlg],
    ] as const) {
      const requests = readJsonLines(join(out, `requests-${suite}.jsonl`));
      const sent = chatCalls().filter((call) => call.messages[0]!.content === system);
      expect(requests).toHaveLength(sent.length);
      const byMessages = new Set(sent.map((call) => JSON.stringify(call.messages)));
      for (const request of requests) {
        expect(byMessages.has(JSON.stringify(request.messages))).toBe(true);
        expect(request.parameters).toEqual({ temperature: 0, max_tokens: 200 });
      }
    }
  });

  it("post-processes as post.py: lower-cased strict JSON, deformat_nlu, [] and a counted format error otherwise", () => {
    const nlu = readJsonLines(join(out, "predictions-meditod-nlu.jsonl"));
    expect(nlu.map((line) => `${line.dialogue_id}:${line.turn}`)).not.toContain("X2:3");
    expect(nlu.find((line) => line.dialogue_id === "X2")!.prediction).toEqual([
      {
        intent: "inform",
        slots: {
          positive_symptom: [{ value: "cough" }],
          unknown_symptom: [{ value: "fever" }],
          avail_medical_test: [{ value: "x-ray" }],
        },
      },
    ]);
    const at = (lines: Array<Record<string, any>>, turn: number) =>
      lines.find((line) => line.dialogue_id === "407" && line.turn === turn)!;
    expect(at(nlu, 1)).toMatchObject({
      prediction: [],
      raw: '```json\n[{"intent": "inform"}]\n```',
      format_error: expect.stringMatching(/^not JSON \(a fenced block\)/),
    });
    expect(at(nlu, 3)).toMatchObject({ prediction: [], format_error: expect.stringMatching(/^not JSON \(prose\)/) });
    expect(at(nlu, 5)).toMatchObject({
      prediction: [{ intent: "inform", slots: { positive_symptom: [{ value: "dyspnea" }] } }],
    });
    expect(at(nlu, 5).format_error).toBeUndefined();
    const policy = readJsonLines(join(out, "predictions-meditod-pol.jsonl"));
    expect(at(policy, 2).prediction).toEqual([
      { action: "inquire", symptom: [{ value: "dyspnea", checks: [{ type: "onset" }] }] },
    ]);
    expect(policy.find((line) => line.dialogue_id === "X2")).toMatchObject({
      prediction: [],
      format_error: expect.stringMatching(/fenced/),
    });
    const nlg = readJsonLines(join(out, "predictions-meditod-nlg.jsonl"));
    expect(nlg.find((line) => line.dialogue_id === "X2")!.prediction).toBe("since when has the cough been there?");
    expect(at(nlg, 2)).toMatchObject({ prediction: "", format_error: "empty reply" });
    expect(at(nlg, 4)).toMatchObject({ format_error: "an HTML page (502 bad gateway), not an utterance" });
    expect(at(nlg, 6).prediction).toBe("ok, tell me more.");

    // The scores count them: 2 of 75 NLU turns, 1 of 75 policy turns, 2 of 75 NLG turns.
    expect(results.suites["meditod-nlu"].samples).toBe(75);
    expect(results.suites["meditod-nlu"].format_errors).toBeCloseTo(2 / 75, 12);
    expect(results.suites["meditod-pol"].format_errors).toBeCloseTo(1 / 75, 12);
    expect(results.suites["meditod-nlg"].format_errors).toBeCloseTo(2 / 75, 12);
  });

  it("labels the run with its protocol, prompt source and commit, retrieval, embedding model and decoding", () => {
    expect(results.protocol).toMatchObject({
      name: "official",
      meditod_commit: STAND_IN.commit,
      embedding_model: "openai:bge-large-en-v1.5",
      decoding: { temperature: 0, max_tokens: 200, response_format: null, repair: false },
    });
    expect(results.protocol.prompt_source).toContain(checkout);
    expect(results.protocol.retrieval).toMatch(/^dense/);
    const runJson = JSON.parse(readFileSync(join(out, "run.json"), "utf8"));
    expect(runJson.protocol).toBe("official");
    expect(runJson.protocol_details).toMatchObject({
      name: "official",
      meditod_commit: STAND_IN.commit,
      embedding_model: "openai:bge-large-en-v1.5",
      decoding: { max_tokens: 200 },
    });
    const report = readFileSync(join(out, "report.md"), "utf8");
    expect(report).toContain("official");
    expect(report).toContain(STAND_IN.commit);
  });

  it("embeds the pool once and caches it: a re-run sends no request at all", async () => {
    const before = server.requests.length;
    const again = await runCli([...benchArgs(join(scratch, "again"))], { env });
    expect(again.status).toBe(0);
    expect(server.requests.length).toBe(before);
    expect(JSON.parse(again.stdout).suites).toEqual(results.suites);
  });

  it("merges shards into the same run, requests files included", async () => {
    const shards = [join(scratch, "shard-1"), join(scratch, "shard-2")];
    for (const [index, dir] of shards.entries()) {
      const shard = await runCli([...benchArgs(dir), "--shard", `${index + 1}/2`], { env });
      expect(shard.status).toBe(0);
    }
    const merged = await runCli(["merge", ...shards, "--out", join(scratch, "merged"), "--json"], { env });
    expect(merged.status).toBe(0);
    expect(JSON.parse(merged.stdout).suites).toEqual(results.suites);
    for (const suite of ["meditod-nlu", "meditod-pol", "meditod-nlg"]) {
      expect(readFileSync(join(scratch, "merged", `requests-${suite}.jsonl`), "utf8")).toBe(
        readFileSync(join(out, `requests-${suite}.jsonl`), "utf8"),
      );
    }
  });

  it("runs against Ollama too: num_predict 200, temperature 0, no format", async () => {
    const ollama = await fakeServerForTest("ollama", { respond, embed });
    const args = [
      "bench",
      "--suite",
      "meditod-nlu",
      "--limit",
      "3",
      "--backend",
      "ollama:llama3",
      "--base-url",
      ollama.baseUrl,
      "--meditod-repo",
      checkout,
      "--embeddings",
      "ollama:bge-large",
      "--embeddings-base-url",
      ollama.baseUrl,
      "--data",
      dataDir,
      "--out",
      join(scratch, "ollama"),
      "--no-cache",
      "--json",
    ];
    const run = await runCli(args, { env });
    expect(run.status).toBe(0);
    expect(ollama.calls).toHaveLength(3);
    for (const call of ollama.calls) {
      expect(call.body.options).toMatchObject({ temperature: 0, num_predict: 200 });
      expect(call.body.format).toBeUndefined();
      expect(call.body.tools).toBeUndefined();
    }
    // The same exemplars as through the OpenAI protocol: the ranking depends on the embeddings only.
    const first = readJsonLines(join(scratch, "ollama", "predictions-meditod-nlu.jsonl"))[0]!;
    expect(first.exemplars).toEqual(["115:101", "115:99", "115:97", "115:95", "115:93"]);
    expect(ollama.requests.filter((request) => request.path === "/api/embed")).toHaveLength(2 + 3);
  });

  it("fails with one line when the checkout or the embeddings are missing", async () => {
    const noCheckout = await runCli(
      [
        "bench",
        "--protocol",
        "official",
        "--backend",
        "openai:m",
        "--embeddings",
        "openai:e",
        "--out",
        join(scratch, "x"),
      ],
      { env },
    );
    expect(noCheckout.status).toBe(2);
    expect(noCheckout.stderr).toMatch(
      /^anamnesis: --protocol official reads its prompts from a checkout of dair-iitd\/MediTOD: give --meditod-repo DIR or set MEDITOD_REPO .*\n$/,
    );
    const wrong = await runCli(
      [
        "bench",
        "--backend",
        "openai:m",
        "--meditod-repo",
        join(scratch, "data"),
        "--embeddings",
        "openai:e",
        "--out",
        join(scratch, "x"),
      ],
      { env },
    );
    expect(wrong.status).toBe(2);
    expect(wrong.stderr.trim().split("\n")).toHaveLength(1);
    expect(wrong.stderr).toMatch(/is not a MediTOD checkout: no src\/prompting\/commons\.py/);
    const noEmbeddings = await runCli(
      ["bench", "--backend", "openai:m", "--meditod-repo", checkout, "--out", join(scratch, "x")],
      { env },
    );
    expect(noEmbeddings.status).toBe(2);
    expect(noEmbeddings.stderr).toMatch(
      /^anamnesis: --protocol official retrieves exemplars by dense embeddings: give --embeddings openai:<model> or ollama:<model>/,
    );
    const mixed = await runCli(
      [
        "bench",
        "--backend",
        "openai:m",
        "--meditod-repo",
        checkout,
        "--embeddings",
        "openai:e",
        "--fallback",
        "embedded",
        "--out",
        join(scratch, "x"),
      ],
      { env },
    );
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toBe(
      "anamnesis: --fallback belongs to --protocol anamnesis; the official protocol has none (retrieval: --embeddings)\n",
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
