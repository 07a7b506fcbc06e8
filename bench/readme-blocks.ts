/**
 * The README's measured blocks (`<!-- measured:NAME -->`), made by `bench/measurements.ts` from the
 * same run as `docs/measurements.md`: what `npm run bench` prints, the test-split figures, the
 * leave-one-out mean and a few speed figures, each with the command that produced it. A block is
 * rewritten only when every measurement it quotes ran in this run, so one block never mixes runs.
 */
import { PACKAGE_ROOT } from "../src/foundation/package-paths.ts";
import type { MeasurementStamp } from "../test-support/measurements-page.ts";
import { SMOKE_LABEL } from "../test-support/measurements-page.ts";
import type { BaselineFigures } from "./aci-bench-baselines.ts";
import { rougeCell } from "./aci-bench-plan.ts";
import { fixed, foldLine, ms, perSecond, seconds, type FoldFigures, type Timing } from "./measurement-plan.ts";

/** What one measurement of this run left: its command, stdout, data and stamp. */
export interface MeasuredRun {
  /** The command as the page shows it. */
  readonly command: string;
  readonly stdout: string;
  readonly data: unknown;
  readonly stamp: MeasurementStamp;
}

/** One README block: the measurements it quotes, and how it is written from them. */
interface Block {
  readonly name: string;
  readonly needs: readonly string[];
  render(runs: ReadonlyMap<string, MeasuredRun>): string;
}

/** The line under a block: when and where, and where the rest is. */
function provenance(stamp: MeasurementStamp): string {
  const smoke = stamp.smoke ? ` **${SMOKE_LABEL}**` : "";
  return `<sub>Measured ${stamp.date.slice(0, 10)} at \`${stamp.commit}\` on ${stamp.cpuCount} × ${stamp.cpuModel}, Node ${stamp.node}, by \`npx tsx bench/measurements.ts\`; load averages, settings and every other figure in [docs/measurements.md](docs/measurements.md).</sub>${smoke}`;
}

/** `npm run bench`'s output as a user sees it, the checkout's own path taken out of the report paths. */
function benchOutput(runs: ReadonlyMap<string, MeasuredRun>): string {
  const text = runs.get("test-split")!.stdout.replaceAll(`${PACKAGE_ROOT}/`, "").trimEnd();
  return ["```", text, "```"].join("\n");
}

interface Suites {
  "meditod-nlu": { overall: { f1: number }; medical: { f1: number }; non_medical: { f1: number } };
  "meditod-pol": { overall: { f1: number }; precision_at: Record<string, number> };
  "meditod-nlg": { bleu2: number; bleu4: number; rouge1: number; rougeL: number };
}

function testSplit(runs: ReadonlyMap<string, MeasuredRun>): string {
  const run = runs.get("test-split")!;
  const s = (run.data as { suites: Suites }).suites;
  return [
    `| \`${run.command}\`: test dialogue 407, embedded engine, exact judge | |`,
    "|---|---|",
    `| NLU F1 (overall / medical / non-medical) | ${fixed(s["meditod-nlu"].overall.f1, 4)} / ${fixed(s["meditod-nlu"].medical.f1, 4)} / ${fixed(s["meditod-nlu"].non_medical.f1, 4)} |`,
    `| policy F1 / P@1 / P@inf | ${fixed(s["meditod-pol"].overall.f1, 4)} / ${fixed(s["meditod-pol"].precision_at["1"]!, 4)} / ${fixed(s["meditod-pol"].precision_at.inf!, 4)} |`,
    `| NLG BLEU-2 / BLEU-4 / ROUGE-1 / ROUGE-L | ${fixed(s["meditod-nlg"].bleu2, 2)} / ${fixed(s["meditod-nlg"].bleu4, 2)} / ${fixed(s["meditod-nlg"].rouge1, 4)} / ${fixed(s["meditod-nlg"].rougeL, 4)} |`,
    "",
    provenance(run.stamp),
  ].join("\n");
}

function leaveOneOut(runs: ReadonlyMap<string, MeasuredRun>): string {
  const run = runs.get("leave-one-out")!;
  const { folds, mean } = run.data as { folds: Array<{ heldOut: string }>; mean: FoldFigures };
  return [
    `Leave one dialogue out (\`${run.command}\`; ${folds.map((fold) => fold.heldOut).join(", ")}; the test split never read), mean: ${foldLine(mean)}.`,
    "",
    provenance(run.stamp),
  ].join("\n");
}

function speed(runs: ReadonlyMap<string, MeasuredRun>): string {
  const startup = runs.get("startup")!.data as { help: Timing; npmRunBench: Timing };
  const embedded = runs.get("embedded")!.data as { engineBuildMs: number; chatTurn: { p50Ms: number; p95Ms: number } };
  const load = runs.get("chat-load")!.data as { worstAfterWarmUp: { turnsPerSecond: number; p95Ms: number } };
  const command = (name: string) => `\`${runs.get(name)!.command}\``;
  return [
    "| figure | value | command |",
    "|---|---|---|",
    `| \`npm run bench\`, whole process (median) | ${seconds(startup.npmRunBench.medianWall)} | ${command("startup")} |`,
    `| \`anamnesis --help\`, whole process (median) | ${seconds(startup.help.medianWall)} | ${command("startup")} |`,
    `| embedded engine build / chat turn p50 / p95 | ${ms(embedded.engineBuildMs, 0)} / ${ms(embedded.chatTurn.p50Ms)} / ${ms(embedded.chatTurn.p95Ms)} | ${command("embedded")} |`,
    `| chat server, worst round after warm-up | ${perSecond(load.worstAfterWarmUp.turnsPerSecond, "turns")}, p95 ${ms(load.worstAfterWarmUp.p95Ms, 1)} | ${command("chat-load")} |`,
    "",
    provenance(runs.get("startup")!.stamp),
  ].join("\n");
}

/**
 * `metrics pairs` beside the Python references, a block of its own: the references (rouge_score,
 * sacrebleu) are not installed everywhere, and the other speed figures must not wait for them, nor
 * be shown beside a ratio from another run.
 */
function metricsSpeed(runs: ReadonlyMap<string, MeasuredRun>): string {
  const run = runs.get("metrics-python")!;
  const python = run.data as { pairs: number; ours: Timing; python: Timing | null; ratio?: number; reason?: string };
  const ratio = python.python
    ? `${seconds(python.ours.medianWall)} against ${seconds(python.python.medianWall)} for the Python references: ${fixed(python.ratio!, 1)}×`
    : `${seconds(python.ours.medianWall)} (no ratio: ${python.reason ?? "the Python references did not run"})`;
  return [
    "| figure | value | command |",
    "|---|---|---|",
    `| \`metrics pairs\`, ${python.pairs.toLocaleString("en-US")} pairs, side by side | ${ratio} | \`${run.command}\` |`,
    "",
    provenance(run.stamp),
  ].join("\n");
}

/** ACI-Bench's shipped baseline outputs as our scorer scores them, in the paper's columns. */
function aciBench(runs: ReadonlyMap<string, MeasuredRun>): string {
  const run = runs.get("aci-bench")!;
  const { baselines } = run.data as { baselines: BaselineFigures[] };
  return [
    `| ACI-Bench baseline output (\`${run.command}\`) | split | notes | ROUGE-1 | ROUGE-2 | ROUGE-L |`,
    "|---|---|---:|---:|---:|---:|",
    ...baselines.map(
      (row) =>
        `| ${row.model} | ${row.split} | ${row.notes} | ${rougeCell(row.rouge1)} | ${rougeCell(row.rouge2)} | ${rougeCell(row.rougeLsum)} |`,
    ),
    "",
    "Scored as ACI-Bench's `evaluate_fullnote.py` (ROUGE-L is rougeLsum, as the paper's tables); the tests check every row against the paper's tables and the shipped results file to 1e-9.",
    "",
    provenance(run.stamp),
  ].join("\n");
}

/** One consultation suite's row: accuracy floor → doctor → ceiling, and what the doctor drew out. */
function consultRow(runs: ReadonlyMap<string, MeasuredRun>, name: string, label: string): string {
  const run = runs.get(name)!;
  const scores = (run.data as { suites: Record<string, ConsultFigures> }).suites[name]!;
  const accuracy = (arm: "floor" | "doctor" | "ceiling") => `${fixed(scores.arms[arm].accuracy.mean * 100, 1)} %`;
  const doctor = scores.arms.doctor;
  return `| ${label} (${scores.cases}) | ${accuracy("floor")} | **${accuracy("doctor")}** [${fixed(doctor.accuracy.low * 100, 1)}, ${fixed(doctor.accuracy.high * 100, 1)}] | ${accuracy("ceiling")} | ${fixed(doctor.questions.mean, 1)} | ${fixed(doctor.factRecall.mean * 100, 1)} % | ${fixed(doctor.checklistCoverage.mean * 100, 1)} % | \`${run.command}\` |`;
}

interface ConsultFigures {
  cases: number;
  arms: Record<
    "floor" | "doctor" | "ceiling",
    {
      accuracy: { mean: number; low: number; high: number };
      questions: { mean: number };
      factRecall: { mean: number };
      checklistCoverage: { mean: number };
    }
  >;
}

function consult(runs: ReadonlyMap<string, MeasuredRun>): string {
  return [
    "| cases | floor accuracy | embedded doctor accuracy [95 % CI] | ceiling accuracy | doctor's questions | doctor's fact recall | doctor's OSCE checklist coverage | command |",
    "|---|---|---|---|---|---|---|---|",
    consultRow(runs, "consult-mediq", "MediQ iCraft-MD"),
    consultRow(runs, "consult-agentclinic", "AgentClinic MedQA, bundled"),
    consultRow(runs, "consult-library", "our library, lay scripts"),
    "",
    provenance(runs.get("consult-mediq")!.stamp),
  ].join("\n");
}

export const README_BLOCKS: readonly Block[] = [
  { name: "bench-output", needs: ["test-split"], render: benchOutput },
  { name: "test-split", needs: ["test-split"], render: testSplit },
  { name: "leave-one-out", needs: ["leave-one-out"], render: leaveOneOut },
  { name: "speed", needs: ["startup", "embedded", "chat-load"], render: speed },
  { name: "metrics-speed", needs: ["metrics-python"], render: metricsSpeed },
  { name: "aci-bench", needs: ["aci-bench"], render: aciBench },
  { name: "consult", needs: ["consult-mediq", "consult-agentclinic", "consult-library"], render: consult },
];

/** The blocks this run can write, and the names of those it cannot (a measurement they quote did not run). */
export function readmeBlocks(runs: ReadonlyMap<string, MeasuredRun>): { blocks: Map<string, string>; left: string[] } {
  const blocks = new Map<string, string>();
  const left: string[] = [];
  for (const block of README_BLOCKS) {
    if (block.needs.every((name) => runs.has(name))) blocks.set(block.name, block.render(runs));
    else left.push(`${block.name} (needs ${block.needs.join(", ")})`);
  }
  return { blocks, left };
}
