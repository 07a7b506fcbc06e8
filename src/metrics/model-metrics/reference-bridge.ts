/**
 * The bridge to the reference model metrics: runs `python/reference_metrics.py` (shipped with the
 * package) with the user's Python, which calls the user's own bert-score or BLEURT; the figures are the
 * reference's by construction. The pairs go to its standard input as JSON lines, and one JSON object
 * comes back, checked here before any number is used.
 *
 * Every failure is one line (exit 2 from the CLI): no such interpreter, a missing package (the
 * program's exit 3 names it and how to install it), bad input, or output that is not the program's.
 */
import * as z from "zod";
import { AnamnesisError } from "../../foundation/errors.ts";
import { bundledPath } from "../../foundation/package-paths.ts";
import type { BertScoreSettings } from "../bertscore/bertscore-settings.ts";
import { importExternal } from "../../foundation/external-import.ts";

/** The interpreter the bridge runs: `--python`, else `$PYTHON`, else `python3`. */
export function defaultPython(): string {
  return process.env.PYTHON ?? "python3";
}

/** A score list as the program writes it: null for NaN. */
const scoreList = z.array(z.number().nullable()).transform((values) => values.map((value) => value ?? NaN));
const versions = z.record(z.string(), z.string().nullable());

const bertScoreOutput = z.object({
  metric: z.literal("bertscore"),
  hashcode: z.string(),
  versions,
  precision: scoreList,
  recall: scoreList,
  f1: scoreList,
  f1_mean: z.number().nullable(),
});

const bleurtOutput = z.object({
  metric: z.literal("bleurt"),
  checkpoint: z.string(),
  versions,
  scores: scoreList,
});

const medconOutput = z.object({
  metric: z.literal("medcon"),
  versions,
  scores: scoreList,
});

/** What the reference bert-score returned. */
export type ReferenceBertScore = z.infer<typeof bertScoreOutput>;
/** What the reference BLEURT returned. */
export type ReferenceBleurt = z.infer<typeof bleurtOutput>;
/** What the user's QuickUMLS gave as ACI-Bench's MEDCON. */
export type ReferenceMedcon = z.infer<typeof medconOutput>;

/** The program's exit codes for a missing package and for bad input. */
const MISSING_PACKAGE = 3;
const BAD_INPUT = 4;

/** Runs the program; resolves with its standard output, or rejects with one line. */
async function runProgram(python: string, args: readonly string[], input: string, what: string): Promise<string> {
  const program = bundledPath("python", "reference_metrics.py");
  // Loaded here, not with the module, so library code that never starts Python does not start child_process (and net).
  const { spawn } = await importExternal<typeof import("node:child_process")>("node:child_process");
  return new Promise((resolve, reject) => {
    const child = spawn(python, [program, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.stdin.on("error", () => {}); // an interpreter that exits early closes its input; its exit says why
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        new AnamnesisError(
          "INVALID_ARGUMENT",
          error.code === "ENOENT"
            ? `${what} needs Python: ${python} was not found (install Python 3 with the reference package, or name the interpreter with --python)`
            : `${what}: ${python} could not be started (${error.message})`,
        ),
      ),
    );
    child.on("close", (code) => {
      const lastError = Buffer.concat(err).toString("utf8").trim().split("\n").at(-1) ?? "";
      if (code === 0) return resolve(Buffer.concat(out).toString("utf8"));
      const reason =
        code === MISSING_PACKAGE || code === BAD_INPUT ? lastError : `${python} exited with ${code}: ${lastError}`;
      reject(new AnamnesisError("INVALID_ARGUMENT", `${what} (reference): ${reason}`));
    });
    child.stdin.end(input);
  });
}

/** Parses and checks the program's output for `pairs` pairs. */
function parseOutput<T extends { scores?: unknown; f1?: unknown }>(
  text: string,
  schema: z.ZodType<T>,
  pairs: number,
  python: string,
  what: string,
): T {
  const shown = JSON.stringify(text.trim().slice(0, 80));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AnamnesisError(
      "INVALID_DATA",
      `${what} (reference): ${python} printed ${shown}, not the bridge's result`,
    );
  }
  const parsed = schema.safeParse(json);
  const lists = parsed.success ? [parsed.data.scores ?? parsed.data.f1] : [];
  if (!parsed.success || lists.some((list) => (list as unknown[]).length !== pairs))
    throw new AnamnesisError(
      "INVALID_DATA",
      `${what} (reference): ${python} printed ${shown}, not the bridge's result for ${pairs} pairs`,
    );
  return parsed.data;
}

function pairLines(candidates: readonly string[], references: readonly string[]): string {
  return candidates.map((prediction, i) => `${JSON.stringify({ prediction, reference: references[i] })}\n`).join("");
}

/** bert-score with these settings over the pairs, through the user's Python. */
export async function referenceBertScore(
  candidates: readonly string[],
  references: readonly string[],
  settings: BertScoreSettings,
  python = defaultPython(),
): Promise<ReferenceBertScore> {
  const args = [
    "bertscore",
    "--model-type",
    settings.model,
    "--num-layers",
    String(settings.layer),
    "--batch-size",
    String(settings.batchSize),
    "--calls",
    settings.calls === "one call" ? "one" : "each",
    ...(settings.idf ? ["--idf"] : []),
    ...(settings.rescaleWithBaseline ? ["--rescale-with-baseline", "--lang", "en"] : []),
    ...(settings.baselinePath !== undefined ? ["--baseline-path", settings.baselinePath] : []),
  ];
  const output = await runProgram(python, args, pairLines(candidates, references), "BERTScore");
  return parseOutput(output, bertScoreOutput, candidates.length, python, "BERTScore");
}

/** BLEURT with this checkpoint (a name evaluate knows, or a checkpoint directory) over the pairs. */
export async function referenceBleurt(
  candidates: readonly string[],
  references: readonly string[],
  checkpoint: string,
  python = defaultPython(),
): Promise<ReferenceBleurt> {
  const output = await runProgram(
    python,
    ["bleurt", "--checkpoint", checkpoint],
    pairLines(candidates, references),
    "BLEURT",
  );
  return parseOutput(output, bleurtOutput, candidates.length, python, "BLEURT");
}

/** Where MEDCON's concepts come from: the user's QuickUMLS index and NLM's semantic groups file. */
export interface MedconInstallation {
  readonly python: string;
  /** The QuickUMLS index directory the user built from their UMLS release. */
  readonly quickumls: string;
  /** NLM's SemGroups file (`GROUP|Group name|TUI|Type name`), whose types outside ACI-Bench's excluded groups count. */
  readonly semanticGroups: string;
}

/** ACI-Bench's MEDCON (UMLS concept F1) of each pair, through the user's QuickUMLS. */
export async function referenceMedcon(
  candidates: readonly string[],
  references: readonly string[],
  installation: MedconInstallation,
): Promise<ReferenceMedcon> {
  const args = ["medcon", "--quickumls", installation.quickumls, "--semantic-groups", installation.semanticGroups];
  const output = await runProgram(installation.python, args, pairLines(candidates, references), "MEDCON");
  return parseOutput(output, medconOutput, candidates.length, installation.python, "MEDCON");
}
