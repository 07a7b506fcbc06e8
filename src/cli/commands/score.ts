import type { Command } from "commander";

export function registerScoreCommands(program: Command): void {
  program.command("score").description("Score a predictions file as the official scripts do.");
}
