import { textOf } from "../analysed-text.ts";
import { conceptKey } from "../history-context-reader.ts";
import { extractOnsetAnswer } from "../time-expressions.ts";
import type { TurnRecord } from "../turn-record.ts";

/**
 * Pass "corrections": "Actually it started Monday, not Sunday." The patient corrects what they said
 * before: the new value replaces the old one (an onset here), and the "not …" part is the value
 * withdrawn, never a denial of the symptom the doctor has just asked about.
 */

/** Words that announce a correction: "actually", "sorry", "I meant", "wait". */
const CORRECTION_CUE = /\b(?:actually|sorry|i mean|i meant|correction|wait|scratch that|come to think of it)\b/;

/**
 * The withdrawn value: ", not Sunday", "not on Sunday", "rather than two weeks ago", up to the end of
 * its clause. Example: "it started monday, not sunday" → ", not sunday".
 */
const WITHDRAWN = /,?\s*\b(?:not|rather than|instead of)\s+(?:on\s+|since\s+|the\s+)?[^,.;!?]*/;

/** The symptom a correction is about: one it names, else the most recently reported one not asked now. */
function correctedSymptom(turn: TurnRecord): string | undefined {
  const named = turn.found.find(({ entry }) => entry.base === "symptom" && entry.status === "positive");
  if (named) return named.entry.attributes.value as string | undefined;
  const prefix = conceptKey("symptom", "");
  const known = [...turn.context.knownPositive]
    .filter((key) => key.startsWith(prefix))
    .map((key) => key.slice(prefix.length));
  return known.find((value) => !turn.askedValues.has(value)) ?? known[0];
}

/** Reads a correction of a symptom's onset; the turn is then no yes/no answer to the question. */
export function readCorrections(turn: TurnRecord): void {
  const { analysed, entries } = turn;
  const text = analysed.text;
  const withdrawn = WITHDRAWN.exec(text);
  if (!CORRECTION_CUE.test(text) || !withdrawn) return;
  const corrected = text.slice(0, withdrawn.index) + text.slice(withdrawn.index + withdrawn[0].length);
  const onset = extractOnsetAnswer(corrected);
  const value = correctedSymptom(turn);
  if (!onset || !value) return;
  // A symptom denied inside the withdrawn part ("not the burning") is not denied by the correction.
  for (const { mention, entry } of turn.found)
    if (entry.status === "negative" && withdrawn[0].includes(textOf(analysed, mention.start, mention.end)))
      entries.remove(entry);
  const entry = entries.add("symptom", "positive", value);
  if (!entry) return;
  entry.status = "positive";
  entry.attributes.onset = onset;
  turn.itemsAnswered = true;
  turn.attributeAnswered = true;
}
