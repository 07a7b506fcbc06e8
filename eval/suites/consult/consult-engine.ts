import type { MeditodDataset } from "../../../src/data/meditod.ts";
import { createModules, EMBEDDED_BACKEND_ID, type ModuleSetup } from "../../../src/modules/builders/create-modules.ts";

/**
 * The embedded engine of the consultation suites: the embedded doctor, and the NLU that tracks the
 * state for every other doctor, on the main thread and on the tracking worker
 * (`consult-tracking-worker.ts`) alike — one builder, so both read the turns the same way.
 */
export function consultEngine(meditod: MeditodDataset): Promise<ModuleSetup> {
  return createModules(EMBEDDED_BACKEND_ID, meditod, { wording: "clean", templates: { policy: "policy.v2" } });
}
