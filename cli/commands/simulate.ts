import type { Command } from "commander";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadMeditod } from "../../src/data/meditod.ts";
import { AnamnesisError } from "../../src/foundation/errors.ts";
import { describeBackendIds } from "../../src/backends/index.ts";
import { createModules, EMBEDDED_BACKEND_ID } from "../../src/modules/builders/create-modules.ts";
import { loadCaseLibrary, meditodCases, type SelfPlayCase } from "../../src/simulator/case-library.ts";
import { playCase, summarise, type PatientChoice } from "../../src/simulator/self-play.ts";
import { CASE_COLUMNS, caseRows, selfPlayHtml, summaryLines } from "../../src/simulator/self-play-report.ts";
import { formatTable, printJson } from "../shared/output.ts";
import { PROVIDER_MODULE_OPTION } from "../shared/provider-module-option.ts";

interface SimulateFlags {
  doctor: string;
  patient: string;
  cases: string;
  out?: string;
  data?: string;
  baseUrl?: string;
  maxTurns: string;
  json?: boolean;
}

/** The patients self-play can use: each case's lay script (MediTOD cases have none: their profile answers), or the profile. */
const PATIENTS: readonly PatientChoice[] = ["script", "profile"];

/** `all`, `library`, `meditod`, or a comma-separated list of case ids. */
function selectCases(all: readonly SelfPlayCase[], selection: string): SelfPlayCase[] {
  if (selection === "all") return [...all];
  if (selection === "library" || selection === "meditod") return all.filter((entry) => entry.source === selection);
  const ids = selection
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !all.some((entry) => entry.id === id));
  if (unknown.length > 0)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `--cases: no case ${unknown.join(", ")} (try --cases all, library, meditod, or ids such as ${all
        .slice(0, 3)
        .map((entry) => entry.id)
        .join(",")})`,
    );
  return all.filter((entry) => ids.includes(entry.id));
}

/** The patient and the number of doctor turns before a history is cut off, checked; one line on a bad value. */
function checkedSimulateFlags(flags: SimulateFlags): { patient: PatientChoice; maxDoctorTurns: number } {
  const patient = PATIENTS.find((choice) => choice === flags.patient);
  if (!patient)
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `--patient must be one of ${PATIENTS.join(", ")} (got '${flags.patient}'); an LLM patient is not available yet`,
    );
  const maxDoctorTurns = Number(flags.maxTurns);
  if (!Number.isInteger(maxDoctorTurns) || maxDoctorTurns < 1)
    throw new AnamnesisError("INVALID_ARGUMENT", `--max-turns must be a positive integer (got '${flags.maxTurns}')`);
  return { patient, maxDoctorTurns };
}

/** Plays every selected case, writes the run when asked, and prints the table or the summary. */
async function simulate(flags: SimulateFlags): Promise<void> {
  const options = checkedSimulateFlags(flags);
  const dataset = loadMeditod(flags.data);
  const cases = selectCases([...loadCaseLibrary(), ...meditodCases(dataset)], flags.cases);
  const setup = await createModules(flags.doctor, dataset, {
    backendOptions: flags.baseUrl ? { baseUrl: flags.baseUrl } : {},
    wording: "clean",
    templates: { policy: "policy.v2" },
  });
  const started = new Date().toISOString();
  const results = [];
  try {
    for (const patientCase of cases) results.push(await playCase(setup.modules, patientCase, options));
  } finally {
    await setup.close();
  }
  const summary = summarise(results);
  if (flags.out) writeRun(flags.out, results, summary, { doctor: setup.backend.id, patient: flags.patient, started });
  if (flags.json) {
    printJson(summary);
    return;
  }
  const lines = summaryLines(summary).map(([label, value]) => `${label}: ${value}`);
  process.stdout.write(
    `${formatTable(CASE_COLUMNS, caseRows(results), [0, 1, 2, 10, 11, 12])}\n\n${lines.join("\n")}\n`,
  );
  if (flags.out) process.stdout.write(`\nTranscripts and report: ${flags.out}/report.html\n`);
}

/** Registers `anamnesis simulate`. */
export function registerSimulateCommand(program: Command): void {
  program
    .command("simulate")
    .description(
      "Self-play: a doctor backend takes whole histories from simulated patients; facts revealed, red flags and closing fit against each case's own expected answer.",
    )
    .option(
      "--doctor <backend>",
      `the doctor: ${EMBEDDED_BACKEND_ID} (default), ${describeBackendIds({ chatModelsOnly: true })}, or a --provider-module's`,
      EMBEDDED_BACKEND_ID,
    )
    .option(
      "--patient <which>",
      "script: each library case's patient speaks its hand-written lay script (MediTOD cases, which have none, answer from their profile); profile: every case answers from its CMAS profile",
      "script",
    )
    .option(
      "--cases <which>",
      "all, library (our cases), meditod (train/valid dialogues), or case ids separated by commas",
      "all",
    )
    .option(
      "--data <dir>",
      "a MediTOD directory: its train/valid dialogues join the cases (and train the embedded doctor)",
    )
    .option("--base-url <url>", "server base URL for an openai/ollama doctor")
    .option("--max-turns <n>", "doctor turns before a history is cut off", "80")
    .option("--out <dir>", "write transcripts/<case>.jsonl, results.jsonl, summary.json and report.html here")
    .option("--json", "print the summary as JSON")
    .option(...PROVIDER_MODULE_OPTION)
    .action(simulate);
}

function writeRun(
  dir: string,
  results: Awaited<ReturnType<typeof playCase>>[],
  summary: ReturnType<typeof summarise>,
  meta: { doctor: string; patient: string; started: string },
): void {
  mkdirSync(join(dir, "transcripts"), { recursive: true });
  for (const result of results)
    writeFileSync(
      join(dir, "transcripts", `${result.id}.jsonl`),
      result.transcript.map((line) => JSON.stringify(line)).join("\n") + "\n",
    );
  writeFileSync(
    join(dir, "results.jsonl"),
    results.map(({ transcript: _transcript, ...result }) => JSON.stringify(result)).join("\n") + "\n",
  );
  writeFileSync(join(dir, "summary.json"), `${JSON.stringify({ ...meta, ...summary }, null, 2)}\n`);
  writeFileSync(join(dir, "report.html"), selfPlayHtml(results, summary, meta));
}
