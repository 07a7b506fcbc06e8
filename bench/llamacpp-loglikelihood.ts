/**
 * What lm-eval's `loglikelihood_rolling` costs on the `llamacpp:` backend as the vocabulary grows:
 *
 *   npx tsx bench/llamacpp-loglikelihood.ts [--vocab 1000,32000,128000] [--tokens 1024] [--context 512] [--runs 3] [--threads 1] [--json]
 *
 * For each vocabulary size it writes a random-weight LLaMA with the tests' GGUF writer
 * (test-support/tiny-gguf.ts) and a tiny hidden size (32, one block), so the transformer costs next
 * to nothing and what grows with the vocabulary is the per-position work of reading a next-token
 * distribution. The text is MTS-Dialog's bundled valid notes, cut to `--tokens` tokens (the writer's
 * byte-fallback vocabulary tokenizes any size the same way). Each measurement runs in its own child
 * process, so its peak RSS (model load included) is its own:
 *
 * - `rolling`: `backend.loglikelihoodRolling(text)`, the perplexity suites' call (cache off);
 * - `confidence`: the same windows straight through node-llama-cpp, with `generateNext: { confidence:
 *   true }` at the positions the backend scores: the logits and node-llama-cpp's native sort and
 *   softmax of each distribution, but one number back instead of a Map of the whole vocabulary. It is
 *   the probability of the *sampled* token, so it cannot score a text; it shows where the time goes;
 * - `floor`: the same windows evaluated without any next-token output.
 *
 * The node-llama-cpp modes evaluate each window in one call; the backend splits it into chunks of
 * ⌊2^20 / vocabulary⌋ tokens to bound memory.
 *
 * Tokens/s counts the text's tokens (every one is scored once); the windows are the backend's own
 * (context size less one token). Median of `--runs` timed runs after one untimed warm-up. Needs
 * node-llama-cpp, as the llamacpp tests do (`node tests/setup/prerequisites.mjs` installs its CPU build).
 */
import { scriptArgs } from "./script-args.ts";
import { fork } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { loadNodeLlamaCpp } from "../src/backends/llamacpp.ts";
import { createBackend } from "../src/backends/registry.ts";
import { rollingTokenWindows } from "../src/backends/rolling-windows.ts";
import { loadMtsDialog } from "../src/data/mts-dialog.ts";
import { noteSplit } from "../src/data/note-dataset.ts";
import { writeTinyLlamaGguf } from "../test-support/tiny-gguf.ts";
import { benchOutput } from "./json-output.ts";

const MODES = ["rolling", "confidence", "floor"] as const;
type Mode = (typeof MODES)[number];
interface Measurement {
  mode: Mode;
  tokens: number;
  evaluated: number;
  seconds: number;
  maxRssMiB: number;
  logLikelihood?: number;
}

const { values } = scriptArgs({
  options: {
    vocab: { type: "string", default: "1000,32000,128000" },
    tokens: { type: "string", default: "1024" },
    context: { type: "string", default: "512" },
    runs: { type: "string", default: "3" },
    threads: { type: "string", default: "1" },
    json: { type: "boolean", default: false },
    // Child process only.
    child: { type: "string" },
    model: { type: "string" },
  },
});
const tokenCount = Number(values.tokens);
const contextSize = Number(values.context);
const runs = Number(values.runs);
const threads = Number(values.threads);
const out = benchOutput();

/** The bundled MTS-Dialog valid notes, joined, as the first `tokens` tokens' worth of text (≈ one byte per token here). */
function benchText(tokens: number): string {
  let text = "";
  for (const document of noteSplit(loadMtsDialog(), "valid")) {
    text += (text ? "\n\n" : "") + document.target;
    if (text.length >= tokens) break;
  }
  // SentencePiece adds a leading "▁": n ASCII characters are n + 1 tokens.
  return text.slice(0, tokens - 1);
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)]!;

async function timed(run: () => Promise<unknown>): Promise<number> {
  await run(); // warm-up
  const seconds: number[] = [];
  for (let index = 0; index < runs; index++) {
    const started = performance.now();
    await run();
    seconds.push((performance.now() - started) / 1000);
  }
  return median(seconds);
}

async function measure(mode: Mode, modelPath: string): Promise<Measurement> {
  const text = benchText(tokenCount);
  if (mode === "rolling") {
    const backend = await createBackend(`llamacpp:${modelPath}`, {
      gpu: false,
      threads,
      contextSize,
      noCache: true,
      env: {},
      config: {},
    });
    try {
      let result: Awaited<ReturnType<NonNullable<typeof backend.loglikelihoodRolling>>> | undefined;
      const seconds = await timed(async () => (result = await backend.loglikelihoodRolling!(text)));
      // The backend does not expose its tokenizer: the parent takes the text's token count from the floor's child.
      return {
        mode,
        tokens: 0,
        evaluated: result!.usage?.inputTokens ?? 0,
        seconds,
        maxRssMiB: maxRssMiB(),
        logLikelihood: result!.logLikelihood,
      };
    } finally {
      await backend.close?.();
    }
  }
  // The same model, context and windows as the backend, straight through node-llama-cpp. Untyped: this
  // measurement drives options the backend's local typing of node-llama-cpp leaves out (`confidence`).
  /* eslint-disable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const lib = (await loadNodeLlamaCpp()) as any;
  const llama = await lib.getLlama({ gpu: false, build: "never", logLevel: "error", maxThreads: threads });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize, sequences: 1 });
  const sequence = context.getSequence();
  try {
    const prefix: number = model.tokens.bos ?? model.tokens.eos;
    const windows = rollingTokenWindows(model.tokenize(text, false), prefix, sequence.contextSize - 1);
    const next = { generateNext: { confidence: true } };
    let evaluated = 0;
    const seconds = await timed(async () => {
      evaluated = 0;
      for (const { input, predicted } of windows) {
        await sequence.clearHistory();
        // As the backend: output only at the positions whose next token the window scores.
        const firstScored = input.length - predicted.length;
        const results = await sequence.controlledEvaluate(
          mode === "floor" ? input : input.map((token, index) => (index >= firstScored ? [token, next] : token)),
        );
        if (mode === "confidence" && typeof results[input.length - 1]?.next.confidence !== "number")
          throw new Error("no confidence returned");
        evaluated += input.length;
      }
    });
    return {
      mode,
      tokens: windows.reduce((total, window) => total + window.predicted.length, 0),
      evaluated,
      seconds,
      maxRssMiB: maxRssMiB(),
    };
  } finally {
    await context.dispose();
    await model.dispose();
    await llama.dispose();
  }
  /* eslint-enable @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument */
}

function maxRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024; // maxRSS is in KiB
}

function runChild(mode: Mode, modelPath: string): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const args = [
      "--child",
      mode,
      "--model",
      modelPath,
      "--tokens",
      String(tokenCount),
      "--context",
      String(contextSize),
      "--runs",
      String(runs),
      "--threads",
      String(threads),
    ];
    const child = fork(process.argv[1]!, args, { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let result: Measurement | undefined;
    child.once("message", (message) => (result = message as Measurement));
    child.once("error", reject);
    child.once("exit", (code) =>
      result && code === 0 ? resolve(result) : reject(new Error(`${mode} child exited with ${code}`)),
    );
  });
}

if (values.child) {
  process.send!(await measure(values.child as Mode, values.model!));
  process.disconnect();
} else {
  const vocabularies = values.vocab.split(",").map(Number);
  const dir = mkdtempSync(join(tmpdir(), "anamnesis-bench-llamacpp-"));
  try {
    out.line(
      `llamacpp loglikelihoodRolling: random-weight LLaMA (hidden 32, 1 block, F32), context ${contextSize}, ${threads} thread(s), median of ${runs}`,
    );
    out.line(`machine: ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(2)}`);
    let textTokens = 0;
    let evaluatedPositions = 0;
    const rows: Array<{
      vocabulary: number;
      modelMiB: number;
      mode: string;
      tokensPerSecond: number;
      msPerToken: number;
      timesFloor: number;
      peakRssMiB: number;
    }> = [];
    out.line("vocabulary  model MiB  mode        tokens/s  ms/token  × floor  peak RSS MiB");
    for (const vocabularySize of vocabularies) {
      const modelPath = writeTinyLlamaGguf(join(dir, `random-${vocabularySize}.gguf`), {
        vocabularySize,
        embeddingLength: 32,
        feedForwardLength: 64,
        headCount: 4,
        blockCount: 1,
        contextLength: contextSize,
      });
      const modelMiB = statSync(modelPath).size / 2 ** 20;
      const results: Measurement[] = [];
      for (const mode of MODES) results.push(await runChild(mode, modelPath));
      const floor = results.find((result) => result.mode === "floor")!;
      for (const result of results) {
        // Same text, same windows: every mode must have evaluated the same positions.
        if (result.evaluated !== floor.evaluated)
          throw new Error(`${result.mode} evaluated ${result.evaluated} positions, the floor ${floor.evaluated}`);
        result.tokens = floor.tokens;
        rows.push({
          vocabulary: vocabularySize,
          modelMiB,
          mode: result.mode,
          tokensPerSecond: result.tokens / result.seconds,
          msPerToken: (1000 * result.seconds) / result.tokens,
          timesFloor: result.seconds / floor.seconds,
          peakRssMiB: result.maxRssMiB,
        });
        out.line(
          [
            String(vocabularySize).padStart(10),
            modelMiB.toFixed(1).padStart(9),
            result.mode.padEnd(10),
            (result.tokens / result.seconds).toFixed(0).padStart(8),
            ((1000 * result.seconds) / result.tokens).toFixed(3).padStart(8),
            (result.seconds / floor.seconds).toFixed(1).padStart(7),
            result.maxRssMiB.toFixed(0).padStart(12),
          ].join("  "),
        );
      }
      rmSync(modelPath);
      textTokens = floor.tokens;
      evaluatedPositions = floor.evaluated;
    }
    out.line(
      `text: ${textTokens} tokens of MTS-Dialog valid notes, ${evaluatedPositions} positions evaluated (every window re-reads its context)`,
    );
    out.result({ contextSize, threads, runs, textTokens, evaluatedPositions, rows });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
