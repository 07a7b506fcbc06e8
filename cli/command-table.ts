import type { Command } from "commander";

/**
 * The commands of `anamnesis`, each loaded only when it runs: `anamnesis --help` needs their names and
 * one-line descriptions, not express, xstate or the embedded engine. Adding a command is one entry
 * here plus its file in `./commands/` exporting a function that registers it on the program.
 */

/** Registers one top-level command (with its subcommands and options) on the program. */
export type RegisterCommand = (program: Command) => void;

/** A top-level command: what `--help` shows and how to load the code that runs it. */
export interface CommandEntry {
  /** The one-line description shown by `anamnesis --help`. */
  readonly description: string;
  /** Imports the command's module and returns its registration function. */
  readonly load: () => Promise<RegisterCommand>;
}

/** Every top-level command, in the order `--help` lists them. */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  data: {
    description: "Inspect the bundled datasets.",
    load: async () => (await import("./commands/data.ts")).registerDataCommands,
  },
  score: {
    description: "Score a predictions file exactly as the official scripts do.",
    load: async () => (await import("./commands/score.ts")).registerScoreCommands,
  },
  bench: {
    description: "Run benchmark suites with a backend; resumable, writes predictions, results.json and reports.",
    load: async () => (await import("./commands/bench.ts")).registerBenchCommand,
  },
  merge: {
    description: "Combine the run directories of shards into one run, scored and reported.",
    load: async () => (await import("./commands/bench.ts")).registerMergeCommand,
  },
  chat: {
    description: "Talk to the history-taking system: a local web page (default) or the terminal.",
    load: async () => (await import("./commands/chat.ts")).registerChatCommands,
  },
  note: {
    description: "Write the clinical note of a MediTOD dialogue or a saved chat session.",
    load: async () => (await import("./commands/note.ts")).registerNoteCommands,
  },
  simulate: {
    description: "Self-play: a doctor backend takes whole histories from simulated patients, scored per case.",
    load: async () => (await import("./commands/simulate.ts")).registerSimulateCommand,
  },
  metrics: {
    description:
      "Text-generation metrics (HF/sacrebleu/nltk BLEU, rouge_score, lm-eval, MediTOD) for prediction/reference pairs.",
    load: async () => (await import("./commands/metrics.ts")).registerMetricsCommands,
  },
};

/**
 * The top-level command an argument list runs: its first word that is not an option (`help bench`
 * asks about `bench`), or undefined for `--help`, `--version` and unknown words.
 */
export function selectedCommand(argv: readonly string[]): string | undefined {
  const words = argv.filter((arg) => !arg.startsWith("-"));
  const name = words[0] === "help" ? words[1] : words[0];
  return name !== undefined && Object.hasOwn(COMMANDS, name) ? name : undefined;
}
