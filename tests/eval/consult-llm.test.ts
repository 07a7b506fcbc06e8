import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChatCall, Reply } from "../../test-support/fake-llm-server.ts";
import { loadCaseLibrary } from "../../src/simulator/case-library.ts";
import { fakeServerForTest } from "../backends/helpers.ts";
import { runCli } from "../cli/helpers.ts";
import { tempDirForFile } from "../temp-dirs.ts";

/**
 * Whole consultations through the real OpenAI client: a local OpenAI-protocol server plays the doctor
 * (asking, then committing to an option or a diagnosis) and the patient (answering with its FACTS line),
 * and the run is scored, reported and transcribed like any other.
 */

const scratch = tempDirForFile("anamnesis-consult-llm-");
const env = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ANAMNESIS_CACHE_DIR: join(scratch, "cache") };

/** The role a request is for, by its system prompt. */
function roleOf(call: ChatCall): "doctor" | "patient" | "judge" {
  const system = call.messages[0]!.content;
  if (system.startsWith("You are playing a patient")) return "patient";
  if (system.startsWith("You check a doctor's diagnosis")) return "judge";
  return "doctor";
}

/** The doctor turns a doctor prompt's transcript holds. */
const doctorTurns = (call: ChatCall) => (call.messages.at(-1)!.content.match(/^Doctor: /gm) ?? []).length;

/** A doctor that asks about fever, then smoking, then answers A; told to answer now, it answers B. */
function mediqDoctor(call: ChatCall): Reply {
  const user = call.messages.at(-1)!.content;
  if (user.includes("You may not ask any more questions")) return { content: "ANSWER: B" };
  const asked = doctorTurns(call);
  if (asked === 0) return { content: "QUESTION: Have you had a fever?" };
  if (asked === 1) return { content: "**QUESTION:** Do you smoke" };
  return { content: "ANSWER: A" };
}

/** A patient that names fact 5 for a fever (iCraft-MD case 0's "denied having a fever") and nothing else. */
function patient(call: ChatCall): Reply {
  const question = /The doctor's last question: (.*)$/m.exec(call.messages.at(-1)!.content)![1]!;
  return question.includes("fever")
    ? { content: "FACTS: 5\nNo, I haven't had a fever." }
    : { content: "FACTS: none\nI'm not sure." };
}

/** Reads a run's results and the transcript of one arm of one case. */
function transcript(out: string, suite: string, arm: string, id: string) {
  return readFileSync(join(out, "transcripts", suite, arm, `${id}.jsonl`), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("consultations with LLM doctors and patients (fake OpenAI-protocol server)", () => {
  it("plays MediQ cases whole: the doctor asks and commits, the patient answers from its facts, the floor and ceiling answer", async () => {
    const server = await fakeServerForTest("openai", {
      respond: (call) => (roleOf(call) === "patient" ? patient(call) : mediqDoctor(call)),
    });
    const out = join(scratch, "mediq");
    const run = await runCli(
      [
        "bench",
        "--suite",
        "consult-mediq",
        "--limit",
        "2",
        "--backend",
        "openai:doctor",
        "--patient",
        "openai:patient",
      ].concat(["--base-url", server.baseUrl, "--patient-base-url", server.baseUrl, "--out", out, "--json"]),
      { env },
    );
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout);
    const scores = results.suites["consult-mediq"];
    expect(scores.cases).toBe(2);
    // Case 0's answer is A, case 1's is D: the doctor's A is right once; the floor's B never; the ceiling answers B too.
    expect(scores.perCase.map((entry: { arms: { doctor: { answer: string } } }) => entry.arms.doctor.answer)).toEqual([
      "A",
      "A",
    ]);
    expect(scores.arms.doctor.accuracy.mean).toBe(0.5);
    expect(scores.arms.floor.accuracy.mean).toBe(0);
    expect(scores.arms.doctor.questions.mean).toBe(2);
    expect(scores.arms.doctor.timeoutRate.mean).toBe(0);
    expect(results.prompt_versions).toMatchObject({
      doctor: expect.stringMatching(/^consult-doctor-choice\.v1#/),
      patient: expect.stringMatching(/^consult-patient\.v1#/),
    });

    const turns = transcript(out, "consult-mediq", "doctor", "icraft-0");
    expect(turns.map((turn) => [turn.speaker, turn.move ?? null])).toEqual([
      ["patient", null],
      ["doctor", "question"],
      ["patient", null],
      ["doctor", "question"],
      ["patient", null],
      ["doctor", "answer"],
    ]);
    expect(turns[1]!.text).toBe("Have you had a fever?");
    expect(turns[2]).toMatchObject({ text: "No, I haven't had a fever.", revealed: ["5"] });
    expect(turns[3]!.text).toBe("Do you smoke?");
    // The embedded NLU tracked the state after every patient turn: the fever is denied.
    expect(JSON.stringify(turns[2]!.state)).toContain('"negative_symptom":[{"value":"fever"');
    // The patient never sees the answer: no prompt of its holds the right option's name.
    for (const call of server.calls.filter((candidate) => roleOf(candidate) === "patient"))
      expect(call.messages.map((message) => message.content).join("\n")).not.toContain("Lymphogranuloma");
    // The floor asked the fixed list (27 questions) and was then told to answer.
    expect(
      transcript(out, "consult-mediq", "floor", "icraft-0").filter((turn) => turn.move === "question"),
    ).toHaveLength(27);
    const report = readFileSync(join(out, "report.html"), "utf8");
    expect(report).toContain("accuracy against questions asked");
    expect(report).toContain("floor: complaint-blind list");
  });

  it("counts a doctor that never commits as a timeout, and an unreadable reply as a format error with its reason", async () => {
    const server = await fakeServerForTest("openai", {
      respond: (call) => {
        if (roleOf(call) === "patient") return patient(call);
        const user = call.messages.at(-1)!.content;
        if (user.includes("You may not ask any more questions")) return { content: "ANSWER: C" };
        // Case 1: a reply that is neither a question nor an answer.
        if (user.includes("51-year-old")) return { content: "Let me think about the options carefully." };
        return { content: "QUESTION: Anything else?" };
      },
    });
    const out = join(scratch, "timeout");
    const run = await runCli(
      ["bench", "--suite", "consult-mediq", "--limit", "2", "--backend", "openai:doctor", "--patient", "openai:patient"]
        .concat(["--base-url", server.baseUrl, "--patient-base-url", server.baseUrl, "--max-questions", "3"])
        .concat(["--out", out, "--json"]),
      { env },
    );
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout);
    const [first, second] = results.suites["consult-mediq"].perCase;
    expect(first.arms.doctor).toMatchObject({ answer: "C", timeout: true, ending: "timeout", questions: 3 });
    expect(second.arms.doctor).toMatchObject({ answer: null, ending: "format error", questions: 0 });
    expect(results.suites["consult-mediq"].arms.doctor.formatErrors).toBe(1);
    expect(results.runs["consult-mediq"].format_errors).toBe(1);
    const lines = readFileSync(join(out, "predictions-consult-mediq.jsonl"), "utf8").trim().split("\n");
    expect(JSON.parse(lines[1]!).prediction.doctor.format_error).toBe(
      "neither a question nor an answer (no QUESTION:, ANSWER: or DIAGNOSIS: line)",
    );
    expect(readFileSync(join(out, "report.md"), "utf8")).toContain("doctor: neither a question nor an answer");
  });

  it("records a patient whose backend keeps failing, with the reason, and completes the run", async () => {
    const doctor = await fakeServerForTest("openai", { respond: mediqDoctor });
    const failing = await fakeServerForTest("openai", { respond: () => ({ status: 500, body: { error: "down" } }) });
    const config = join(scratch, "config.json");
    writeFileSync(config, JSON.stringify({ defaults: { maxRetries: 1 } }));
    const out = join(scratch, "failing-patient");
    const run = await runCli(
      [
        "bench",
        "--suite",
        "consult-mediq",
        "--limit",
        "1",
        "--backend",
        "openai:doctor",
        "--patient",
        "openai:patient",
      ].concat([
        "--base-url",
        doctor.baseUrl,
        "--patient-base-url",
        failing.baseUrl,
        "--no-cache",
        "--out",
        out,
        "--json",
      ]),
      { env: { ...env, ANAMNESIS_CONFIG: config } },
    );
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout);
    const [only] = results.suites["consult-mediq"].perCase;
    expect(only.arms.doctor.ending).toBe("patient failed");
    expect(results.suites["consult-mediq"].arms.doctor.patientFailures).toBe(1);
    const line = JSON.parse(readFileSync(join(out, "predictions-consult-mediq.jsonl"), "utf8"));
    expect(line.prediction.doctor.failure).toMatch(/500/);
    // The ceiling asks no question: the patient's failure does not touch it.
    expect(only.arms.ceiling.ending).toBe("answered");
  });

  it("plays AgentClinic cases: test requests answered from the findings, a diagnosis judged offline and by an LLM judge", async () => {
    const server = await fakeServerForTest("openai", {
      respond: (call): Reply => {
        const role = roleOf(call);
        if (role === "judge") return { content: call.messages.at(-1)!.content.includes("MG") ? "Yes" : "no" };
        if (role === "patient") return { content: "FACTS: 1\nI'm a 35-year-old woman." };
        const user = call.messages.at(-1)!.content;
        if (user.includes("This is your last turn")) return { content: "DIAGNOSIS: none" };
        const asked = doctorTurns(call);
        if (asked === 0) return { content: "QUESTION: How old are you?" };
        if (asked === 1) return { content: "REQUEST TEST: Acetylcholine receptor antibodies" };
        return { content: "DIAGNOSIS: MG" };
      },
    });
    const out = join(scratch, "agentclinic");
    const run = await runCli(
      [
        "bench",
        "--suite",
        "consult-agentclinic",
        "--limit",
        "1",
        "--backend",
        "openai:doctor",
        "--patient",
        "openai:patient",
      ]
        .concat(["--base-url", server.baseUrl, "--patient-base-url", server.baseUrl, "--judge", "openai:judge"])
        .concat(["--out", out, "--json"]),
      { env },
    );
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout);
    const scores = results.suites["consult-agentclinic"];
    // Case 0 is myasthenia gravis: "MG" is right by the offline judge's synonyms and by the LLM judge.
    expect(scores.perCase[0].arms.doctor).toMatchObject({ answer: "MG", correct: true, judged: true, requests: 1 });
    expect(scores.judge).toBe("openai:judge");
    const turns = transcript(out, "consult-agentclinic", "doctor", "0");
    expect(turns[2]).toMatchObject({
      speaker: "doctor",
      move: "request",
      text: "REQUEST TEST: Acetylcholine receptor antibodies",
    });
    expect(turns[3]).toMatchObject({
      speaker: "measurement",
      text: "RESULTS: Blood Tests > Acetylcholine Receptor Antibodies: Present (elevated)",
      revealed: ["Test_Results/Blood_Tests/Acetylcholine_Receptor_Antibodies"],
    });
    expect(existsSync(join(out, "requests-consult-agentclinic.jsonl"))).toBe(false);
  });

  it("plays a library case: the scripted patient answers an LLM doctor's words from its lay script", async () => {
    const [first] = loadCaseLibrary();
    const server = await fakeServerForTest("openai", {
      respond: (call): Reply => {
        if (call.messages.at(-1)!.content.includes("This is your last turn"))
          return { content: `DIAGNOSIS: ${first!.expected.diagnosis ?? "none"}` };
        const asked = doctorTurns(call);
        if (asked === 0) return { content: "QUESTION: What brings you in today?" };
        if (asked === 1) return { content: "QUESTION: Do you have any allergies to medicines?" };
        return { content: `DIAGNOSIS: ${first!.expected.diagnosis ?? "none"}` };
      },
    });
    const out = join(scratch, "library");
    const run = await runCli(
      ["bench", "--suite", "consult-library", "--limit", "1", "--backend", "openai:doctor"].concat([
        "--base-url",
        server.baseUrl,
        "--out",
        out,
        "--json",
      ]),
      { env },
    );
    expect(run.status).toBe(0);
    const scores = JSON.parse(run.stdout).suites["consult-library"];
    expect(scores.perCase[0].id).toBe(first!.id);
    expect(scores.perCase[0].arms.doctor).toMatchObject({ correct: true, questions: 2, timeout: false });
    const turns = transcript(out, "consult-library", "doctor", first!.id);
    // The opening is the script's, word for word, with the facts it marks; every patient turn carries the tracked state.
    expect(turns[1]).toMatchObject({ speaker: "patient", text: first!.script!.opening.says });
    expect(turns[1]!.revealed).toEqual(expect.arrayContaining(first!.script!.opening.reveals));
    for (const turn of turns.filter((entry) => entry.speaker === "patient")) expect(turn.state).toBeDefined();
  });

  it("keeps four cases open per request allowed in flight, and the server never sees more than --concurrency at once", async () => {
    const server = await fakeServerForTest("openai", { respond: mediqDoctor, latencyMs: 20 });
    const out = join(scratch, "open-cases");
    const run = await runCli(
      ["bench", "--suite", "consult-mediq", "--limit", "5", "--backend", "openai:doctor", "--concurrency", "1"].concat([
        "--base-url",
        server.baseUrl,
        "--no-cache",
        "--out",
        out,
        "--json",
      ]),
      { env },
    );
    expect(run.status).toBe(0);
    expect(server.maxInFlight).toBe(1);
    // Each case's options are in its doctor prompts. A case's doctor and ceiling ask at once, its floor
    // later: the first eight requests come from four cases (one case open at a time makes five of its own).
    const caseOf = (call: ChatCall) =>
      /^A\. .*$/m.exec(call.messages.map((message) => message.content).join("\n"))?.[0];
    const cases = server.calls.map(caseOf);
    expect(new Set(cases).size).toBe(5);
    expect(new Set(cases.slice(0, 8)).size).toBe(4);
    // The fifth case starts only when one of the first four is over.
    expect(cases.indexOf(cases.at(-1))).toBeGreaterThan(7);
  });
});
