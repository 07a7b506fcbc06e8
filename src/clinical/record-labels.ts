import { loadOntologyFile } from "../ontology/ontology-files.ts";

/**
 * The words the record (the clinical note, the chat page's profile) uses for a CMAS value: MediTOD
 * files any drinking as "alcohol abuse" and any tiredness as "bedridden", which the record may not
 * say of a patient who did not (`ontology/record-labels.json`). A value the patient's own words name
 * ("I'm an alcoholic") keeps the data's label; a value the file does not list is shown as it is.
 */

/** How the record names values, given what the patient said (null: not known — the lay label is shown). */
export function recordLabeller(patientWords: readonly string[] | null): (value: string) => string {
  const { labels } = loadOntologyFile("record-labels.json");
  const said = patientWords?.join("\n") ?? "";
  const kept = new Map<string, string>();
  return (value) => {
    const entry = labels[value];
    if (!entry) return value;
    if (!kept.has(value))
      kept.set(value, entry.said !== undefined && new RegExp(entry.said, "i").test(said) ? value : entry.label);
    return kept.get(value)!;
  };
}

/** The record's labels as the chat page reads them: value → its label and the patient's words that keep the value. */
export function recordLabels(): Readonly<Record<string, { readonly label: string; readonly said?: string }>> {
  return loadOntologyFile("record-labels.json").labels;
}
