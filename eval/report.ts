import { join } from "node:path";
import type { MeditodDataset, Split } from "../src/data/meditod.ts";
import { BUNDLED_MEDITOD_DIR } from "../src/data/meditod.ts";
import type { NoteDataset } from "../src/data/note-dataset.ts";
import type { PerplexityScores } from "../src/metrics/perplexity.ts";
import { unrollTurns, type CmasScores, type CmasTask } from "../src/metrics/cmas-f1.ts";
import { cmasBreakdown, type BreakdownRow } from "../src/metrics/cmas-breakdown.ts";
import type { MeditodNlgResult } from "../src/metrics/meditod-nlg.ts";
import { NOTE_LINES, readLinesOf, readPredictionLines } from "./predictions-file.ts";
import { predictionsPath, writeFileAtomic } from "./run-directory.ts";
import type { BenchResults } from "./runner.ts";
import { describePartial } from "./partial-run.ts";
import type { PolicyScores } from "./suites/meditod/meditod-scoring.ts";
import { getDialogue } from "../src/data/meditod.ts";
import { isNoteDataset, isPerplexitySuite } from "./suites/clinical-notes/note-suites.ts";
import { noteDocumentResults, type NoteGenerationScores } from "./suites/clinical-notes/note-scoring.ts";
import type { BenchDataset } from "./suites.ts";
import { lmEvalNanmean } from "../src/metrics/lm-eval.ts";
import { readBundledJson } from "../src/foundation/package-paths.ts";
import { nlgLineFormatError } from "./suites/meditod/meditod-scoring.ts";
import { describeProtocol, tunedMark } from "./protocol-label.ts";

/**
 * report.md and a self-contained report.html (inline CSS and SVG, no scripts, nothing fetched) for a
 * run directory: headline tables with the paper's baselines beside ours, per-slot and per-attribute
 * F1, a chart, and what the run cost. Clinical-note runs get a table of our scores only (lm-eval
 * publishes no reference scores for those tasks), ROUGE by section header, and the data's caveats.
 */

interface Baselines {
  source: string;
  test_set: string;
  "meditod-nlu": Array<{ setting: string; model: string; overall_f1: number; medical_f1: number; non_medical_f1: number }>;
  "meditod-pol": Array<{ setting: string; model: string; overall_f1: number; medical_f1: number; non_medical_f1: number; p_at_1: number; p_at_4: number; p_at_8: number; p_at_inf: number }>;
  "meditod-nlg": Array<{ setting: string; model: string; bleu2: number; bleu4: number; rouge1: number; rougeL: number; bertscore: number }>;
}

const baselines = readBundledJson("eval/paper-baselines.json") as Baselines;

/** A table: header, rows, and which row is ours (highlighted). */
interface Table {
  title: string;
  header: string[];
  rows: string[][];
  ours?: number;
}

interface Chart {
  title: string;
  bars: Array<{ label: string; value: number; ours: boolean }>;
  max: number;
}

const f4 = (value: number | null | undefined) => (value === null || value === undefined || Number.isNaN(value) ? "–" : value.toFixed(4));
const f1d = (value: number | null | undefined) => (value === null || value === undefined || Number.isNaN(value) ? "–" : value.toFixed(1));

function breakdownTable(title: string, rows: Record<string, BreakdownRow>, label: string): Table {
  return {
    title,
    header: [label, "precision", "recall", "F1", "gold", "predicted"],
    rows: Object.entries(rows)
      .sort(([, a], [, b]) => b.support - a.support)
      .map(([key, row]) => [key, f4(row.precision), f4(row.recall), f4(row.f1), String(row.support), String(row.predicted)]),
  };
}

function goldFor(task: CmasTask, dataset: MeditodDataset, dialogueId: string, turn: number): ReadonlyArray<Record<string, unknown>> {
  const utterance = getDialogue(dataset, dialogueId).utterances[turn]!;
  return utterance.speaker === "patient" ? (task === "nlu" ? utterance.nlu : []) : task === "pol" ? utterance.actions : [];
}

function breakdowns(dir: string, dataset: MeditodDataset, suite: "meditod-nlu" | "meditod-pol"): Table[] {
  const task: CmasTask = suite === "meditod-nlu" ? "nlu" : "pol";
  const lines = readPredictionLines(predictionsPath(dir, suite));
  const unrolled = unrollTurns(task, lines.map((line) => ({ gold: goldFor(task, dataset, line.dialogue_id, line.turn), prediction: line.prediction })));
  const { bySlot, byAttribute } = cmasBreakdown(task, unrolled);
  const name = suite === "meditod-nlu" ? "NLU" : "POL";
  return [breakdownTable(`${name} F1 by slot`, bySlot, "slot"), breakdownTable(`${name} F1 by ${task === "nlu" ? "attribute" : "check type"}`, byAttribute, task === "nlu" ? "attribute" : "check type")];
}

/** The first line of every report: what ran, when, at which revision. */
function runLine(results: BenchResults): string {
  const partial = results.partial ? `**${describePartial(results.partial)}** ` : "";
  return `${partial}Backend \`${results.backend}\`, split \`${results.split}\`${results.limit !== null ? `, first ${results.limit} examples` : ""}${results.shard ? `, shard ${results.shard}` : ""}; started ${results.started}, finished ${results.finished}; git ${results.git_revision ?? "unknown"}.`;
}

const PROTOCOL_NOTES: Record<string, string> = {
  official: "dair-iitd/MediTOD's in-context pipeline, step for step",
  anamnesis: "ours, not the paper's pipeline",
  embedded: "the offline engine, not prompted",
};

/** The protocol line, and for a run on dialogues the engine was shaped on, the warning. */
function protocolLines(results: BenchResults): string[] {
  const name = typeof results.protocol.name === "string" ? results.protocol.name : "";
  const differences = typeof results.protocol.differences_from_the_paper === "string" ? ` Differences from the paper: ${results.protocol.differences_from_the_paper}.` : "";
  const lines = [`Protocol: ${describeProtocol(results.protocol)}${PROTOCOL_NOTES[name] ? ` (${PROTOCOL_NOTES[name]})` : ""}.${differences}`];
  if (results.tuned_on_split) lines.push(`**${results.tuned_on_split}.** These figures are not an estimate of how the engine does on unseen dialogues.`);
  return lines;
}

/** Format errors with their reasons, line by line (at most `limit` rows). */
function formatErrorTable(dir: string, dataset: MeditodDataset, suites: readonly string[], limit = 50): Table | undefined {
  const rows: string[][] = [];
  for (const suite of suites) {
    const lines = readPredictionLines(predictionsPath(dir, suite));
    if (suite === "meditod-nlg") {
      for (const line of lines) {
        const reason = nlgLineFormatError(line);
        if (reason) rows.push([suite, line.dialogue_id, String(line.turn), reason]);
      }
      continue;
    }
    const task: CmasTask = suite === "meditod-nlu" ? "nlu" : "pol";
    const turns = lines.map((line) => ({ gold: goldFor(task, dataset, line.dialogue_id, line.turn), prediction: line.prediction, ...(typeof line.format_error === "string" ? { outputFormatError: line.format_error } : {}) }));
    unrollTurns(task, turns).forEach((turn, index) => {
      if (turn.outputFailed || (!turn.skipped && turn.prediction === null)) rows.push([suite, lines[index]!.dialogue_id, String(lines[index]!.turn), turn.formatError ?? "invalid"]);
    });
  }
  if (rows.length === 0) return undefined;
  const shown = rows.slice(0, limit);
  return {
    title: `Format errors (${rows.length}${rows.length > limit ? `; the first ${limit} shown, all are in the predictions files` : ""})`,
    header: ["suite", "dialogue", "turn", "reason"],
    rows: shown.map((row) => [row[0]!, row[1]!, row[2]!, row[3]!.length > 160 ? `${row[3]!.slice(0, 157)}…` : row[3]!]),
  };
}

function build(results: BenchResults, dataset: BenchDataset, dir: string): { intro: string[]; tables: Table[]; charts: Chart[] } {
  if (isNoteDataset(dataset)) return buildNotes(results, dataset, dir);
  const onSample = dataset.dir === BUNDLED_MEDITOD_DIR;
  const mark = tunedMark(results.tuned_on_split);
  const ourLabel = `**this run** (${results.backend}${mark ? `, ${mark}` : ""})`;
  const chartLabel = `this run (${results.backend}${mark ? `, ${mark}` : ""})`;
  const caveat = onSample
    ? `Our figures are on the bundled public sample (${results.split} split: ${dataset.splits[results.split as Split]?.length ?? 0} dialogue). The paper's figures are on ${baselines.test_set}: a different test set, shown for orientation only.`
    : `The paper's figures are on ${baselines.test_set}.`;
  const templates = Object.entries(results.prompt_versions).map(([task, version]) => `${task} \`${version}\``).join(", ");
  const intro = [
    runLine(results),
    ...protocolLines(results),
    // The protocol line already says when there are no prompts; templates are named when there are.
    `${templates ? `Prompt templates: ${templates}. ` : ""}Non-medical matching: \`${String(results.protocol.judge)}\`${results.protocol.judge === "exact" ? " (exact match, stricter than the paper's LLM judge)" : ""}.`,
    caveat,
    `Paper baselines: ${baselines.source}`,
  ];
  const tables: Table[] = [];
  const charts: Chart[] = [];

  const nlu = results.suites["meditod-nlu"] as CmasScores | undefined;
  if (nlu) {
    const paper = baselines["meditod-nlu"].map((row) => [`${row.model} (paper, ${row.setting.toLowerCase()})`, f4(row.overall_f1), f4(row.medical_f1), f4(row.non_medical_f1), "", ""]);
    tables.push({
      title: `MediTOD NLU (${nlu.samples} patient turns)`,
      header: ["model", "overall F1", "medical F1", "non-medical F1", "joint acc.", "format errors"],
      rows: [[ourLabel, f4(nlu.overall.f1), f4(nlu.medical.f1), f4(nlu.non_medical.f1), f4(nlu.joint_accuracy), f4(nlu.format_errors)], ...paper],
      ours: 0,
    });
    charts.push({
      title: "NLU overall F1",
      max: 1,
      bars: [{ label: chartLabel, value: nlu.overall.f1, ours: true }, ...baselines["meditod-nlu"].map((row) => ({ label: `${row.model} (${row.setting === "Supervised" ? "sup." : "ICL"})`, value: row.overall_f1, ours: false }))],
    });
    tables.push(...breakdowns(dir, dataset, "meditod-nlu"));
  }
  const pol = results.suites["meditod-pol"] as PolicyScores | undefined;
  if (pol) {
    const paper = baselines["meditod-pol"].map((row) => [`${row.model} (paper, ${row.setting.toLowerCase()})`, f4(row.overall_f1), f4(row.medical_f1), f4(row.non_medical_f1), f4(row.p_at_1), f4(row.p_at_4), f4(row.p_at_8), f4(row.p_at_inf)]);
    tables.push({
      title: `MediTOD POL (${pol.samples} doctor turns)`,
      header: ["model", "overall F1", "medical F1", "non-medical F1", "P@1", "P@4", "P@8", "P@inf", "format errors"],
      rows: [[ourLabel, f4(pol.overall.f1), f4(pol.medical.f1), f4(pol.non_medical.f1), f4(pol.precision_at["1"]), f4(pol.precision_at["4"]), f4(pol.precision_at["8"]), f4(pol.precision_at.inf), f4(pol.format_errors)], ...paper.map((row) => [...row, ""])],
      ours: 0,
    });
    charts.push({
      title: "POL overall F1",
      max: Math.max(0.5, pol.overall.f1),
      bars: [{ label: chartLabel, value: pol.overall.f1, ours: true }, ...baselines["meditod-pol"].map((row) => ({ label: `${row.model} (${row.setting === "Supervised" ? "sup." : "ICL"})`, value: row.overall_f1, ours: false }))],
    });
    tables.push(...breakdowns(dir, dataset, "meditod-pol"));
  }
  const nlg = results.suites["meditod-nlg"] as (MeditodNlgResult & { format_errors?: number }) | undefined;
  if (nlg) {
    const paper = baselines["meditod-nlg"].map((row) => [`${row.model} (paper, ${row.setting.toLowerCase()})`, f1d(row.bleu2), f1d(row.bleu4), row.rouge1.toFixed(3), row.rougeL.toFixed(3), row.bertscore.toFixed(3)]);
    tables.push({
      title: `MediTOD NLG (${nlg.samples} doctor turns)`,
      header: ["model", "BLEU-2", "BLEU-4", "ROUGE-1", "ROUGE-L", "BERTScore", "format errors"],
      rows: [[ourLabel, f1d(nlg.bleu2), f1d(nlg.bleu4), nlg.rouge1.toFixed(3), nlg.rougeL.toFixed(3), "n/a", f4(nlg.format_errors)], ...paper.map((row) => [...row, ""])],
      ours: 0,
    });
    charts.push({
      title: "NLG BLEU-4",
      max: Math.max(20, nlg.bleu4),
      bars: [{ label: chartLabel, value: nlg.bleu4, ours: true }, ...baselines["meditod-nlg"].map((row) => ({ label: `${row.model} (${row.setting === "Supervised" ? "sup." : "ICL"})`, value: row.bleu4, ours: false }))],
    });
  }
  const errors = formatErrorTable(dir, dataset, (["meditod-nlu", "meditod-pol", "meditod-nlg"] as const).filter((suite) => results.suites[suite] !== undefined));
  if (errors) tables.push(errors);
  tables.push(costTable(results));
  return { intro, tables, charts };
}

const NOTE_TITLES: Record<string, string> = {
  "mts-dialog": "MTS-Dialog note generation",
  "mts-dialog-perplexity": "MTS-Dialog perplexity",
  medtext: "MedText diagnosis and treatment",
  "medtext-perplexity": "MedText perplexity",
};

/** lm-eval's metrics per MTS-Dialog section header (nanmean over the header's documents). */
function byHeaderTable(dir: string, dataset: NoteDataset): Table | undefined {
  const lines = readLinesOf(predictionsPath(dir, "mts-dialog"), NOTE_LINES);
  const results = noteDocumentResults(dataset, lines);
  const groups = new Map<string, Array<(typeof results)[number]>>();
  lines.forEach((line, index) => {
    const header = dataset.documents.get(line.id)?.header;
    if (header === undefined) return;
    groups.set(header, [...(groups.get(header) ?? []), results[index]!]);
  });
  if (groups.size === 0) return undefined;
  return {
    title: "MTS-Dialog by section header",
    header: ["section header", "documents", "BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L"],
    rows: [...groups.entries()]
      .sort(([a, left], [b, right]) => right.length - left.length || a.localeCompare(b))
      .map(([header, group]) => [header, String(group.length), ...(["bleu", "rouge1", "rouge2", "rougeL"] as const).map((key) => f4(lmEvalNanmean(group.map((result) => result[key]))))]),
  };
}

/** The protocol's prompt as the report prints it: its text, or its JSON when it is structured. */
function promptText(prompt: unknown): string {
  return typeof prompt === "string" ? prompt : prompt === undefined ? "" : JSON.stringify(prompt);
}

function buildNotes(results: BenchResults, dataset: NoteDataset, dir: string): { intro: string[]; tables: Table[]; charts: Chart[] } {
  const data = results.dataset;
  const ourLabel = `**this run** (${results.backend})`;
  const engine = typeof results.protocol.engine === "string" ? `Engine: ${results.protocol.engine}.` : `Prompt: ${Object.values(results.prompt_versions).map((version) => `\`${version}\``).join(", ") || "none"} (${promptText(results.protocol.prompt)}).`;
  const intro = [
    runLine(results),
    engine,
    data ? `Data: ${data.name}; ${data.source}; split \`${data.split}\` (${data.documents} documents); target: ${data.target}.` : `Data: ${dataset.info.name}.`,
    `**${data?.comparable_with_lm_eval ? "Comparable" : "Not comparable"} with lm-evaluation-harness's numbers.** ${data?.note ?? dataset.info.note}`,
    "lm-evaluation-harness publishes no reference scores for these tasks, so no baselines are shown beside ours.",
  ];
  if (Object.keys(results.suites).some((suite) => !isPerplexitySuite(suite))) {
    intro.push("BLEU and ROUGE are lm-eval's per-document values (HF evaluate bleu on 13a tokens with the 1e-5 nudge, rouge_score F without stemming) averaged with nanmean; BLEURT and BERTScore need model weights that are not bundled.");
  }
  const tables: Table[] = [];
  for (const [suite, scores] of Object.entries(results.suites)) {
    if (isPerplexitySuite(suite)) {
      const perplexity = scores as PerplexityScores;
      tables.push({
        title: `${NOTE_TITLES[suite]} (${perplexity.samples} documents; lower is better)`,
        header: ["model", "word perplexity", "byte perplexity", "bits per byte"],
        rows: [[ourLabel, perplexity.word_perplexity.toFixed(2), perplexity.byte_perplexity.toFixed(4), perplexity.bits_per_byte.toFixed(4)]],
        ours: 0,
      });
      continue;
    }
    const note = scores as NoteGenerationScores;
    const nan = note.nan_counts;
    tables.push({
      title: `${NOTE_TITLES[suite]} (${note.samples} documents)`,
      header: ["model", "BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L", "BLEURT", "BERTScore", "NaN (length gate)"],
      rows: [[ourLabel, f4(note.bleu), f4(note.rouge1), f4(note.rouge2), f4(note.rougeL), "n/a", "n/a", `${Math.max(nan.bleu, nan.rouge1)} (${nan.length_gate})`]],
      ours: 0,
    });
    if (suite === "mts-dialog") {
      const byHeader = byHeaderTable(dir, dataset);
      if (byHeader) tables.push(byHeader);
    }
  }
  tables.push(costTable(results));
  return { intro, tables, charts: [] };
}

function costTable(results: BenchResults): Table {
  const runRows = Object.entries(results.runs).map(([suite, stats]) => [
    suite,
    String(stats.predicted),
    String(stats.resumed),
    String(stats.cached),
    String(stats.format_errors),
    stats.latency_ms.mean.toFixed(1),
    stats.latency_ms.p95.toFixed(1),
    `${stats.tokens.input} / ${stats.tokens.output}`,
    stats.exemplars ? `${stats.exemplars.mean.toFixed(2)} (min ${stats.exemplars.min})` : "–",
    stats.prompt_tokens ? String(stats.prompt_tokens.max) : "–",
  ]);
  return {
    title: "What the run cost",
    header: ["suite", "predicted", "resumed", "cached", "format errors", "latency mean ms", "latency p95 ms", "tokens in / out", "exemplars (mean)", "prompt tokens (max)"],
    rows: runRows,
  };
}

function markdownTable(table: Table): string {
  const escape = (cell: string) => cell.replace(/\|/g, "\\|");
  return [`### ${table.title}`, "", `| ${table.header.map(escape).join(" | ")} |`, `|${table.header.map((_, index) => (index === 0 ? "---" : "---:")).join("|")}|`, ...table.rows.map((row) => `| ${row.map(escape).join(" | ")} |`)].join("\n");
}

const html = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const inlineMarkdown = (text: string) => html(text).replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>").replace(/`(.+?)`/g, "<code>$1</code>");

function svgChart(chart: Chart): string {
  const rowHeight = 22;
  const labelWidth = 230;
  const barWidth = 420;
  const height = chart.bars.length * rowHeight + 30;
  const bars = chart.bars
    .map((bar, index) => {
      const y = 24 + index * rowHeight;
      const width = Math.max(1, (Math.min(bar.value, chart.max) / chart.max) * barWidth);
      return `<text x="${labelWidth - 8}" y="${y + 14}" text-anchor="end" class="${bar.ours ? "ours" : ""}">${html(bar.label)}</text><rect x="${labelWidth}" y="${y + 3}" width="${width.toFixed(1)}" height="${rowHeight - 6}" class="${bar.ours ? "bar ours" : "bar"}"/><text x="${labelWidth + width + 6}" y="${y + 14}">${chart.max > 1 ? bar.value.toFixed(1) : bar.value.toFixed(3)}</text>`;
    })
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${labelWidth + barWidth + 70}" height="${height}" role="img" aria-label="${html(chart.title)}"><text x="0" y="14" class="title">${html(chart.title)}</text>${bars}</svg>`;
}

function htmlTable(table: Table): string {
  const head = `<tr>${table.header.map((cell) => `<th>${html(cell)}</th>`).join("")}</tr>`;
  const body = table.rows.map((row, index) => `<tr${index === table.ours ? ' class="ours"' : ""}>${row.map((cell) => `<td>${inlineMarkdown(cell)}</td>`).join("")}</tr>`).join("\n");
  return `<h2>${html(table.title)}</h2>\n<table>\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

const STYLE = `body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1f24;max-width:1100px;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0;font-variant-numeric:tabular-nums}
th,td{padding:.25rem .6rem;border-bottom:1px solid #e3e6ea;text-align:right}th:first-child,td:first-child{text-align:left}
th{background:#f4f6f8;font-weight:600}tr.ours td{background:#e8f3ff;font-weight:600}
code{background:#f4f6f8;padding:0 .25rem;border-radius:3px}p.note{color:#4a5560}
.charts{display:flex;flex-wrap:wrap;gap:1.5rem}svg text{font-size:12px;fill:#333}svg text.title{font-weight:600;font-size:13px}
svg text.ours{font-weight:700;fill:#0b5cad}.bar{fill:#b9c3cc}.bar.ours{fill:#1f7ae0}`;

/** Writes report.md and report.html into a run directory. */
export function writeReports(dir: string, results: BenchResults, dataset: BenchDataset): void {
  const { intro, tables, charts } = build(results, dataset, dir);
  const markdown = ["# Anamnesis benchmark report", "", ...intro.map((line) => `${line}\n`), ...tables.map((table) => `${markdownTable(table)}\n`)].join("\n");
  writeFileAtomic(join(dir, "report.md"), `${markdown.trimEnd()}\n`);
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Anamnesis report: ${html(results.backend)} on ${html(results.split)}</title><style>${STYLE}</style></head>
<body>
<h1>Anamnesis benchmark report</h1>
${intro.map((line) => `<p class="note">${inlineMarkdown(line)}</p>`).join("\n")}
<div class="charts">${charts.map(svgChart).join("\n")}</div>
${tables.map(htmlTable).join("\n")}
</body></html>
`;
  writeFileAtomic(join(dir, "report.html"), page);
}
