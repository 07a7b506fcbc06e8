// @ts-check
/**
 * Runs the backend contract of `anamnesis/testing` against the mock plug-in, as a plug-in author
 * would in CI: `node check.mjs` prints one line per check and exits 1 if any fails.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createBackend, loadProviderModule } from "anamnesis";
import { checkBackend, formatContractReport } from "anamnesis/testing";
import { scriptReplies } from "./mock-provider.mjs";

await loadProviderModule(fileURLToPath(new URL("./mock-provider.mjs", import.meta.url)));

const report = await checkBackend(async () => {
  const cacheDir = mkdtempSync(join(tmpdir(), "mock-provider-contract-"));
  const secret = "sk-mock-secret-5678";
  const backend = await createBackend("mock:demo", {
    apiKey: secret,
    cacheDir,
    env: {},
    config: {},
    retryBaseDelayMs: 1,
  });
  return { backend, secret, scriptReplies, dispose: async () => rmSync(cacheDir, { recursive: true, force: true }) };
});
process.stdout.write(`${formatContractReport(report)}\n`);
process.exitCode = report.failed.length > 0 ? 1 : 0;
