/**
 * Runs the public backend contract (`anamnesis/testing`, src/testing/backend-contract.ts) as vitest
 * tests: one `it` per check, skipped checks reported as skipped. `makeSubject` builds a fresh backend
 * with an empty response cache each time. `scriptableModel` lets a fake server's replies be scripted.
 */
import { afterAll, beforeAll, describe, it } from "vitest";
import type { BackendOptions } from "../../src/backends/config.ts";
import { createBackend } from "../../src/backends/registry.ts";
import {
  BACKEND_CONTRACT,
  ContractSkip,
  type ContractOptions,
  type ContractSubject,
  type ScriptedReply,
} from "../../src/testing/index.ts";
import { obedientModel, type Reply, type Responder } from "../../test-support/fake-llm-server.ts";
import { hermeticOptions, startFakeServer, tempDir, type FakeProtocol } from "./helpers.ts";

export { contractSchema, type ContractSubject } from "../../src/testing/index.ts";

export function runBackendContract(
  name: string,
  makeSubject: () => Promise<ContractSubject>,
  options: ContractOptions = {},
): void {
  describe(`backend contract: ${name}`, () => {
    let subject: ContractSubject;
    beforeAll(async () => {
      subject = await makeSubject();
    });
    afterAll(async () => {
      await subject?.dispose();
    });
    for (const check of BACKEND_CONTRACT) {
      it(check.name, async (context) => {
        try {
          await check.run(subject, options);
        } catch (error) {
          if (error instanceof ContractSkip) context.skip(error.message);
          throw error;
        }
      });
    }
  });
}

/**
 * A fake server's responder whose next replies can be scripted (the contract's `scriptReplies`);
 * unscripted calls get `base` (the obedient model). Errors use the protocol's error body.
 */
export function scriptableModel(
  protocol: "openai" | "ollama",
  base: Responder = obedientModel,
): {
  respond: Responder;
  scriptReplies: (replies: readonly ScriptedReply[]) => void;
} {
  const queue: ScriptedReply[] = [];
  const toReply = (scripted: ScriptedReply, structured: string | undefined): Reply => {
    if ("text" in scripted)
      return structured === "tools" ? { toolArguments: scripted.text } : { content: scripted.text };
    const body =
      protocol === "openai"
        ? { error: { message: scripted.message, type: "invalid_request_error" } }
        : { error: scripted.message };
    return { status: scripted.status, body };
  };
  return {
    respond: (call) => {
      const next = queue.shift();
      return next ? toReply(next, call.structured) : base(call);
    },
    scriptReplies: (replies) => void queue.push(...replies),
  };
}

/**
 * A contract subject: backend `id` against a fresh fake server speaking `protocol` whose replies the
 * contract can script, with an empty response cache and `options` (its `apiKey` is the secret the
 * contract looks for). `dispose` closes the server and removes the cache; so does a failed creation.
 */
export async function fakeServerSubject(
  protocol: FakeProtocol,
  id: string,
  options: BackendOptions = {},
): Promise<ContractSubject> {
  const model = scriptableModel(protocol);
  const server = await startFakeServer(protocol, { respond: model.respond });
  const cache = tempDir();
  const dispose = async () => {
    await server.close();
    cache.remove();
  };
  try {
    const backend = await createBackend(id, { ...hermeticOptions(server, cache.path), ...options });
    return {
      backend,
      secret: options.apiKey,
      scriptReplies: model.scriptReplies,
      requestCount: () => server.requests.length,
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}
