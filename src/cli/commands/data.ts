import type { Command } from "commander";

export function registerDataCommands(program: Command): void {
  program.command("data").description("Inspect the bundled datasets.");
}
