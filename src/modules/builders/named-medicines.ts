import type { DialogueModules, NluModule } from "../../language/module-interfaces.ts";

/**
 * An LLM's NLU answers in CMAS, whose medication slot holds drug classes ("antihypertensive agents"),
 * so a chat's note would list classes only. For a person in a chat, the medicines each turn names, by
 * name with their dose and frequency, are read by the embedded NLU (`reader`) from the same turn and
 * added to the primary's answer when it names none itself. The primary's frames are left as they are.
 */
export function withNamedMedicines(modules: DialogueModules, reader: NluModule): DialogueModules {
  const primary = modules.nlu;
  const nlu: NluModule = {
    id: primary.id,
    async understand(input, options) {
      const [result, offline] = await Promise.all([primary.understand(input, options), reader.understand(input)]);
      if (result.medicines?.length || !offline.medicines?.length) return result;
      return { ...result, medicines: offline.medicines };
    },
  };
  return { ...modules, nlu };
}
