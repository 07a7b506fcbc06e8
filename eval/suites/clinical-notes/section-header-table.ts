import type { NoteDataset } from "../../../src/data/note-dataset.ts";
import { lmEvalNanmean } from "../../../src/metrics/lm-eval.ts";
import { NOTE_LINES, readLinesOf } from "../../shared/predictions-file.ts";
import { f4, type ReportTable } from "../../shared/report-blocks.ts";
import { predictionsPath } from "../../shared/run-directory.ts";
import { noteDocumentResults } from "./note-scoring.ts";

/** lm-eval's metrics per MTS-Dialog section header (nanmean over the header's documents), most documents first. */
export function sectionHeaderTable(
  dir: string,
  suite: string,
  dataset: NoteDataset,
  title: string,
): ReportTable | undefined {
  const lines = readLinesOf(predictionsPath(dir, suite), NOTE_LINES);
  const results = noteDocumentResults(dataset, lines);
  const groups = new Map<string, Array<(typeof results)[number]>>();
  lines.forEach((line, index) => {
    const header = dataset.documents.get(line.id)?.header;
    if (header === undefined) return;
    groups.set(header, [...(groups.get(header) ?? []), results[index]!]);
  });
  if (groups.size === 0) return undefined;
  return {
    title,
    header: ["section header", "documents", "BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L"],
    rows: [...groups.entries()]
      .sort(([a, left], [b, right]) => right.length - left.length || a.localeCompare(b))
      .map(([header, group]) => [
        header,
        String(group.length),
        ...(["bleu", "rouge1", "rouge2", "rougeL"] as const).map((key) =>
          f4(lmEvalNanmean(group.map((result) => result[key]))),
        ),
      ]),
  };
}
