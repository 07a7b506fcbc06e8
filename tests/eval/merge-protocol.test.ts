import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/helpers.ts";

/** `anamnesis merge` combines shards of one protocol only. */

const scratch = mkdtempSync(join(tmpdir(), "anamnesis-merge-protocol-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("anamnesis merge", () => {
  it("refuses runs of different protocols, naming the difference", async () => {
    for (const shard of ["1/2", "2/2"]) {
      const run = await runCli([
        "bench",
        "--suite",
        "meditod-pol",
        "--shard",
        shard,
        "--out",
        join(scratch, `shard-${shard[0]}`),
        "--json",
      ]);
      expect(run.status).toBe(0);
    }
    const same = await runCli([
      "merge",
      join(scratch, "shard-1"),
      join(scratch, "shard-2"),
      "--out",
      join(scratch, "merged"),
      "--json",
    ]);
    expect(same.status).toBe(0);
    expect(JSON.parse(same.stdout).protocol.name).toBe("embedded");

    const runJson = join(scratch, "shard-2", "run.json");
    writeFileSync(runJson, JSON.stringify({ ...JSON.parse(readFileSync(runJson, "utf8")), protocol: "official" }));
    const mixed = await runCli([
      "merge",
      join(scratch, "shard-1"),
      join(scratch, "shard-2"),
      "--out",
      join(scratch, "mixed"),
    ]);
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).toMatch(
      /^anamnesis: .*shard-2 differs from .*shard-1 in protocol: "official" vs "embedded"; they are not shards of one run\n$/,
    );
  });
});
