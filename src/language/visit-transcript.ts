import type { DialogueTurn } from "./module-interfaces.ts";

/**
 * A recorded visit as ACI-Bench writes it: one turn a line, each opened by its speaker in brackets
 * (`[doctor] how are you ?`, `[patient] i'm good .`, `[patient_guest] she's two .` for someone who
 * came with the patient). A line without a speaker tag continues the turn before it (the transcripts
 * break long turns), and so does a tag that names no speaker (`[ inaudible 00:09:25 ]`).
 */

/** One turn of a recorded visit: who spoke and what they said; `guest` when a companion spoke for the patient. */
export interface VisitTurn extends DialogueTurn {
  readonly guest: boolean;
}

/**
 * A speaker tag at the start of a line: its name and the rest of the line.
 * Example: `[patient_guest] she's two .` → `patient_guest`, `she's two .`.
 */
const SPEAKER_TAG = /^\s*\[([^\]]*)\]\s*(.*)$/;

const SPEAKERS: Readonly<Record<string, { speaker: DialogueTurn["speaker"]; guest: boolean }>> = {
  doctor: { speaker: "doctor", guest: false },
  patient: { speaker: "patient", guest: false },
  patient_guest: { speaker: "patient", guest: true },
};

/** The turns of a visit transcript, in order; a text with no speaker tag at all has none. */
export function parseVisitTranscript(text: string): VisitTurn[] {
  const turns: Array<{ speaker: DialogueTurn["speaker"]; guest: boolean; text: string }> = [];
  for (const line of text.split(/\r?\n/)) {
    const tagged = SPEAKER_TAG.exec(line);
    const role = tagged ? SPEAKERS[tagged[1]!.trim().toLowerCase()] : undefined;
    const words = (role ? tagged![2]! : tagged ? tagged[2]! : line).trim();
    if (role) turns.push({ ...role, text: words });
    else if (words && turns.length > 0) {
      const last = turns[turns.length - 1]!;
      last.text = last.text ? `${last.text} ${words}` : words;
    }
  }
  return turns;
}
