/**
 * A {@link ModelDriver} whose attempts follow a script, for testing the middleware layers without a
 * server: each attempt takes the next step (a reply, a failure, a wait, a hang until aborted), and
 * replies "ok" once the script runs out. It counts attempts and how many were in flight at once, and
 * keeps every request and signal it was given.
 */
import type { CompletionRequest, CompletionResponse, FailureInfo, ModelDriver } from "../../src/backends/spec.ts";

/** One attempt's fate. */
export type Step =
  | { readonly text: string; readonly delayMs?: number }
  | { readonly fail: unknown; readonly delayMs?: number }
  /** Never answers; rejects with the signal's reason when the attempt is aborted. */
  | { readonly hang: true };

/** An HTTP-style failure as the OpenAI SDK throws it: a status and the response headers. */
export function httpFailure(status: number, headers: Record<string, string> = {}, message = `status ${status}`): Error {
  return Object.assign(new Error(message), { status, headers });
}

/** A scripted driver and what it saw. */
export interface ScriptedDriver extends ModelDriver {
  /** The request of every attempt, in order. */
  readonly requests: CompletionRequest[];
  /** The signal of every attempt, in order. */
  readonly signals: AbortSignal[];
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Adds steps to the end of the script. */
  script(...steps: Step[]): void;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** One attempt following `step`. */
async function play(
  step: Step | undefined,
  request: CompletionRequest,
  signal: AbortSignal,
): Promise<CompletionResponse> {
  if (step && "hang" in step)
    return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
  if (step?.delayMs) await wait(step.delayMs, signal);
  if (step && "fail" in step) throw step.fail;
  const text = step?.text ?? "ok";
  return { text, usage: { inputTokens: request.messages.length, outputTokens: text.length } };
}

/** A driver `scripted:<model>` that plays `steps`, then replies "ok"; `overrides` replace its members. */
export function scriptedDriver(
  steps: readonly Step[] = [],
  overrides: Partial<ModelDriver> & { classifyError?: (error: unknown) => FailureInfo } = {},
): ScriptedDriver {
  const queue = [...steps];
  let inFlight = 0;
  let maxInFlight = 0;
  const driver = {
    provider: "scripted",
    model: "m",
    endpoint: "in-process",
    capabilities: { structuredOutput: true, logprobs: false, embeddings: false },
    parameters: {},
    defaultStructuredOutput: "jsonSchema",
    defaultConcurrency: 4,
    requests: [] as CompletionRequest[],
    signals: [] as AbortSignal[],
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    script(...more: Step[]) {
      queue.push(...more);
    },
    async complete(request: CompletionRequest, signal: AbortSignal): Promise<CompletionResponse> {
      driver.requests.push(request);
      driver.signals.push(signal);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        return await play(queue.shift(), request, signal);
      } finally {
        inFlight--;
      }
    },
    ...overrides,
  } satisfies ScriptedDriver;
  return driver;
}
