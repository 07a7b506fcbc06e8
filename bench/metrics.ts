/**
 * Throughput of the generation metrics: builds 20,000 realistic (prediction, reference) pairs — MediTOD
 * doctor utterances and MTS-Dialog sentences against deterministically perturbed copies — and scores
 * every per-pair metric (HF/sacrebleu/nltk BLEU, rouge 1/2/L/Lsum with and without stemming, lm-eval,
 * MediTOD) plus the corpus block.
 *
 *   npx tsx bench/metrics.ts [--pairs N] [--seed S] [--dump pairs.jsonl] [--json]
 *
 * `--dump` writes the generated pairs as `metrics pairs` input (JSONL) and exits, e.g. to score them with
 * the CLI or with the Python references.
 */
import { writeFileSync } from "node:fs";
import { scoreCorpus, scorePair, scorePairsAndCorpus, type TextPair } from "../src/metrics/pair-metrics.ts";
import { loadMeditod } from "../src/data/meditod.ts";
import { loadMtsDialog } from "../src/data/mts-dialog.ts";
// The same seeded PRNG as the randomised tests, so a bench input can be reproduced in a test.
import { seededRandom } from "../test-support/random.ts";
import { benchOutput } from "./json-output.ts";

const out = benchOutput();

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

function meditodDoctorUtterances(): string[] {
  return [...loadMeditod().dialogues.values()].flatMap((dialogue) =>
    dialogue.utterances.filter((utterance) => utterance.speaker === "doctor").map((utterance) => utterance.text),
  );
}

function mtsDialogSentences(): string[] {
  const sentences: string[] = [];
  for (const documents of Object.values(loadMtsDialog().splits)) {
    for (const { target } of documents) {
      for (const sentence of target.split(/(?<=[.?!])\s+/))
        if (sentence.trim().length > 0) sentences.push(sentence.trim());
    }
  }
  return sentences;
}

/** Drops, swaps and replaces words with a seeded PRNG; sometimes changes case or punctuation. */
function perturb(text: string, random: () => number, vocabulary: readonly string[]): string {
  const words = text.split(" ");
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const r = random();
    if (r < 0.08) continue; // drop
    if (r < 0.14 && i + 1 < words.length) {
      out.push(words[i + 1]!, words[i]!); // swap with the next word
      i++;
      continue;
    }
    if (r < 0.22) {
      out.push(vocabulary[Math.floor(random() * vocabulary.length)]!); // replace
      continue;
    }
    if (r < 0.24) {
      out.push(words[i]!.toUpperCase());
      continue;
    }
    out.push(words[i]!);
  }
  return out.join(" ");
}

function buildPairs(count: number, seed: number): TextPair[] {
  const sources = [...meditodDoctorUtterances(), ...mtsDialogSentences()];
  const vocabulary = [...new Set(sources.flatMap((s) => s.split(" ")))];
  const random = seededRandom(seed);
  const pairs: TextPair[] = [];
  for (let i = 0; i < count; i++) {
    let reference = sources[Math.floor(random() * sources.length)]!;
    // A fifth of the pairs are multi-sentence notes, some on several lines (rougeLsum's summary path).
    if (random() < 0.2) {
      const next = sources[Math.floor(random() * sources.length)]!;
      reference = `${reference}${random() < 0.5 ? "\n" : " "}${next}`;
    }
    pairs.push({ id: String(i), prediction: perturb(reference, random, vocabulary), reference });
  }
  return pairs;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

const count = argument("pairs", 20_000);
const seed = argument("seed", 1);
const pairs = buildPairs(count, seed);
const dumpIndex = process.argv.indexOf("--dump");
if (dumpIndex >= 0) {
  const path = process.argv[dumpIndex + 1] as string;
  writeFileSync(path, pairs.map((p) => JSON.stringify(p)).join("\n") + "\n");
  console.log(`wrote ${pairs.length} pairs to ${path}`);
  process.exit(0);
}
const chars = pairs.reduce((sum, p) => sum + p.prediction.length + p.reference.length, 0);
out.line(`${pairs.length} pairs (seed ${seed}), mean ${(chars / pairs.length / 2).toFixed(0)} characters per text`);

let peakHeap = 0;
function sampleHeap(): void {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}

function rate(seconds: number): string {
  return `${Math.round(pairs.length / seconds).toLocaleString("en-US")} pairs/s`;
}

/** Each timed step's figures, for `--json`. */
const steps: Record<
  string,
  { wallSeconds: number; cpuSeconds: number; pairsPerSecond: number; pairsPerCpuSecond: number }
> = {};

/** Wall-clock and CPU time (user + system of this process, less sensitive to other load on the machine). */
function time<T>(label: string, key: string, run: () => T): T {
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  const result = run();
  const cpu = process.cpuUsage(cpuStart);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  sampleHeap();
  steps[key] = {
    wallSeconds: seconds,
    cpuSeconds,
    pairsPerSecond: pairs.length / seconds,
    pairsPerCpuSecond: pairs.length / cpuSeconds,
  };
  out.line(
    `${label.padEnd(46)} wall ${seconds.toFixed(3)} s ${rate(seconds).padStart(15)} | cpu ${cpuSeconds.toFixed(3)} s ${rate(cpuSeconds).padStart(15)}`,
  );
  return result;
}

// First run: Porter memo and JIT cold, as a fresh process scoring a file would be.
time("every metric per pair + corpus (cold)", "cold", () => scorePairsAndCorpus(pairs));
time("every metric per pair + corpus (warm)", "warm", () => scorePairsAndCorpus(pairs));
time("scorePair for each pair (CLI `metrics pairs`)", "scorePair", () => {
  let checksum = 0;
  pairs.forEach((p, i) => {
    checksum += scorePair(p.prediction, p.reference).rouge.stem.rougeL.fmeasure;
    if (i % 1000 === 0) sampleHeap();
  });
  return checksum;
});
const corpus = time("scoreCorpus (CLI `metrics corpus`)", "scoreCorpus", () => scoreCorpus(pairs));
out.line(
  `corpus: HF bleu ${"bleu" in corpus.hf_bleu ? corpus.hf_bleu.bleu.toFixed(4) : corpus.hf_bleu.error}, sacrebleu ${corpus.sacrebleu_corpus.score.toFixed(2)}, ` +
    `MediTOD BLEU-4 ${corpus.meditod.bleu4_x100.toFixed(2)}, ROUGE-L mean ${corpus.meditod.rougeL_mean?.toFixed(4)}`,
);
const usage = process.memoryUsage();
const peakRssMiB = (process.resourceUsage().maxRSS * 1024) / 1024 / 1024;
out.line(
  `peak RSS ${mib(process.resourceUsage().maxRSS * 1024)}, peak heap used (sampled) ${mib(peakHeap)}, heap total ${mib(usage.heapTotal)}`,
);
out.result({ pairs: pairs.length, seed, steps, peakRssMiB, peakHeapUsedMiB: peakHeap / 1024 / 1024 });
