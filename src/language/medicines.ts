/**
 * The record of each medicine the patient names, kept beside MediTOD's `medication` slot: that slot's
 * values are drug classes ("antihypertensive agents") and it has no dose, so "ramipril 5mg in the
 * morning" would reach the note as a class without its dose. The record keeps the medicine by name,
 * with the dose and frequency as the patient said them; the CMAS slots are left as they are.
 */

/** One medicine the patient takes, as they named it. */
export interface NamedMedicine {
  /** The name the note writes: a known medicine's (`ontology/medicines.json`), or an unknown one's words as said. */
  readonly name: string;
  /** The dose as said ("500mg", "two puffs", "half a tablet"); null when not said. */
  readonly dose: string | null;
  /** How often, as said ("twice a day", "when I need it", "at night"); null when not said. */
  readonly frequency: string | null;
}

/**
 * What one patient turn says of medicines: each one named, and, with `name` null, a dose or frequency
 * said of the medicine last named ("How much do you take?" — "500mg twice a day").
 */
export interface MedicineMention {
  readonly name: string | null;
  readonly dose: string | null;
  readonly frequency: string | null;
}

/** The record after a turn's mentions: a medicine named again keeps what it had unless said anew; a new one is added. */
export function updateMedicines(
  known: readonly NamedMedicine[],
  mentions: readonly MedicineMention[] | undefined,
): NamedMedicine[] {
  const record = [...known];
  let last = record.length - 1;
  for (const mention of mentions ?? []) {
    const at = mention.name === null ? last : record.findIndex((medicine) => medicine.name === mention.name);
    if (at < 0 && mention.name === null) continue;
    if (at < 0) {
      record.push({ name: mention.name!, dose: mention.dose, frequency: mention.frequency });
      last = record.length - 1;
      continue;
    }
    const before = record[at]!;
    record[at] = {
      name: before.name,
      dose: mention.dose ?? before.dose,
      frequency: mention.frequency ?? before.frequency,
    };
    last = at;
  }
  return record;
}
