import { parentPort, workerData, type MessagePort } from "node:worker_threads";
import { loadMeditod } from "../../data/meditod.ts";
import { buildEmbeddedPolicyAndNlg } from "./policy-and-nlg.ts";
import type { PolicyNlgReply, PolicyNlgRequest, PolicyNlgWorkerData } from "./policy-nlg-off-thread.ts";
import { loadTrainingData } from "./training-data.ts";

/**
 * The worker of `policy-nlg-off-thread.ts`: builds the embedded policy and NLG as `buildEmbeddedEngine`
 * does, then answers the calls in the order they come. A build that throws ends the worker, and the
 * main thread builds the modules itself (and meets the same error there).
 */
function serve(port: MessagePort, data: PolicyNlgWorkerData): void {
  const { policy, nlg } = buildEmbeddedPolicyAndNlg(
    loadTrainingData(loadMeditod(data.dir), data.trainSplit),
    data.wording,
  );
  let queue = Promise.resolve();
  port.on("message", (request: PolicyNlgRequest) => {
    queue = queue.then(async () => {
      let reply: PolicyNlgReply;
      try {
        const result =
          request.kind === "policy" ? await policy.nextActions(request.input) : await nlg.realise(request.input);
        reply = { id: request.id, result };
      } catch (error) {
        reply = { id: request.id, error: (error as Error).message ?? String(error) };
      }
      port.postMessage(reply);
    });
  });
}

if (parentPort) serve(parentPort, workerData as PolicyNlgWorkerData);
