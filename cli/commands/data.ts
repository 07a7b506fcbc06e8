import type { Command } from "commander";
import { datasetStats, loadMeditod } from "../../src/data/meditod.ts";
import { formatTable, printJson } from "../shared/output.ts";

export function registerDataCommands(program: Command): void {
  const data = program.command("data").description("Inspect the bundled datasets.");
  data
    .command("stats")
    .description("Dialogue, utterance and turn counts per MediTOD split.")
    .option("--data <dir>", "MediTOD directory (dialogs.json + split ids); default: the bundled public sample")
    .option("--json", "print JSON")
    .action((options: { data?: string; json?: boolean }) => {
      const dataset = loadMeditod(options.data);
      const stats = datasetStats(dataset);
      if (options.json) {
        printJson({ meditod: stats });
        return;
      }
      const rows = Object.entries(stats).map(([split, counts]) => [
        split,
        counts.dialogues,
        counts.utterances,
        counts.patient_turns,
        counts.doctor_turns,
      ]);
      process.stdout.write(
        `MediTOD (${dataset.dir})\n${formatTable(["split", "dialogues", "utterances", "patient turns", "doctor turns"], rows)}\n`,
      );
    });
}
