import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadMeditod, type Utterance } from "../../src/data/meditod.ts";
import { toPaperFrames } from "../../src/cmas/paper-format.ts";
import { countMessageTokens } from "../../src/modules/prompting/token-budget.ts";
import type { ChatCall, Reply } from "../../test-support/fake-llm-server.ts";
import { fakeServerForTest } from "../backends/helpers.ts";
import { runCli, startCli } from "../cli/helpers.ts";
import { tempDirForFile } from "../temp-dirs.ts";

/**
 * The whole MediTOD benchmark through the real OpenAI client against a local server that answers
 * every prompt with the gold label of the example it shows.
 */

const dataset = loadMeditod();
const dialogue = dataset.dialogues.get(dataset.splits.test![0]!)!;
const scratch = tempDirForFile("anamnesis-bench-");

const render = (turns: readonly Utterance[]) => turns.map((turn) => `${turn.speaker}: ${turn.text}`).join("\n");

function section(message: string, name: string): string | undefined {
  const start = message.indexOf(`[${name}]\n`);
  if (start < 0) return undefined;
  const rest = message.slice(start + name.length + 3);
  const end = rest.indexOf("\n\n[");
  return end < 0 ? rest : rest.slice(0, end);
}

/** The example a prompt shows, found by its last turn, and the task it asks for. */
function exampleOf(call: ChatCall): { task: "nlu" | "pol" | "nlg"; turn: number; lastTurn: string } {
  const user = call.messages.at(-1)!.content;
  const lastTurn = section(user, "last turn")!;
  const task = user.includes("[dialog history]") ? "nlu" : user.includes("[dialog state]") ? "pol" : "nlg";
  const utterances = dialogue.utterances;
  for (let turn = 1; turn < utterances.length; turn += 1) {
    const target = utterances[turn]!;
    const shown =
      task === "nlu"
        ? render(utterances.slice(turn - 1, turn + 1))
        : render(utterances.slice(Math.max(0, turn - 2), turn));
    if (shown === lastTurn && target.speaker === (task === "nlu" ? "patient" : "doctor"))
      return { task, turn, lastTurn };
  }
  throw new Error(`no ${task} example ends with ${JSON.stringify(lastTurn)}`);
}

const seen: Array<{ task: string; turn: number; tokens: number; lastTurn: string; text: string }> = [];

function goldAnswer(call: ChatCall): Reply {
  const { task, turn, lastTurn } = exampleOf(call);
  seen.push({
    task,
    turn,
    tokens: countMessageTokens(call.messages as never),
    lastTurn,
    text: call.messages.at(-1)!.content,
  });
  const utterance = dialogue.utterances[turn]!;
  if (utterance.speaker === "patient") return { content: JSON.stringify({ frames: toPaperFrames(utterance.nlu) }) };
  return { content: task === "pol" ? JSON.stringify({ actions: utterance.actions }) : utterance.text };
}

describe("anamnesis bench against an OpenAI-protocol server", () => {
  it("runs all three suites end to end, with scores that re-scoring reproduces", async () => {
    const server = await fakeServerForTest("openai", { respond: goldAnswer });
    const out = join(scratch, "gold");
    const run = await runCli(
      [
        "bench",
        "--suite",
        "meditod",
        "--backend",
        "openai:gpt-4o-mini",
        "--base-url",
        server.baseUrl,
        "--out",
        out,
        "--no-cache",
        "--json",
      ],
      { env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ANAMNESIS_CACHE_DIR: join(scratch, "cache") } },
    );
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout);
    expect(results.backend).toBe("openai:gpt-4o-mini");
    expect(Object.keys(results.prompt_versions)).toEqual(["nlu", "policy", "nlg"]);
    // Near 1.0: answers are gold; values go through the official lower-casing.
    expect(results.suites["meditod-nlu"].overall.f1).toBeGreaterThan(0.97);
    expect(results.suites["meditod-nlu"].format_errors).toBe(0);
    expect(results.suites["meditod-pol"].overall.f1).toBeGreaterThan(0.97);
    expect(results.suites["meditod-pol"].precision_at["1"]).toBeGreaterThan(0.97);
    expect(results.suites["meditod-nlg"].bleu4).toBeGreaterThan(95);
    // Every prompt keeps its five exemplars, policy included (its compact state leaves room).
    for (const suite of ["meditod-nlu", "meditod-pol", "meditod-nlg"])
      expect(results.runs[suite].exemplars.min).toBe(5);
    expect(results.prompt_versions.policy).toMatch(/^policy\.v2#/);
    // The first request of every turn is kept beside its prediction.
    const requests = readFileSync(join(out, "requests-meditod-pol.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(requests).toHaveLength(74);
    for (const request of requests) expect(request.messages).toHaveLength(12);

    // Every prompt fits the 8,192-token window with room for the answer, and shows the last turn.
    expect(seen).toHaveLength(74 * 3);
    for (const prompt of seen) {
      expect(prompt.tokens).toBeLessThanOrEqual(8192 - 256);
      expect(prompt.text).toContain(prompt.lastTurn);
    }

    // Re-scoring the predictions files gives exactly the suites of results.json.
    for (const suite of ["meditod-nlu", "meditod-pol", "meditod-nlg"]) {
      const rescored = await runCli([
        "score",
        suite,
        "--predictions",
        join(out, `predictions-${suite}.jsonl`),
        "--json",
      ]);
      expect(rescored.status).toBe(0);
      expect(JSON.parse(rescored.stdout)).toEqual(results.suites[suite]);
    }
    expect(readFileSync(join(out, "report.md"), "utf8")).toContain("GPT-4-Turbo (paper, in-context)");
    expect(readFileSync(join(out, "report.html"), "utf8")).toContain("<svg");
  });

  it("resumes a killed run without requesting finished examples again", async () => {
    const out = join(scratch, "killed");
    const args = [
      "bench",
      "--suite",
      "meditod-nlu",
      "--backend",
      "openai:gpt-4o-mini",
      "--out",
      out,
      "--no-cache",
      "--concurrency",
      "2",
    ];
    const env = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ANAMNESIS_CACHE_DIR: join(scratch, "cache") };

    // A server that answers 30 requests, then stops answering: the client hangs, and we kill it.
    let answered = 0;
    const dying = await fakeServerForTest("openai", {
      respond: (call) => {
        if (answered >= 30) return { hang: true };
        answered += 1;
        return goldAnswer(call);
      },
    });
    const first = startCli([...args, "--base-url", dying.baseUrl], { env });
    const deadline = Date.now() + 30_000;
    const savedLines = () =>
      existsSync(join(out, "predictions-meditod-nlu.jsonl"))
        ? readFileSync(join(out, "predictions-meditod-nlu.jsonl"), "utf8").trim().split("\n").length
        : 0;
    // Kill once the 30 answers are on disk and the client is stuck waiting on the next ones.
    while ((dying.calls.length < 32 || savedLines() < 30) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    first.kill();
    const killed = await first.done;
    expect(killed.status).not.toBe(0);
    await dying.close();

    const saved = readFileSync(join(out, "predictions-meditod-nlu.jsonl"), "utf8").trim().split("\n");
    expect(saved.length).toBe(30);
    const finished = new Set(saved.map((line) => JSON.parse(line).turn as number));

    const healthy = await fakeServerForTest("openai", { respond: goldAnswer });
    const second = await runCli([...args, "--base-url", healthy.baseUrl, "--json"], { env });
    expect(second.status).toBe(0);
    expect(healthy.calls).toHaveLength(74 - 30);
    for (const call of healthy.calls) expect(finished.has(exampleOf(call).turn)).toBe(false);
    const results = JSON.parse(second.stdout);
    expect(results.runs["meditod-nlu"]).toMatchObject({ predicted: 74, resumed: 30 });
    expect(results.suites["meditod-nlu"].samples).toBe(74);
  });
});
