/**
 * Checks `--protocol official` against the official code itself:
 * `MEDITOD_REPO=../MediTOD npx tsx bench/official-prompt-parity.ts [--data DIR] [--python python3] [--json]`
 * (needs a Python with numpy: `--python`, else PYTHON, else python3).
 *
 * Runs the checkout's `src/prompting/prompt_gen.py` for the three tasks on the test split, with the
 * loading of bge-large replaced by stubs (written here, below) that embed a text as a toy vector of its
 * character codes; builds our requests with the same toy vectors; and compares the message lists of
 * every query. Prints how many are identical and the first difference of any that are not.
 */
import { scriptArgs } from "./script-args.ts";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatBackend } from "../src/backends/spec.ts";
import { benchOutput } from "./json-output.ts";
import { BUNDLED_MEDITOD_DIR, loadMeditod } from "../src/data/meditod.ts";
import { readMeditodCheckout, type OfficialTask } from "../src/modules/official/meditod-checkout.ts";
import { OfficialPrompter } from "../src/modules/official/official-prompter.ts";

const { values } = scriptArgs({
  options: {
    data: { type: "string", default: BUNDLED_MEDITOD_DIR },
    "meditod-repo": { type: "string" },
    python: { type: "string", default: process.env.PYTHON ?? "python3" },
    json: { type: "boolean", default: false },
  },
});
const out = benchOutput();
const repo = values["meditod-repo"] ?? process.env.MEDITOD_REPO;
if (!repo) throw new Error("give --meditod-repo DIR or set MEDITOD_REPO");

/** Python stubs for torch, transformers and tqdm: the model returns the toy vector as its CLS output. */
const STUBS = `import sys, types, contextlib
import numpy as np
def toy(text):
    v = np.zeros(1024, dtype=np.float32)
    for i, ch in enumerate(text):
        v[i % 8] += ord(ch) / 1000.0
    v[8] = 1.0
    return v
class Arr:
    def __init__(self, a): self.a = a
    def to(self, *_): return self
    def numpy(self): return self.a
    def __getitem__(self, k): return Arr(self.a[k])
torch = types.ModuleType("torch"); torch.cuda = types.SimpleNamespace(device_count=lambda: 0); torch.no_grad = contextlib.nullcontext
nn = types.ModuleType("torch.nn"); F = types.ModuleType("torch.nn.functional")
F.normalize = lambda x, p=2, dim=1: Arr(x.a / np.maximum(np.linalg.norm(x.a, axis=dim, keepdims=True), 1e-12))
torch.nn = nn; nn.functional = F
class Model:
    def to(self, *_): return self
    def eval(self): return self
    def __call__(self, texts): return (Arr(np.stack([toy(t) for t in texts.a])[:, None, :]),)
tr = types.ModuleType("transformers")
tr.AutoTokenizer = types.SimpleNamespace(from_pretrained=lambda *_: (lambda texts, **kw: {"texts": Arr(np.array(texts, dtype=object))}))
tr.AutoModel = types.SimpleNamespace(from_pretrained=lambda *_: Model())
tq = types.ModuleType("tqdm"); tq.tqdm = lambda x, **k: x
sys.modules.update({"torch": torch, "torch.nn": nn, "torch.nn.functional": F, "transformers": tr, "tqdm": tq})
sys.path.insert(0, sys.argv[1])
import prompt_gen
for task in ["nlu", "pol", "nlg"]:
    prompt_gen.run({"raw_file": sys.argv[2] + "/dialogs.json", "train_file": sys.argv[2] + "/train_ids.json", "test_file": sys.argv[2] + "/test_ids.json",
                    "tar_file": sys.argv[3] + "/" + task + ".json", "history_size": 4, "nexp": 5, "task": task})
`;

/** The same toy vector, with numpy's float32 accumulation. */
function toy(text: string): number[] {
  const vector = new Array<number>(1024).fill(0);
  let index = 0;
  for (const char of text) {
    vector[index % 8] = Math.fround(vector[index % 8]! + Math.fround(char.codePointAt(0)! / 1000));
    index += 1;
  }
  vector[8] = 1;
  return vector;
}

const toyBackend = {
  id: "toy",
  capabilities: { embeddings: true },
  embed: async (texts: readonly string[]) => ({
    embeddings: texts.map(toy),
    usage: { inputTokens: 0, outputTokens: 0 },
    latencyMs: 0,
    cached: false,
  }),
} as unknown as ChatBackend;

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-parity-"));
try {
  writeFileSync(join(scratch, "stubs.py"), STUBS);
  const python = spawnSync(
    values.python,
    [join(scratch, "stubs.py"), join(repo, "src", "prompting"), values.data, scratch],
    { encoding: "utf8" },
  );
  if (python.status !== 0) throw new Error(`prompt_gen.py failed: ${python.stderr.trim().split("\n").at(-1)}`);
  const checkout = readMeditodCheckout(repo);
  const dataset = loadMeditod(values.data);
  const tasks: Array<{ task: OfficialTask; identical: number; queries: number }> = [];
  for (const [file, task] of [
    ["nlu", "nlu"],
    ["pol", "policy"],
    ["nlg", "nlg"],
  ] as Array<[string, OfficialTask]>) {
    const official = JSON.parse(readFileSync(join(scratch, `${file}.json`), "utf8")) as Array<{
      did: string;
      uid: number;
      prompt_elements: unknown[];
    }>;
    const prompter = new OfficialPrompter(task, checkout.taskDescriptions[task], dataset, toyBackend);
    let identical = 0;
    for (const query of official) {
      const ours = (await prompter.build(query.did, query.uid)).messages;
      if (JSON.stringify(ours) === JSON.stringify(query.prompt_elements)) identical += 1;
      else
        out.line(
          `${task} ${query.did}:${query.uid} differs at message ${ours.findIndex((message, index) => JSON.stringify(message) !== JSON.stringify(query.prompt_elements[index]))}`,
        );
    }
    tasks.push({ task, identical, queries: official.length });
    out.line(
      `${task}: ${identical} of ${official.length} requests identical to prompt_gen.py's (MediTOD ${checkout.commit ?? "checkout"})`,
    );
  }
  out.result({ meditodCommit: checkout.commit ?? null, tasks });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
