import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where the files that ship with the package (ontology, prompts, data, the chat page, the paper's
 * baselines) are, resolved the same way whether this module runs from `src/` through tsx or vitest,
 * from the compiled `dist/src/`, or from an installed tarball in `node_modules/anamnesis/`: walk up
 * from this file to the folder holding our own `package.json`. Code never counts `../` from its own
 * location, so moving a file or compiling it elsewhere cannot break a data path.
 */

const PACKAGE_NAME = "anamnesis";

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === PACKAGE_NAME
    ) {
      return dir;
    }
    if (dirname(dir) === dir) throw new Error(`cannot find the ${PACKAGE_NAME} package root above ${start}`);
  }
}

/**
 * Whether this code runs from the build's bundle (`dist/bundle/*.js`), which the build writes together
 * with what it derives from the bundled files (`dist/ontology-validated/`, `dist/nlu-snapshot/`). Code
 * run from the sources (the tests, `npx tsx`) never reads those, so a change in `src/` never meets
 * what the build derived with the old code.
 */
export const RUNS_FROM_BUNDLE: boolean = import.meta.url.endsWith(".js") && import.meta.url.includes("/dist/bundle/");

/** The package's root folder (the one with its `package.json`), absolute. */
export const PACKAGE_ROOT: string = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** The absolute path of a file or folder shipped with the package, given relative to its root. */
export function bundledPath(...relative: string[]): string {
  return resolve(PACKAGE_ROOT, ...relative);
}

/** The bundled folders and files the code reads, absolute. Folders end without a separator. */
export const BUNDLED = {
  /** `ontology/`: CMAS and the embedded engine's hand-written knowledge. */
  ontology: bundledPath("ontology"),
  /** `prompts/`: the versioned prompt templates. */
  prompts: bundledPath("prompts"),
  /** `data/meditod/`: the public MediTOD sample. */
  meditod: bundledPath("data", "meditod"),
  /** `data/meditod-dev/`: the development dialogue RES0001. */
  meditodDev: bundledPath("data", "meditod-dev"),
  /** `data/mts-dialog/Main-Dataset/`: MTS-Dialog's CSV files. */
  mtsDialog: bundledPath("data", "mts-dialog", "Main-Dataset"),
  /** `data/mts-dialog/training-vocabulary.txt`: the words seen twice in MTS-Dialog's training set (derived). */
  mtsDialogVocabulary: bundledPath("data", "mts-dialog", "training-vocabulary.txt"),
  /** `data/aci-bench/`: ACI-Bench's challenge data, six baseline predictions and one official results file. */
  aciBench: bundledPath("data", "aci-bench"),
  /** `data/mediq/`: MediQ's iCraft-MD cases and the first 1,000 MedQA development cases. */
  mediq: bundledPath("data", "mediq"),
  /** `data/agentclinic/`: the first 150 of AgentClinic's MedQA cases. */
  agentclinic: bundledPath("data", "agentclinic"),
  /** `data/cases/library.json`: our simulated-patient cases. */
  caseLibrary: bundledPath("data", "cases", "library.json"),
  /** `server/public/`: the chat page. */
  serverPublic: bundledPath("server", "public"),
  /** `eval/paper-baselines.json`: the MediTOD paper's figures shown beside ours in reports. */
  paperBaselines: bundledPath("eval", "paper-baselines.json"),
} as const;

/** Reads a bundled text file (path relative to the package root). */
export function readBundledText(relative: string): string {
  return readFileSync(bundledPath(relative), "utf8");
}

/**
 * Reads and parses a bundled JSON file (path relative to the package root). The result is `unknown`
 * on purpose: callers validate it (zod) or state the shape they rely on.
 */
export function readBundledJson(relative: string): unknown {
  return JSON.parse(readBundledText(relative)) as unknown;
}
