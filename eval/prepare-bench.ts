import { AnamnesisError } from "../src/foundation/errors.ts";
import { createAttributeJudge } from "../src/backends/index.ts";
import type { ModelMetricRequest } from "../src/metrics/model-metrics/model-metrics.ts";
import { EMBEDDED_BACKEND_ID } from "../src/modules/builders/create-modules.ts";
import { buildModulesForProtocol, type ProtocolModulesRequest } from "../src/modules/builders/modules-for-protocol.ts";
import type { BenchDataset } from "./shared/bench-dataset.ts";
import type { BenchResults } from "./shared/bench-results.ts";
import type { ProgressEvent } from "./predict-suite.ts";
import { SUITE_REGISTRY, type SuiteId } from "./registry.ts";
import { runBench, type Shard } from "./runner.ts";
import type { Suite } from "./shared/suite.ts";
import type { SuiteModuleSetup } from "./shared/suite-modules.ts";
import type { SuiteRegistry } from "./suite-registry.ts";

/**
 * A bench run as `anamnesis bench` asks for it: the suites, the data and the run directory, and how to
 * build the modules (a backend and a protocol) and the judge. {@link prepareBench} builds them, so the
 * command only parses its flags, then runs and closes.
 */
export interface BenchPlan {
  readonly suites: readonly SuiteId[];
  readonly dataset: BenchDataset;
  readonly split: string;
  readonly outDir: string;
  readonly limit?: number;
  readonly shard?: Shard;
  readonly concurrency?: number;
  /** How the modules are built: the backend, the protocol and its settings. */
  readonly modules: ProtocolModulesRequest;
  /** The matching of non-medical attributes: `exact`, or the backend id of an LLM judge (on the modules' backend options). */
  readonly judge: string;
  /** Settings of the suites' family of its own (the consultation suites' patient and limits); recorded in run.json. */
  readonly suiteSettings?: Readonly<Record<string, unknown>>;
  /** Where the suites' model-based metrics come from (`--bertscore`, `--bleurt`, …); none when absent. */
  readonly models?: ModelMetricRequest;
}

/** A run whose modules and judge are built: run it once, then close it. */
export interface PreparedBench {
  run(hooks: {
    readonly signal: AbortSignal;
    readonly onProgress: (event: ProgressEvent) => void;
  }): Promise<BenchResults<SuiteId>>;
  /** Closes the backends the modules hold. */
  close(): Promise<void>;
}

/** Refuses a run whose suites need a module the backend cannot give (log-likelihoods from a chat API), saying why. */
function checkModules(setup: SuiteModuleSetup, suites: readonly Suite[]): void {
  for (const suite of suites) {
    if (setup.modules[suite.module]) continue;
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      setup.unavailable[suite.module] ??
        `backend ${setup.backend.id} gives no ${suite.module} module, which ${suite.id} needs`,
    );
  }
}

/** The prompt versions a run records: the modules' templates, and the instructions a suite gives a prompted module. */
function promptVersions(setup: SuiteModuleSetup, suites: readonly Suite[], backendId: string): Record<string, string> {
  const prompted = backendId !== EMBEDDED_BACKEND_ID;
  const given = suites.flatMap((suite) =>
    suite.prompt && prompted ? [[suite.prompt.module, suite.prompt.version] as const] : [],
  );
  return { ...setup.promptVersions, ...Object.fromEntries(given) };
}

/**
 * Builds the modules (see `buildModulesForProtocol`) and the judge of a plan; a failure closes what was
 * built. The plan's suites are looked up in `registry`.
 */
export async function prepareBench(plan: BenchPlan, registry: SuiteRegistry = SUITE_REGISTRY): Promise<PreparedBench> {
  const suites = plan.suites.map((id) => registry.get(id)!);
  const family = suites[0]!.family;
  const setup: SuiteModuleSetup = family.buildModules
    ? await family.buildModules({
        backendId: plan.modules.backendId,
        backendOptions: plan.modules.backendOptions,
        dataset: plan.dataset,
        settings: plan.suiteSettings ?? {},
      })
    : await buildModulesForProtocol(
        plan.dataset as Parameters<typeof buildModulesForProtocol>[0],
        plan.split,
        plan.modules,
      );
  try {
    checkModules(setup, suites);
    const judge = await (family.createJudge ?? createAttributeJudge)(plan.judge, plan.modules.backendOptions);
    const recordsProtocol = suites[0]?.family.protocols !== undefined;
    return {
      run: ({ signal, onProgress }) =>
        runBench({
          suites: plan.suites,
          registry,
          modules: setup.modules,
          backend: setup.backend,
          ...(recordsProtocol ? { protocolName: plan.modules.protocol } : {}),
          dataset: plan.dataset,
          split: plan.split,
          outDir: plan.outDir,
          ...(plan.limit ? { limit: plan.limit } : {}),
          ...(plan.shard ? { shard: plan.shard } : {}),
          ...(plan.concurrency ? { concurrency: plan.concurrency } : {}),
          ...(plan.suiteSettings ? { suiteSettings: plan.suiteSettings } : {}),
          judge,
          ...(plan.models ? { models: plan.models } : {}),
          promptVersions: promptVersions(setup, suites, plan.modules.backendId),
          protocol: setup.protocol,
          signal,
          onProgress,
        }),
      close: () => setup.close(),
    };
  } catch (error) {
    await setup.close();
    throw error;
  }
}
