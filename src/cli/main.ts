import { Command, CommanderError } from "commander";
import { isAnamnesisError } from "../errors.ts";
import { registerDataCommands } from "./commands/data.ts";
import { registerMetricsCommands } from "./commands/metrics.ts";
import { registerScoreCommands } from "./commands/score.ts";
import { registerBenchCommands } from "./commands/bench.ts";
import { registerChatCommands } from "./commands/chat.ts";
import { registerNoteCommands } from "./commands/note.ts";

/** Builds the `anamnesis` command. Commands live one per file in `./commands/`. */
export function buildProgram(): Command {
  const program = new Command("anamnesis")
    .description("Medical history-taking dialogue: the MediTOD pipeline, benchmark suites and chat.")
    .exitOverride();
  registerDataCommands(program);
  registerScoreCommands(program);
  registerBenchCommands(program);
  registerChatCommands(program);
  registerNoteCommands(program);
  registerMetricsCommands(program);
  return program;
}

/** Runs the CLI; user errors become one line on stderr and exit code 2. */
export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has already printed its message (or the help text).
      return error.exitCode === 0 ? 0 : 2;
    }
    if (isAnamnesisError(error)) {
      process.stderr.write(`anamnesis: ${error.message}\n`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`anamnesis: internal error: ${message}\n`);
    return 1;
  }
}
