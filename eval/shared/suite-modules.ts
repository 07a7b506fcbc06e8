import type { BenchModuleSetup, BenchModules } from "../../src/modules/builders/modules-for-protocol.ts";
import type { ConsultationSetup } from "../../src/simulator/consultation/consultation-loop.ts";

/**
 * What a run's suites predict with: the modules of the MediTOD and clinical-note suites, and the
 * consultation roles (doctor, patient, state tracker, limits) of the consultation suites.
 */
export interface SuiteModules extends BenchModules {
  readonly consult?: ConsultationSetup;
}

/** The modules of a run, with what the run records about them and what the backend cannot give. */
export interface SuiteModuleSetup extends Omit<BenchModuleSetup, "modules" | "unavailable"> {
  readonly modules: SuiteModules;
  readonly unavailable: Readonly<Partial<Record<keyof SuiteModules, string>>>;
}
