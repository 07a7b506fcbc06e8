import { Worker } from "node:worker_threads";
import type { Split } from "../../data/meditod.ts";
import type {
  NlgInput,
  NlgModule,
  NlgResult,
  PolicyInput,
  PolicyModule,
  PolicyResult,
} from "../../language/module-interfaces.ts";
import type { NlgWording } from "./nlg.ts";

/**
 * The embedded policy and NLG on a worker thread, for a benchmark run: the worker
 * (`policy-nlg-worker.ts`) reads the MediTOD data and builds both while this thread builds the NLU,
 * the heavier part, and answers the policy and NLG suites while this thread predicts the NLU suite.
 * The modules are the same deterministic ones, fed the same inputs in the same order (the worker
 * answers its requests one at a time, as they come), so their answers are those this thread would
 * give. If the worker cannot start or dies, the calls not yet answered are made again on this thread,
 * with modules built here, and the run goes on.
 */

/** What the worker builds its modules from. */
export interface PolicyNlgWorkerData {
  /** The MediTOD directory the dataset was read from. */
  readonly dir: string;
  readonly trainSplit: Split | readonly string[];
  readonly wording?: NlgWording;
}

/** A call this thread sends: which module, and its input (call options stay here: a signal cannot cross). */
export type PolicyNlgRequest =
  | { readonly id: number; readonly kind: "policy"; readonly input: PolicyInput }
  | { readonly id: number; readonly kind: "nlg"; readonly input: NlgInput };

/** The worker's answer to a call: the module's result, or the message of what it threw. */
export type PolicyNlgReply =
  { readonly id: number; readonly result: PolicyResult | NlgResult } | { readonly id: number; readonly error: string };

/** The policy and NLG of the worker, and how to stop it. */
export interface OffThreadPolicyNlg {
  readonly policy: PolicyModule;
  readonly nlg: NlgModule;
  close(): Promise<void>;
}

/** A call sent and not yet answered. */
interface Pending {
  readonly request: PolicyNlgRequest;
  readonly resolve: (result: PolicyResult | NlgResult) => void;
  readonly reject: (error: Error) => void;
}

/** The modules built on this thread when the worker is gone. */
interface LocalModules {
  readonly policy: PolicyModule;
  readonly nlg: NlgModule;
}

/** Makes a call with modules on this thread. */
function callHere(modules: LocalModules, request: PolicyNlgRequest): Promise<PolicyResult | NlgResult> {
  return request.kind === "policy" ? modules.policy.nextActions(request.input) : modules.nlg.realise(request.input);
}

/**
 * Starts the worker at `url` (the compiled `policy-nlg-worker.js`) with `data`; `local` builds the
 * same modules on this thread if the worker fails.
 */
export function policyAndNlgOnWorker(
  url: URL,
  data: PolicyNlgWorkerData,
  local: () => LocalModules,
): OffThreadPolicyNlg {
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let here: LocalModules | undefined;
  let worker: Worker | undefined;
  /** The modules on this thread, built on first need (a failing build fails each call that needs it). */
  const callLocally = (request: PolicyNlgRequest) =>
    Promise.resolve().then(() => callHere((here ??= local()), request));
  const goLocal = () => {
    worker = undefined;
    for (const { request, resolve, reject } of pending.values()) callLocally(request).then(resolve, reject);
    pending.clear();
  };
  try {
    worker = new Worker(url, { workerData: data });
    // The worker keeps the process alive only while calls wait for it.
    worker.unref();
    worker.on("message", (reply: PolicyNlgReply) => {
      const call = pending.get(reply.id);
      if (!call) return;
      pending.delete(reply.id);
      if (pending.size === 0) worker?.unref();
      if ("result" in reply) call.resolve(reply.result);
      else call.reject(new Error(reply.error));
    });
    worker.on("error", () => goLocal());
    worker.on("exit", () => {
      if (worker) goLocal();
    });
  } catch {
    goLocal();
  }
  const call = (request: PolicyNlgRequest): Promise<PolicyResult | NlgResult> => {
    if (!worker) return callLocally(request);
    const sent = worker;
    return new Promise((resolve, reject) => {
      pending.set(request.id, { request, resolve, reject });
      sent.ref();
      sent.postMessage(request);
    });
  };
  return {
    policy: {
      id: "embedded",
      nextActions: (input) => call({ id: nextId++, kind: "policy", input }) as Promise<PolicyResult>,
    },
    nlg: { id: "embedded", realise: (input) => call({ id: nextId++, kind: "nlg", input }) as Promise<NlgResult> },
    async close() {
      const stopping = worker;
      worker = undefined;
      await stopping?.terminate();
    },
  };
}
