import { AnamnesisError } from "../src/foundation/errors.ts";
import { getDialogue, loadMeditod, SPLITS, type MeditodDataset, type Split } from "../src/data/meditod.ts";
import { loadMtsDialog } from "../src/data/mts-dialog.ts";
import { loadMedtext } from "../src/data/medtext.ts";
import { noteSplit, type NoteDataset } from "../src/data/note-dataset.ts";
import { nlgExamples, nluExamples, policyExamples } from "../src/data/meditod-views.ts";
import type { LoglikelihoodScorer } from "../src/backends/spec.ts";
import type { CallOptions, DialogueModules, DialogueTurn, ModuleCallInfo, NoteModule } from "../src/language/module-interfaces.ts";
import type { AttributeJudge } from "../src/metrics/attribute-judge.ts";
import { scoreNlgPredictions, scoreNluPredictions, scorePolicyPredictions } from "./suites/meditod/meditod-scoring.ts";
import { MEDITOD_LINES, type AnyPredictionLine, type PredictionLine, type PredictionsFormat } from "./predictions-file.ts";
import { isNoteDataset, NOTE_SUITE_DEFINITIONS, NOTE_SUITES, type NoteSuiteId } from "./suites/clinical-notes/note-suites.ts";

/**
 * Benchmark suites as data: a dataset view, how to predict one example with the modules, and how to
 * score a predictions file. The MediTOD evaluation protocol is the paper's: NLU sees the gold history;
 * the policy sees the gold history and the gold state; NLG sees the gold history and the gold actions.
 * The clinical-note suites (note-suites.ts) are lm-evaluation-harness's mts_dialog and medtext tasks.
 */

/**
 * How an LLM is prompted for the MediTOD suites: `official` is dair-iitd/MediTOD's in-context pipeline
 * step for step; `anamnesis` is ours (constrained decoding, repair, BM25, our prompts). The embedded
 * engine is not prompted; its runs are labelled `embedded`.
 */
export const PROTOCOLS = ["official", "anamnesis", "embedded"] as const;
export type ProtocolName = (typeof PROTOCOLS)[number];

export const MEDITOD_SUITES = ["meditod-nlu", "meditod-pol", "meditod-nlg"] as const;
export type MeditodSuiteId = (typeof MEDITOD_SUITES)[number];
/** A benchmark suite id: `meditod-nlu`, `meditod-pol`, `meditod-nlg`, or a clinical-note suite. */
export type SuiteId = MeditodSuiteId | NoteSuiteId;
export { NOTE_SUITES, type NoteSuiteId };

/** The data a suite reads; one run reads one. */
export type SuiteData = "meditod" | "mts-dialog" | "medtext";
export type BenchDataset = MeditodDataset | NoteDataset;

/** What examples are predicted with: the dialogue modules, or the note writer and a log-likelihood scorer. */
export interface BenchModules extends Partial<DialogueModules> {
  readonly note?: NoteModule;
  readonly likelihood?: LoglikelihoodScorer;
}

/** One example to predict. */
export interface SuiteExample {
  /** Unique in the suite: what resuming and merging match on (the predictions format's key). */
  readonly key: string;
  /** The fields that identify it in its predictions line: `dialogue_id` and `turn`, or `id`. */
  readonly fields: Readonly<Record<string, string | number>>;
  predict(modules: BenchModules, options: CallOptions): Promise<{ prediction: unknown; info: ModuleCallInfo }>;
}

export interface Suite {
  readonly id: SuiteId;
  readonly data: SuiteData;
  readonly module: keyof BenchModules;
  /** What the module sees, for run records. */
  readonly protocol: string;
  readonly format: PredictionsFormat;
  /** The examples of a split; the official MediTOD protocol leaves out an NLU turn that ends its dialogue. */
  examples(dataset: BenchDataset, split: string, protocol?: ProtocolName): SuiteExample[];
  score(dataset: BenchDataset, lines: readonly AnyPredictionLine[], judge?: AttributeJudge): Promise<unknown>;
}

const turnsOf = (history: ReadonlyArray<{ speaker: "doctor" | "patient"; text: string }>): DialogueTurn[] => history.map(({ speaker, text }) => ({ speaker, text }));

function meditod(dataset: BenchDataset): MeditodDataset {
  if (isNoteDataset(dataset)) throw new AnamnesisError("INVALID_ARGUMENT", "the MediTOD suites need the MediTOD data");
  return dataset;
}

function needs<M>(module: M | undefined, name: string): M {
  if (!module) throw new AnamnesisError("INVALID_ARGUMENT", `this suite needs the ${name} module`);
  return module;
}

const meditodExample = (dialogueId: string, turn: number, predict: SuiteExample["predict"]): SuiteExample => ({
  key: `${dialogueId}:${turn}`,
  fields: { dialogue_id: dialogueId, turn },
  predict,
});

const meditodLines = (lines: readonly AnyPredictionLine[]) => lines as readonly PredictionLine[];

/** Every benchmark suite by id: how it reads examples, predicts and scores. */
export const SUITES: Record<SuiteId, Suite> = {
  "meditod-nlu": {
    id: "meditod-nlu",
    data: "meditod",
    module: "nlu",
    protocol: "patient turns; the module sees the gold dialogue history",
    format: MEDITOD_LINES,
    examples: (dataset, split, protocol) =>
      nluExamples(meditod(dataset), split as Split)
        .filter((example) => protocol !== "official" || example.turn + 1 !== getDialogue(meditod(dataset), example.dialogueId).utterances.length)
        .map((example) =>
        meditodExample(example.dialogueId, example.turn, async (modules, options) => {
          const { frames, ...info } = await needs(modules.nlu, "nlu").understand({ history: turnsOf(example.history), utterance: example.text, dialogueId: example.dialogueId, turn: example.turn }, options);
          return { prediction: frames ?? [], info };
        }),
      ),
    score: (dataset, lines, judge) => scoreNluPredictions(meditod(dataset), meditodLines(lines), judge),
  },
  "meditod-pol": {
    id: "meditod-pol",
    data: "meditod",
    module: "policy",
    protocol: "doctor turns except the first; the module sees the gold history and the gold dialogue state",
    format: MEDITOD_LINES,
    examples: (dataset, split) =>
      policyExamples(meditod(dataset), split as Split).map((example) =>
        meditodExample(example.dialogueId, example.turn, async (modules, options) => {
          const { actions, ...info } = await needs(modules.policy, "policy").nextActions({ history: turnsOf(example.history), state: example.state, dialogueId: example.dialogueId, turn: example.turn }, options);
          return { prediction: actions ?? [], info };
        }),
      ),
    score: (dataset, lines, judge) => scorePolicyPredictions(meditod(dataset), meditodLines(lines), judge),
  },
  "meditod-nlg": {
    id: "meditod-nlg",
    data: "meditod",
    module: "nlg",
    protocol: "doctor turns except the first; the module sees the gold history and the gold actions",
    format: MEDITOD_LINES,
    examples: (dataset, split) =>
      nlgExamples(meditod(dataset), split as Split).map((example) =>
        meditodExample(example.dialogueId, example.turn, async (modules, options) => {
          const { text, ...info } = await needs(modules.nlg, "nlg").realise({ history: turnsOf(example.history), actions: example.actions, dialogueId: example.dialogueId, turn: example.turn }, options);
          return { prediction: text, info };
        }),
      ),
    score: async (dataset, lines) => scoreNlgPredictions(meditod(dataset), meditodLines(lines)),
  },
  ...NOTE_SUITE_DEFINITIONS,
};

const ALL_SUITES: readonly SuiteId[] = [...MEDITOD_SUITES, ...NOTE_SUITES];

/** Expands `meditod` into its three suites; unknown ids raise an error listing the known ones. */
export function resolveSuites(ids: readonly string[]): SuiteId[] {
  const expanded = ids.flatMap((id) => (id === "meditod" ? [...MEDITOD_SUITES] : [id]));
  const unknown = expanded.filter((id) => !(ALL_SUITES as readonly string[]).includes(id));
  if (unknown.length > 0) {
    throw new AnamnesisError("INVALID_ARGUMENT", `unknown suite '${unknown[0]}' (available: meditod, ${ALL_SUITES.join(", ")})`);
  }
  return expanded.filter((id, index): id is SuiteId => expanded.indexOf(id) === index);
}

/** The data the suites read; suites on different data need separate runs. */
export function suiteData(ids: readonly SuiteId[]): SuiteData {
  const kinds = [...new Set(ids.map((id) => SUITES[id].data))];
  if (kinds.length !== 1) {
    throw new AnamnesisError("INVALID_ARGUMENT", `run suites on different data separately (${ids.join(", ")} read ${kinds.join(" and ")})`);
  }
  return kinds[0]!;
}

/** Loads a suite's data: `path` is MediTOD's directory, or MTS-Dialog's / MedText's file (default: the bundled data). */
export function loadBenchDataset(data: SuiteData, path?: string): BenchDataset {
  if (data === "meditod") return loadMeditod(path);
  return data === "mts-dialog" ? loadMtsDialog(path) : loadMedtext(path);
}

/** The split a run uses when none is given: MediTOD's test, or the note dataset's default. */
export function defaultSplit(dataset: BenchDataset): string {
  return isNoteDataset(dataset) ? dataset.defaultSplit : "test";
}

/** Checks that the dataset has the split, with an error listing the ones it has. */
export function checkSplit(dataset: BenchDataset, split: string): void {
  if (isNoteDataset(dataset)) {
    noteSplit(dataset, split);
    return;
  }
  if (!(SPLITS as readonly string[]).includes(split)) throw new AnamnesisError("INVALID_ARGUMENT", `--split must be one of ${SPLITS.join(", ")} (got '${split}')`);
}
