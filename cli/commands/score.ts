import type { Command } from "commander";
import { loadMeditod } from "../../src/data/meditod.ts";
import { exactJudge, type AttributeJudge } from "../../src/metrics/attribute-judge.ts";
import type { CmasScores } from "../../src/metrics/cmas-f1.ts";
import { inPredictionsFile, NOTE_LINES, readLinesOf, readPredictionLines } from "../../eval/predictions-file.ts";
import { scoreNlgPredictions, scoreNluPredictions, scorePolicyPredictions, type PolicyScores } from "../../eval/meditod-scoring.ts";
import { createAttributeJudge, describeBackendIds } from "../../src/backends/index.ts";
import { PROVIDER_MODULE_OPTION } from "../shared/provider-module-option.ts";
import { formatScore, formatTable, printJson } from "../shared/output.ts";
import { loadBenchDataset, NOTE_SUITES, SUITES } from "../../eval/suites.ts";
import type { NoteGenerationScores } from "../../eval/note-scoring.ts";
import { isPerplexitySuite } from "../../eval/note-suites.ts";
import type { PerplexityScores } from "../../src/metrics/perplexity.ts";

interface ScoreOptions {
  predictions: string;
  data?: string;
  judge: string;
  baseUrl?: string;
  cache?: boolean;
  json?: boolean;
}

/** `exact`, or an LLM judge on a backend (`openai:<model>`, `ollama:<model>`, …). */
async function resolveJudge(options: ScoreOptions): Promise<AttributeJudge> {
  if (options.judge === exactJudge.id) return exactJudge;
  return createAttributeJudge(options.judge, {
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.cache === false ? { noCache: true } : {}),
  });
}

function printCmasScores(title: string, scores: CmasScores | PolicyScores): void {
  const rows = (["overall", "medical", "non_medical"] as const).map((part) => [
    part,
    formatScore(scores[part].precision),
    formatScore(scores[part].recall),
    formatScore(scores[part].f1),
  ]);
  let text = `${title}: ${scores.samples} turns, joint accuracy ${formatScore(scores.joint_accuracy)}, format errors ${formatScore(scores.format_errors)}\n`;
  text += `${formatTable(["", "precision", "recall", "F1"], rows)}\n`;
  if ("precision_at" in scores) {
    const ks = Object.keys(scores.precision_at);
    text += `\n${formatTable(ks.map((k) => `P@${k}`), [ks.map((k) => formatScore(scores.precision_at[k]))])}\n`;
  }
  process.stdout.write(text);
}

function addCommonOptions(command: Command): Command {
  return command
    .requiredOption("--predictions <file>", "JSONL, one line per turn: {dialogue_id, turn, prediction}; - reads standard input")
    .option("--data <dir>", "MediTOD directory; default: the bundled public sample")
    .option("--judge <id>", `non-medical attribute matching: exact (official exact match), or an LLM judge's backend id (the paper's prompt): ${describeBackendIds({ chatModelsOnly: true })}, or a --provider-module's`, "exact")
    .option("--base-url <url>", "the judge's server base URL (OpenAI-compatible …/v1, or the Ollama host)")
    .option("--no-cache", "do not reuse cached judge verdicts")
    .option(...PROVIDER_MODULE_OPTION)
    .option("--json", "print JSON (unrounded)");
}

export function registerScoreCommands(program: Command): void {
  const score = program.command("score").description("Score a predictions file exactly as the official scripts do.");

  addCommonOptions(score.command("meditod-nlu").description("NLU F1 (overall / medical / non-medical), joint accuracy, format errors.")).action(
    async (options: ScoreOptions) => {
      const lines = readPredictionLines(options.predictions);
      const dataset = loadMeditod(options.data);
      const judge = await resolveJudge(options);
      const scores = await inPredictionsFile(options.predictions, () => scoreNluPredictions(dataset, lines, judge));
      if (options.json) printJson(scores);
      else printCmasScores("MediTOD NLU", scores);
    },
  );

  addCommonOptions(score.command("meditod-pol").description("Policy F1 and Precision@K (K = 1, 2, 4, 6, 8, 10, inf).")).action(
    async (options: ScoreOptions) => {
      const lines = readPredictionLines(options.predictions);
      const dataset = loadMeditod(options.data);
      const judge = await resolveJudge(options);
      const scores = await inPredictionsFile(options.predictions, () => scorePolicyPredictions(dataset, lines, judge));
      if (options.json) printJson(scores);
      else printCmasScores("MediTOD POL", scores);
    },
  );

  score
    .command("meditod-nlg")
    .description("NLG BLEU-2/4 (nltk corpus, x100), ROUGE-1/L (mean F1); BERTScore is null until an embedding model is configured.")
    .requiredOption("--predictions <file>", "JSONL, one line per doctor turn: {dialogue_id, turn, prediction: text}; - reads standard input")
    .option("--data <dir>", "MediTOD directory; default: the bundled public sample")
    .option("--json", "print JSON (unrounded)")
    .action(async (options: Omit<ScoreOptions, "judge">) => {
      const lines = readPredictionLines(options.predictions);
      const dataset = loadMeditod(options.data);
      const scores = await inPredictionsFile(options.predictions, () => scoreNlgPredictions(dataset, lines));
      if (options.json) {
        printJson(scores);
        return;
      }
      const row = [String(scores.samples), scores.bleu2.toFixed(2), scores.bleu4.toFixed(2), formatScore(scores.rouge1), formatScore(scores.rougeL), "-", formatScore(scores.format_errors)];
      process.stdout.write(`MediTOD NLG\n${formatTable(["turns", "BLEU-2", "BLEU-4", "ROUGE-1", "ROUGE-L", "BERTScore", "format errors"], [row])}\n(${scores.bertscore_reason})\n`);
    });

  for (const id of NOTE_SUITES) {
    const perplexity = isPerplexitySuite(id);
    const suite = SUITES[id];
    score
      .command(id)
      .description(
        perplexity
          ? `lm-eval ${id.replace(/-/g, "_")}: word and byte perplexity and bits per byte from each target's log-likelihood.`
          : `lm-eval ${id.replace(/-/g, "_")}: per-document BLEU and ROUGE-1/2/L (nanmean); BLEURT and BERTScore are null.`,
      )
      .requiredOption("--predictions <file>", `JSONL, one line per document: {id, prediction: ${perplexity ? "the target's log-likelihood" : "text"}}; - reads standard input`)
      .option("--data <path>", suite.data === "medtext" ? "MedText CSV/JSONL file (required: not bundled)" : "MTS-Dialog file in the har1 layout; default: the bundled CSVs")
      .option("--json", "print JSON (unrounded)")
      .action(async (options: { predictions: string; data?: string; json?: boolean }) => {
        const dataset = loadBenchDataset(suite.data, options.data);
        const lines = readLinesOf(options.predictions, NOTE_LINES);
        const scores = await inPredictionsFile(options.predictions, () => suite.score(dataset, lines));
        if (options.json) {
          printJson(scores);
          return;
        }
        if (perplexity) {
          const { samples, word_perplexity, byte_perplexity, bits_per_byte } = scores as PerplexityScores;
          process.stdout.write(`${id}\n${formatTable(["documents", "word perplexity", "byte perplexity", "bits per byte"], [[String(samples), word_perplexity.toFixed(2), byte_perplexity.toFixed(4), bits_per_byte.toFixed(4)]])}\n`);
          return;
        }
        const note = scores as NoteGenerationScores;
        const row = [String(note.samples), formatScore(note.bleu), formatScore(note.rouge1), formatScore(note.rouge2), formatScore(note.rougeL), String(note.nan_counts.rougeL)];
        process.stdout.write(`${id}\n${formatTable(["documents", "BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "NaN"], [row])}\n(${note.unavailable})\n`);
      });
  }
}
