/**
 * ACI-Bench's nearest-training-note baseline, the floor the embedded visit note is read against: each
 * visit's note is the whole note of the training visit whose conversation is nearest by BM25
 * (`NearestNoteWriter`, the offline writer of the other note suites), copied, and scored as the official
 * evaluate_fullnote.py by the suite's own scorer. It reads nothing of the visit but its words' overlap
 * with the training conversations, so it shows how much of a note a split's shared templates give away.
 *
 *   npx tsx bench/aci-bench-nearest-note.ts [--split valid|test1] [--json]
 */
import { scriptArgs } from "./script-args.ts";
import { loadAciBench, type AciBenchSplit } from "../src/data/aci-bench.ts";
import { noteSplit } from "../src/data/note-dataset.ts";
import { NearestNoteWriter } from "../src/modules/embedded/notes/index.ts";
import { scoreAciBench } from "../eval/suites/aci-bench/aci-bench-scores.ts";
import { benchOutput } from "./json-output.ts";

const { values } = scriptArgs({
  options: { split: { type: "string", default: "valid" }, json: { type: "boolean", default: false } },
});
const split = values.split as AciBenchSplit;
const output = benchOutput();
const dataset = loadAciBench();
if (!(split in dataset.splits) || split === "train") {
  process.stderr.write(`aci-bench-nearest-note: --split must be one of valid, test1, test2, test3 (got ${split})\n`);
  process.exit(2);
}
const writer = new NearestNoteWriter(noteSplit(dataset, "train"));
const encounters = dataset.splits[split];
const notes: string[] = [];
for (const encounter of encounters) notes.push((await writer.write({ instructions: "", input: encounter.input })).text);
const scores = scoreAciBench(dataset, split, encounters, notes);
const cells = (cohort: string) => {
  const means = scores.rouge[cohort]!;
  return [means.rouge1, means.rouge2, means.rougeLsum].map((value) => (value * 100).toFixed(2)).join(" / ");
};
output.line(
  `nearest training note, ${split} (${scores.notes} notes): ROUGE-1 / ROUGE-2 / ROUGE-L(sum) ${cells("ALL")}`,
);
output.result({ split, notes: scores.notes, rouge: scores.rouge });
