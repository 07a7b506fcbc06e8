import { loadOntologyFile } from "../ontology/ontology-files.ts";

/**
 * The words a note uses for a CMAS value ("hypertensive disease" → "hypertension", "alcohol abuse" →
 * "alcohol use": the data's name for any drinking is not a judgement the note may make), from
 * `ontology/visit-note.json`. A value the file does not name is written as it is.
 */

/** A finding's name as the clinical note writes it: `value` or `value (site)`. Example: "pain (right knee)". */
const SITED_NAME = /^(.+?) \((.+)\)$/;

/** The note's words for a value, or for a finding named `value (site)` its site first ("right knee pain", "abdominal pain"). */
export function noteName(name: string): string {
  const names = loadOntologyFile("visit-note.json").note_names;
  const sited = SITED_NAME.exec(name);
  if (!sited) return names[name] ?? name;
  const value = sited[1]!;
  const site = sited[2]!;
  const plain = names[value] ?? value;
  const where = names[site] ?? site;
  return plain.includes(where) ? plain : `${where} ${plain}`;
}

/** Names joined as a list is written: "a", "a and b", "a, b, and c". */
export function spokenList(names: readonly string[]): string {
  if (names.length <= 2) return names.join(" and ");
  return `${names.slice(0, -1).join(", ")}, and ${names[names.length - 1]}`;
}
