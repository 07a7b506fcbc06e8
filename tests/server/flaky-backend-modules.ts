import type { DialogueModules } from "../../src/language/module-interfaces.ts";
import { answerFailuresWith } from "../../src/modules/builders/backend-failure-fallback.ts";

/**
 * How the configured backend of {@link flakyBackendModules} behaves now: it answers (`up`), it fails
 * and the offline engine answers for it (`down`), or it fails and so does the offline engine (`all-down`,
 * a turn that fails and stays retryable).
 */
export type BackendHealth = "up" | "down" | "all-down";

/** The backend's failure, word for word in the fallback notes. */
export const BACKEND_DOWN = "connection refused";

/**
 * Chat modules as `anamnesis chat --fallback embedded` makes them, deterministic: the configured
 * backend (id `flaky`, answering with `engine` while up) with the offline engine (`engine` too)
 * answering its failures. `cooldownMs` 0, so every stage asks the backend and the notes name no wait.
 */
export function flakyBackendModules(engine: DialogueModules): {
  modules: DialogueModules;
  setHealth: (health: BackendHealth) => void;
} {
  let health: BackendHealth = "up";
  const unless = async <T>(down: boolean, answer: () => Promise<T>): Promise<T> => {
    if (down) throw new Error(BACKEND_DOWN);
    return answer();
  };
  const backend: DialogueModules = {
    nlu: {
      id: "flaky",
      understand: (input, call) => unless(health !== "up", () => engine.nlu.understand(input, call)),
    },
    policy: {
      id: "flaky",
      nextActions: (input, call) => unless(health !== "up", () => engine.policy.nextActions(input, call)),
    },
    nlg: { id: "flaky", realise: (input, call) => unless(health !== "up", () => engine.nlg.realise(input, call)) },
  };
  const offline: DialogueModules = {
    nlu: {
      id: engine.nlu.id,
      understand: (input, call) => unless(health === "all-down", () => engine.nlu.understand(input, call)),
    },
    policy: {
      id: engine.policy.id,
      nextActions: (input, call) => unless(health === "all-down", () => engine.policy.nextActions(input, call)),
    },
    nlg: {
      id: engine.nlg.id,
      realise: (input, call) => unless(health === "all-down", () => engine.nlg.realise(input, call)),
    },
  };
  return {
    modules: answerFailuresWith(backend, offline, { backendId: "flaky", cooldownMs: 0 }),
    setHealth: (next) => {
      health = next;
    },
  };
}
