/**
 * The timing measurements of `bench/measurements.ts` (the score measurements are in
 * `bench/measurement-plan.ts`): figures that depend on the machine and its load, each stamped with
 * both on the page.
 */
import type { Figure } from "../test-support/measurements-page.ts";
import {
  count,
  fixed,
  ms,
  percent,
  perSecond,
  pick,
  seconds,
  timing,
  type CommandOutput,
  type Measurement,
  type PlanOptions,
  type Timing,
} from "./measurement-plan.ts";

function startupCommand(options: PlanOptions): readonly string[] {
  const extra = [
    ...(options.against ? ["--against", options.against] : []),
    ...(options.npmTest ? ["--npm-test"] : []),
  ];
  return [
    "npx",
    "tsx",
    "bench/startup.ts",
    ...pick(options, ["--runs", "11"], ["--runs", "1", "--pairs", "50"]),
    ...extra,
    "--json",
  ];
}

interface StartupData {
  pairs: number;
  node: Timing;
  help: Timing;
  benchCommand: Timing;
  npmRunBench: Timing;
  metricsPairs: Timing;
  against?: { dir: string; ours: Timing; theirs: Timing; ratio: number };
  npmTest?: number;
}

function startupFigures({ data }: CommandOutput): Figure[] {
  const d = data as StartupData;
  return [
    { name: "`node -e 0` (Node's own start)", value: timing(d.node) },
    { name: "`anamnesis --help`", value: timing(d.help) },
    {
      name: "`anamnesis bench --suite meditod --split test` (what `npm run bench` runs)",
      value: timing(d.benchCommand),
    },
    { name: "`npm run bench` (npm's own start included)", value: timing(d.npmRunBench) },
    {
      name: `\`anamnesis metrics pairs\`, ${count(d.pairs)} MTS-Dialog pairs`,
      value: `${timing(d.metricsPairs)}: ${perSecond(d.pairs / d.metricsPairs.medianWall, "pairs")}`,
    },
    ...(d.against
      ? [
          {
            name: `bench command alternated with \`${d.against.dir}\``,
            value: `this checkout ${timing(d.against.ours)}; the other ${timing(d.against.theirs)}; other / this ${fixed(d.against.ratio, 2)}`,
          },
        ]
      : []),
    ...(d.npmTest === undefined ? [] : [{ name: "`npm test`", value: `${fixed(d.npmTest, 1)} s wall, one run` }]),
  ];
}

interface EmbeddedData {
  benchCommand: { runs: number; medianWall: number; maxWall: number };
  engineBuildMs: number;
  trainedOn: string[];
  chatTurn: { conversations: number; turns: number; p50Ms: number; p95Ms: number; maxMs: number };
}

function embeddedFigures({ data }: CommandOutput): Figure[] {
  const d = data as EmbeddedData;
  return [
    {
      name: "`anamnesis bench`, three suites, test split",
      value: `median ${seconds(d.benchCommand.medianWall)}, max ${seconds(d.benchCommand.maxWall)} over ${d.benchCommand.runs} runs`,
    },
    { name: `engine build (train split: ${d.trainedOn.join(", ")})`, value: ms(d.engineBuildMs, 0) },
    {
      name: `chat turn p50 / p95 / max (${count(d.chatTurn.turns)} turns, ${d.chatTurn.conversations} simulated conversations)`,
      value: `${ms(d.chatTurn.p50Ms)} / ${ms(d.chatTurn.p95Ms)} / ${ms(d.chatTurn.maxMs)}`,
    },
  ];
}

interface MetricsData {
  pairs: number;
  steps: Record<"cold" | "warm" | "scorePair" | "scoreCorpus", { pairsPerSecond: number; pairsPerCpuSecond: number }>;
  peakRssMiB: number;
}

function metricsFigures({ data }: CommandOutput): Figure[] {
  const d = data as MetricsData;
  const step = (key: keyof MetricsData["steps"]) =>
    `${perSecond(d.steps[key].pairsPerSecond, "pairs")} (${perSecond(d.steps[key].pairsPerCpuSecond, "pairs")} of CPU)`;
  return [
    { name: `every metric per pair + corpus, ${count(d.pairs)} pairs, cold`, value: step("cold") },
    { name: "the same, warm", value: step("warm") },
    { name: "`scorePair` alone (what `metrics pairs` runs)", value: step("scorePair") },
    { name: "`scoreCorpus` (what `metrics corpus` runs)", value: step("scoreCorpus") },
    { name: "peak RSS", value: `${fixed(d.peakRssMiB, 0)} MiB` },
  ];
}

function metricsPythonCommand(options: PlanOptions): readonly string[] {
  const refs = [
    ...(options.python ? ["--python", options.python] : []),
    ...(options.pythonRefs ? ["--python-refs", options.pythonRefs] : []),
  ];
  return [
    "npx",
    "tsx",
    "bench/metrics-python.ts",
    ...pick(options, ["--runs", "5", "--pairs", "5000"], ["--runs", "1", "--pairs", "100"]),
    ...refs,
    "--json",
  ];
}

interface MetricsPythonData {
  pairs: number;
  ours: Timing;
  python: Timing | null;
  reason?: string;
  ratio?: number;
  parity?: { pairs: number; identical: number; maxRelativeDifference: number };
}

function metricsPythonFigures({ data }: CommandOutput): Figure[] {
  const d = data as MetricsPythonData;
  const ours = { name: `\`anamnesis metrics pairs\`, ${count(d.pairs)} MTS-Dialog pairs`, value: timing(d.ours) };
  if (!d.python)
    return [ours, { name: "Python references", value: `not run, so no ratio: ${d.reason ?? "unknown reason"}` }];
  return [
    ours,
    { name: "Python references (sacrebleu, rouge_score, nltk), the same pairs", value: timing(d.python) },
    { name: "Python / ours, medians of alternated runs", value: `${fixed(d.ratio!, 1)}×` },
    {
      name: "pairs identical in all 11 compared values",
      value: `${count(d.parity!.identical)} of ${count(d.parity!.pairs)} (largest relative difference ${d.parity!.maxRelativeDifference.toExponential(1)})`,
    },
  ];
}

interface BackendsData {
  latencyMs: number;
  plain: Array<{
    concurrency: number;
    requests: number;
    efficiency: number;
    requestsPerSecond: number;
    maxInFlight: number;
  }>;
  official: Array<{
    concurrency: number;
    turns: number;
    efficiency: number;
    turnsPerSecond: number;
    clientCpuMsPerRequest: number;
  }>;
}

function backendsFigures({ data }: CommandOutput): Figure[] {
  const d = data as BackendsData;
  return [
    ...d.plain.map((row) => ({
      name: `OpenAI protocol, concurrency ${row.concurrency}, ${count(row.requests)} requests at ${d.latencyMs} ms`,
      value: `${percent(row.efficiency)} of ideal, ${perSecond(row.requestsPerSecond, "requests")}, at most ${row.maxInFlight} in flight`,
    })),
    ...d.official.map((row) => ({
      name: `\`--protocol official\`, concurrency ${row.concurrency}, ${count(row.turns)} turns (embedding + completion each)`,
      value: `${percent(row.efficiency)} of ideal, ${perSecond(row.turnsPerSecond, "turns")}, client CPU ${ms(row.clientCpuMsPerRequest, 3)} a request`,
    })),
  ];
}

function retrievalFigures({ data }: CommandOutput): Figure[] {
  const d = data as { poolTurns: number; dimensions: number; queries: number; msPerQuery: number };
  return [
    {
      name: `official retrieval, pool of ${count(d.poolTurns)} NLU turns × ${d.dimensions} dimensions (${d.queries} queries)`,
      value: `${ms(d.msPerQuery)} a query`,
    },
  ];
}

interface LlamacppData {
  contextSize: number;
  textTokens: number;
  rows: Array<{ vocabulary: number; mode: string; tokensPerSecond: number; timesFloor: number; peakRssMiB: number }>;
}

function llamacppFigures({ data }: CommandOutput): Figure[] {
  const d = data as LlamacppData;
  return d.rows.map((row) => ({
    name: `vocabulary ${count(row.vocabulary)}, ${row.mode}`,
    value: `${perSecond(row.tokensPerSecond, "tokens")}, ${fixed(row.timesFloor, 1)}× the plain evaluation, peak RSS ${fixed(row.peakRssMiB, 0)} MiB`,
  }));
}

interface ModelMetricsData {
  tiny: boolean;
  batch: number;
  rows: Array<{
    metric: string;
    model: string;
    notes: number;
    loadSeconds?: number;
    scoreSeconds: number;
    notesPerSecond: number;
  }>;
  reason?: string;
}

function modelMetricsFigures({ data }: CommandOutput): Figure[] {
  const d = data as ModelMetricsData;
  if (d.reason) return [{ name: "native BERTScore / BLEURT", value: `not measured: ${d.reason}` }];
  return d.rows.map((row) => ({
    name: `${row.metric}, ${row.model}${d.tiny ? " (tiny random test model)" : ""}`,
    value: `${fixed(row.notesPerSecond, 2)} notes/s (${row.notes} notes in ${seconds(row.scoreSeconds)}, ${d.batch} per batch${row.loadSeconds !== undefined ? `; load ${seconds(row.loadSeconds)}` : ""})`,
  }));
}

/** The timings of the engine, the package, the metrics and the backends. */
export const ENGINE_TIMINGS: readonly Measurement[] = [
  {
    name: "startup",
    title: "Start-up and whole processes",
    command: startupCommand,
    json: true,
    figures: startupFigures,
  },
  {
    name: "embedded",
    title: "The embedded engine: a benchmark run and chat turns",
    command: (o) => [
      "npx",
      "tsx",
      "bench/embedded.ts",
      ...pick(o, ["--runs", "5", "--conversations", "20"], ["--runs", "1", "--conversations", "2"]),
      "--json",
    ],
    json: true,
    figures: embeddedFigures,
  },
  {
    name: "metrics",
    title: "Text metrics throughput, in process",
    note: "MediTOD doctor utterances and MTS-Dialog sentences against seeded perturbed copies; every metric of `metrics pairs` per pair, plus the corpus block.",
    command: (o) => ["npx", "tsx", "bench/metrics.ts", ...pick(o, [], ["--pairs", "500"]), "--json"],
    json: true,
    figures: metricsFigures,
  },
  {
    name: "metrics-python",
    title: "`metrics pairs` against the Python references, side by side",
    note: "Both sides score the same file as whole processes, alternating run by run. The Python side (`bench/metrics-reference.py`) computes sacrebleu's sentence BLEU, nltk BLEU-2/4 and rouge_score with and without stemming; ours computes those and HF BLEU and lm-eval's rules as well, so the ratio does not flatter us. The last run's scores of both are compared value by value.",
    command: metricsPythonCommand,
    json: true,
    figures: metricsPythonFigures,
  },
  {
    name: "backends",
    title: "Backend throughput against a local OpenAI-protocol server",
    note: "Ideal = requests × latency / concurrency (official protocol: turns × 2 × latency / concurrency); the server runs in a child process.",
    command: (o) => [
      "npx",
      "tsx",
      "bench/backends.ts",
      ...pick(o, [], ["--requests", "40", "--latency", "5"]),
      "--json",
    ],
    json: true,
    figures: backendsFigures,
  },
  {
    name: "official-retrieval",
    title: "Official-protocol retrieval at MediTOD's full size",
    command: (o) => [
      "npx",
      "tsx",
      "bench/official-retrieval.ts",
      ...pick(o, [], ["--copies", "3", "--queries", "5"]),
      "--json",
    ],
    json: true,
    figures: retrievalFigures,
  },
  {
    name: "model-metrics",
    title: "Native BERTScore and BLEURT throughput",
    note: "MTS-Dialog valid notes, each against the next; lm-eval's BERTScore settings. Measured only over a model directory named by ANAMNESIS_BERTSCORE_MODEL / ANAMNESIS_BLEURT_MODEL (no weights can be fetched here); the quick run uses the tests' tiny random encoder.",
    command: (o) => ["npx", "tsx", "bench/model-metrics.ts", ...pick(o, [], ["--tiny", "--notes", "8"]), "--json"],
    json: true,
    figures: modelMetricsFigures,
  },
  {
    name: "llamacpp",
    title: "`llamacpp:` log-likelihood scoring by vocabulary size",
    note: "A random-weight LLaMA (hidden size 32, one block) written by the tests' GGUF writer, so what grows is the per-position reading of the next-token distribution. Needs node-llama-cpp (`node tests/setup/prerequisites.mjs` installs its CPU build).",
    command: (o) => [
      "npx",
      "tsx",
      "bench/llamacpp-loglikelihood.ts",
      ...pick(o, [], ["--vocab", "1000", "--tokens", "64", "--context", "32", "--runs", "1"]),
      "--json",
    ],
    json: true,
    optional: true,
    figures: llamacppFigures,
  },
];
