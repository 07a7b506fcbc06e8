/**
 * lm-eval's `loglikelihood_rolling` on the llamacpp backend, checked on the tiny random-weight GGUF
 * (tiny-gguf.ts) against probabilities this test reads from node-llama-cpp itself, and end to end
 * through `anamnesis bench --suite mts-dialog-perplexity`. Needs node-llama-cpp like llamacpp.test.ts.
 *
 * The tiny model's vocabulary is one token per byte (plus `▁` for a space), so a text of n ASCII
 * characters is n + 1 tokens (SentencePiece's leading `▁`). A requested context of 64 becomes 256 in
 * llama.cpp; node-llama-cpp keeps one cell free, so windows are 255 tokens long.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBackend } from "../../src/backends/registry.ts";
import { cacheKey } from "../../src/backends/response-cache.ts";
import { rollingTokenWindows } from "../../src/backends/rolling-windows.ts";
import { UsageRecorder } from "../../src/backends/run-record.ts";
import type { ChatBackend } from "../../src/backends/spec.ts";
import { loadMtsDialog } from "../../src/data/mts-dialog.ts";
import { noteSplit } from "../../src/data/note-dataset.ts";
import { aggregatePerplexity, loglikelihoodItem } from "../../src/metrics/perplexity.ts";
import { runCli } from "../cli/helpers.ts";
import { tempDir } from "./helpers.ts";
import { writeTinyLlamaGguf } from "../../test-support/tiny-gguf.ts";

const WINDOW = 255;
const BOS = 1;
const TEXT =
  "Chief complaint: dry cough for three weeks, worse at night. No fever, no weight loss, no night sweats. " +
  "History: 45-year-old man, non-smoker, works in a bakery; flour dust makes it worse. Exam: clear lungs, " +
  "no wheeze, normal saturation. Plan: spirometry, a trial of an inhaled steroid, review in four weeks. " +
  "Safety net: return at once with breathlessness, blood in the sputum or chest pain. " +
  "Allergies: none known. Medications: none. Family history: asthma in his mother. " +
  "Social: lives with partner, two children, walks the dog daily and has noticed no limitation.";

describe("rollingTokenWindows (lm-eval's get_rolling_token_windows + make_disjoint_window, context_len 1)", () => {
  it("reproduces lm-eval's docstring example", () => {
    expect(rollingTokenWindows([0, 1, 2, 3, 4, 5, 6, 7, 8], -1, 4)).toEqual([
      { input: [-1, 0, 1, 2], predicted: [0, 1, 2, 3] },
      { input: [3, 4, 5, 6], predicted: [4, 5, 6, 7] },
      { input: [4, 5, 6, 7], predicted: [8] },
    ]);
    expect(rollingTokenWindows([], -1, 4)).toEqual([]);
    expect(rollingTokenWindows([7, 8], -1, 4)).toEqual([{ input: [-1, 7], predicted: [7, 8] }]);
    expect(() => rollingTokenWindows([1], -1, 0)).toThrow(RangeError);
  });

  it("predicts every token exactly once, right after the token before it, within windows of at most maxLength", () => {
    for (const length of [1, 2, 5, 17, 40, 41, 100]) {
      const tokens = Array.from({ length }, (_, index) => 1000 + index);
      for (const maxLength of [1, 2, 3, 8, 40, 64]) {
        const windows = rollingTokenWindows(tokens, -1, maxLength);
        expect(windows.flatMap((window) => window.predicted)).toEqual(tokens);
        expect(windows).toHaveLength(Math.ceil(length / maxLength));
        const full = [-1, ...tokens];
        for (const { input, predicted } of windows) {
          // Every window is as long as the model allows: later ones keep the text before their predictions as context.
          expect(input.length).toBe(Math.min(maxLength, length));
          predicted.forEach((token, index) => {
            // Each token is scored after the input up to its own position: a contiguous run of the text
            // (the prefix token first in the first window) that ends with the token before it.
            const position = input.length - predicted.length + index;
            const at = token - 1000 + 1;
            expect(position).toBeGreaterThanOrEqual(0);
            expect(input.slice(0, position + 1)).toEqual(full.slice(at - position - 1, at));
          });
        }
      }
    }
  });
});

/** node-llama-cpp, loaded by the test itself to compute probabilities independently of the backend. */
interface Reference {
  tokenize(text: string): number[];
  /** ln p of every token of `text` in lm-eval's windows, evaluating each window in one call or token by token. */
  logProbabilities(text: string, mode: "window" | "token"): Promise<number[]>;
  /** How many tokens the next-token distribution after BOS lists. */
  distributionSize(): Promise<number>;
  dispose(): Promise<void>;
}

async function loadReference(modelPath: string): Promise<Reference> {
  const specifier = "node-llama-cpp";
  const lib = await import(specifier);
  const llama = await lib.getLlama({ gpu: false, build: "never", logLevel: "error", maxThreads: 1 });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: 64, sequences: 1 });
  const sequence = context.getSequence();
  expect(sequence.contextSize - 1).toBe(WINDOW);
  expect(model.tokens.bos).toBe(BOS);
  const distribution = { generateNext: { probabilities: true } };
  return {
    tokenize: (text) => model.tokenize(text),
    async logProbabilities(text, mode) {
      const tokens: number[] = model.tokenize(text);
      const out: number[] = [];
      // Spelled out from lm-eval: the first window predicts tokens [0, 255) after BOS; each later one the
      // next ≤ 255 tokens, reading the 255 tokens that end just before its last token.
      for (let start = 0; start < tokens.length; start += WINDOW) {
        const end = Math.min(tokens.length, start + WINDOW);
        const input = start === 0 ? [BOS, ...tokens.slice(0, end - 1)] : tokens.slice(end - 1 - WINDOW, end - 1);
        await sequence.clearHistory();
        // Only the positions that predict a scored token read the distribution (node-llama-cpp hands each
        // over as a Map of the whole vocabulary); the window is still evaluated whole, in one call.
        const firstScored = input.length - (end - start);
        const results: any[] =
          mode === "window"
            ? await sequence.controlledEvaluate(
                input.map((token, index) => (index >= firstScored ? [token, distribution] : token)),
              )
            : await input.reduce<Promise<any[]>>(
                async (done, token) => [
                  ...(await done),
                  (await sequence.controlledEvaluate([[token, distribution]]))[0],
                ],
                Promise.resolve([]),
              );
        expect(sequence.nextTokenIndex).toBe(input.length);
        // The last input position predicts tokens[end - 1].
        for (let index = start; index < end; index++)
          out.push(Math.log(results[input.length - end + index].next.probabilities.get(tokens[index])));
      }
      return out;
    },
    async distributionSize() {
      await sequence.clearHistory();
      const [result] = await sequence.controlledEvaluate([[BOS, distribution]]);
      return result.next.probabilities.size;
    },
    async dispose() {
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

describe("llamacpp loglikelihoodRolling (tiny random-weight GGUF, CPU)", () => {
  const dir = tempDir("anamnesis-llamacpp-ll-");
  const modelPath = writeTinyLlamaGguf(join(dir.path, "tiny-llama.gguf"));
  const recorder = new UsageRecorder();
  const settings = { gpu: false, threads: 1, contextSize: 64, env: {}, config: {} } as const;
  let backend: ChatBackend;
  let reference: Reference;

  beforeAll(async () => {
    backend = await createBackend(`llamacpp:${modelPath}`, {
      ...settings,
      cacheDir: join(dir.path, "cache"),
      recorder,
    });
    reference = await loadReference(modelPath);
  });
  afterAll(async () => {
    await backend?.close?.();
    await reference?.dispose();
    dir.remove();
  });

  it("declares the capability and scores lm-eval's windows: the sum of each token's ln p, every token once", async () => {
    expect(backend.capabilities.loglikelihood).toBe(true);
    expect(backend.parameters).toMatchObject({ contextSize: 64, loglikelihood: { windowTokens: WINDOW } });
    const tokens = reference.tokenize(TEXT);
    expect(tokens).toHaveLength(TEXT.length + 1);
    expect(tokens.length).toBeGreaterThan(2 * WINDOW);
    const windows = Math.ceil(tokens.length / WINDOW);
    expect(windows).toBe(3);

    const result = await backend.loglikelihoodRolling!(TEXT, { noCache: true });
    expect(Number.isFinite(result.logLikelihood)).toBe(true);
    expect(result.logLikelihood).toBeLessThan(0);
    expect(result.cached).toBe(false);
    expect(result.latencyMs).toBeGreaterThan(0);
    // Every window reads 255 tokens (the last one re-reads the context before its predictions); nothing is generated.
    expect(result.usage).toEqual({ inputTokens: windows * WINDOW, outputTokens: 0 });

    const perWindow = await reference.logProbabilities(TEXT, "window");
    expect(perWindow).toHaveLength(tokens.length);
    expect(Math.abs(result.logLikelihood - sum(perWindow))).toBeLessThan(1e-9);

    // Token by token the arithmetic differs (llama.cpp's kernels for a one-token batch round differently
    // from those for a 255-token one, by up to ~3e-3 here), the contexts do not.
    const perToken = await reference.logProbabilities(TEXT, "token");
    const deviation = Math.max(...perToken.map((value, index) => Math.abs(value - perWindow[index]!)));
    expect(deviation).toBeLessThan(1e-2);
    expect(Math.abs(result.logLikelihood - sum(perToken))).toBeLessThan(0.1);

    // The windows matter: one window of the whole text (a larger context) scores it differently (by ~1.7 here).
    const wide = await createBackend(`llamacpp:${modelPath}`, { ...settings, contextSize: 1024, noCache: true });
    try {
      const whole = await wide.loglikelihoodRolling!(TEXT);
      expect(whole.usage).toEqual({ inputTokens: tokens.length, outputTokens: 0 });
      expect(Math.abs(whole.logLikelihood - result.logLikelihood)).toBeGreaterThan(1);
    } finally {
      await wide.close?.();
    }
  });

  it("scores a short text in one window and the empty text as 0", async () => {
    const short = "Dry cough, no fever.";
    const result = await backend.loglikelihoodRolling!(short, { noCache: true });
    expect(result.usage).toEqual({ inputTokens: short.length + 1, outputTokens: 0 });
    expect(Math.abs(result.logLikelihood - sum(await reference.logProbabilities(short, "window")))).toBeLessThan(1e-9);
    expect(await backend.loglikelihoodRolling!("", { noCache: true })).toMatchObject({
      logLikelihood: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
    });
  });

  it("caches like generation: the second call is cached and identical; generation and scoring share the sequence", async () => {
    const text = TEXT.slice(0, 300);
    recorder.reset();
    const first = await backend.loglikelihoodRolling!(text);
    const second = await backend.loglikelihoodRolling!(text);
    expect(first.cached).toBe(false);
    expect(second).toEqual({ ...first, cached: true });
    // The entry's key: operation "loglikelihood", the driver's parameters, the text and the window length.
    const file = statSync(modelPath);
    const key = cacheKey({
      operation: "loglikelihood",
      provider: "llamacpp",
      model: modelPath,
      endpoint: modelPath,
      parameters: { modelFile: { bytes: file.size, modifiedMs: Math.round(file.mtimeMs) }, contextSize: 64 },
      request: { text, scoring: { windowTokens: WINDOW } },
    });
    const entry = JSON.parse(
      readFileSync(join(dir.path, "cache", "responses-v1", key.slice(0, 2), `${key}.json`), "utf8"),
    );
    expect(entry).toMatchObject({ key, value: first.logLikelihood, usage: first.usage, latencyMs: first.latencyMs });
    expect(recorder.records.map(({ operation, cached, attempts }) => ({ operation, cached, attempts }))).toEqual([
      { operation: "loglikelihood", cached: false, attempts: 1 },
      { operation: "loglikelihood", cached: true, attempts: 0 },
    ]);
    // A chat generation in between leaves nothing behind that changes the score.
    const generated = await backend.generate([{ role: "user", content: "Any fever?" }], {
      maxTokens: 4,
      temperature: 0,
      noCache: true,
    });
    expect(generated.usage.outputTokens).toBeGreaterThan(0);
    const again = await backend.loglikelihoodRolling!(text, { noCache: true });
    expect(again.logLikelihood).toBe(first.logLikelihood);
  });

  it("stops on cancellation and timeouts like the other calls; the next call waits for the sequence", async () => {
    const aborted = new AbortController();
    aborted.abort(new Error("stop"));
    await expect(backend.loglikelihoodRolling!(TEXT, { signal: aborted.signal, noCache: true })).rejects.toThrow(
      "stop",
    );

    const impatient = await createBackend(`llamacpp:${modelPath}`, {
      ...settings,
      noCache: true,
      timeoutMs: 1,
      maxRetries: 0,
    });
    try {
      const late = impatient.loglikelihoodRolling!(TEXT.repeat(3));
      await expect(late).rejects.toMatchObject({ code: "BACKEND_ERROR", message: expect.stringMatching(/timeout/) });
      const { logLikelihood } = await backend.loglikelihoodRolling!(TEXT, { noCache: true });
      expect((await impatient.loglikelihoodRolling!(TEXT, { timeoutMs: 60_000 })).logLikelihood).toBe(logLikelihood);
    } finally {
      await impatient.close?.();
    }
  });

  it("runs anamnesis bench --suite mts-dialog-perplexity: perplexity from the predictions' log-likelihoods", async () => {
    const config = join(dir.path, "config.json");
    writeFileSync(config, JSON.stringify({ providers: { llamacpp: { gpu: false, threads: 1, contextSize: 64 } } }));
    const out = join(dir.path, "bench");
    const run = await runCli(
      [
        "bench",
        "--suite",
        "mts-dialog-perplexity",
        "--backend",
        `llamacpp:${modelPath}`,
        "--limit",
        "3",
        "--out",
        out,
        "--json",
      ],
      {
        env: { ANAMNESIS_CONFIG: config, ANAMNESIS_CACHE_DIR: join(dir.path, "bench-cache") },
      },
    );
    expect(run.stderr).not.toMatch(/error|warn/i);
    expect(run.status).toBe(0);
    const results = JSON.parse(run.stdout);
    expect(results.backend).toBe(`llamacpp:${modelPath}`);
    const scores = results.suites["mts-dialog-perplexity"];

    const documents = noteSplit(loadMtsDialog(), "valid").slice(0, 3);
    const lines = readFileSync(join(out, "predictions-mts-dialog-perplexity.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.id)).toEqual(documents.map((document) => document.id));
    const items = lines.map((line, index) => loglikelihoodItem(documents[index]!.target, line.prediction));
    const expected = aggregatePerplexity(items);
    expect(scores.samples).toBe(3);
    for (const key of ["word_perplexity", "byte_perplexity", "bits_per_byte"] as const) {
      expect(Number.isFinite(scores[key])).toBe(true);
      expect(scores[key]).toBeCloseTo(expected[key], 10);
    }
    // The predictions are the backend's own scores; the first note (952 bytes) takes four windows.
    for (const [index, line] of lines.entries()) {
      const target = documents[index]!.target;
      const tokens = reference.tokenize(target).length;
      expect(line.prediction).toBe((await backend.loglikelihoodRolling!(target, { noCache: true })).logLikelihood);
      expect(line.tokens).toEqual({
        input: tokens <= WINDOW ? tokens : Math.ceil(tokens / WINDOW) * WINDOW,
        output: 0,
      });
    }
    expect(lines[0].tokens.input).toBe(4 * WINDOW);
  });
});

describe("llamacpp loglikelihoodRolling with a larger vocabulary (tiny-gguf.ts vocabularySize)", () => {
  it("tokenizes one token per byte as the 260-token model does, reads distributions over all 8,192 tokens, and scores windows evaluated in chunks", async () => {
    const dir = tempDir("anamnesis-llamacpp-vocab-");
    const modelPath = writeTinyLlamaGguf(join(dir.path, "tiny-llama-8k.gguf"), { vocabularySize: 8192 });
    const reference = await loadReference(modelPath);
    // 2^20 / 8192 = 128 probabilities per chunk: each 255-token window takes two controlledEvaluate calls,
    // and the last window's first scored position (209) falls inside its second chunk.
    const backend = await createBackend(`llamacpp:${modelPath}`, {
      gpu: false,
      threads: 1,
      contextSize: 64,
      noCache: true,
      env: {},
      config: {},
    });
    try {
      expect(await reference.distributionSize()).toBe(8192);
      const text = TEXT.slice(0, 300);
      expect(reference.tokenize(text)).toHaveLength(text.length + 1);
      const result = await backend.loglikelihoodRolling!(text);
      expect(result.usage).toEqual({ inputTokens: 2 * WINDOW, outputTokens: 0 });
      // Chunks of 128 tokens give the same numbers as whole windows (llama.cpp's kernels for these batch
      // sizes agree here; a one-token batch would not).
      expect(Math.abs(result.logLikelihood - sum(await reference.logProbabilities(text, "window")))).toBeLessThan(1e-9);
    } finally {
      await backend.close?.();
      await reference.dispose();
      dir.remove();
    }
  });
});
