import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadAgentClinic } from "../../src/data/agentclinic.ts";
import { loadMediq } from "../../src/data/mediq.ts";
import { bundledPath } from "../../src/foundation/package-paths.ts";
import { runCli } from "../cli/helpers.ts";
import { tempDirForFile } from "../temp-dirs.ts";

/**
 * MediQ's and AgentClinic's cases: the bundled copies load whole; a directory holding the upstream
 * file is read whole (not the bundled part); a bad line is one error naming the file and the line, exit 2.
 */

const scratch = tempDirForFile("anamnesis-consult-data-");
const craft = bundledPath("data", "mediq", "all_craft_md.jsonl");
const devPart = bundledPath("data", "mediq", "all_dev_good.part1.jsonl");
const clinicPart = bundledPath("data", "agentclinic", "agentclinic_medqa_extended.part1.jsonl");

describe("the consultation data", () => {
  it("loads the bundled MediQ cases (140 iCraft-MD, 1,000 development) and AgentClinic's 150", () => {
    const mediq = loadMediq();
    expect(mediq.splits.icraft).toHaveLength(140);
    expect(mediq.splits.dev).toHaveLength(1000);
    expect(mediq.splits.icraft![0]).toMatchObject({ id: "0", answer_idx: "A", options: { A: "Lymphogranuloma venereum" } });
    const clinic = loadAgentClinic();
    expect(clinic.cases).toHaveLength(150);
    expect(clinic.cases[0]).toMatchObject({ id: "0", diagnosis: "Myasthenia gravis" });
    expect(clinic.cases[149]!.id).toBe("149");
  });

  it("reads a directory's upstream file whole, in preference to parts", () => {
    const dir = join(scratch, "upstream-mediq");
    mkdirSync(dir);
    // An "upstream" development file of 1,000 + 5 cases (the bundled lines and five more with new ids).
    const extra = readFileSync(craft, "utf8")
      .trim()
      .split("\n")
      .slice(0, 5)
      .map((line) => JSON.stringify({ ...JSON.parse(line), id: 5000 + JSON.parse(line).id }));
    writeFileSync(join(dir, "all_dev_good.jsonl"), `${readFileSync(devPart, "utf8")}${extra.join("\n")}\n`);
    copyFileSync(devPart, join(dir, "all_dev_good.part1.jsonl"));
    const mediq = loadMediq(dir);
    expect(mediq.splits.dev).toHaveLength(1005);
    expect(mediq.splits.icraft).toBeUndefined();
    expect(loadMediq(join(dir, "all_dev_good.jsonl")).splits.dev).toHaveLength(1005);
    const clinicDir = join(scratch, "upstream-agentclinic");
    mkdirSync(clinicDir);
    const lines = readFileSync(clinicPart, "utf8").trim().split("\n");
    writeFileSync(join(clinicDir, "agentclinic_medqa_extended.jsonl"), `${[...lines, ...lines.slice(0, 3)].join("\n")}\n`);
    expect(loadAgentClinic(clinicDir).cases).toHaveLength(153);
  });

  it("names the file and the line of a bad line, once, and exits 2", async () => {
    const badMediq = join(scratch, "all_craft_md.jsonl");
    const good = readFileSync(craft, "utf8").trim().split("\n");
    const broken = JSON.stringify({ ...JSON.parse(good[1]!), answer_idx: "E" });
    writeFileSync(badMediq, `${good[0]}\n${broken}\n${good[2]}\n`);
    const mediq = await runCli(["bench", "--suite", "consult-mediq", "--data", badMediq, "--out", join(scratch, "never")]);
    expect(mediq.status).toBe(2);
    expect(mediq.stdout).toBe("");
    expect(mediq.stderr).toBe(`anamnesis: ${badMediq}:2: answer_idx 'E' is not one of the options (A, B, C, D)\n`);

    const badClinic = join(scratch, "agentclinic_medqa_extended.jsonl");
    writeFileSync(badClinic, `${readFileSync(clinicPart, "utf8").split("\n")[0]}\n{"OSCE_Examination": {"Objective_for_Doctor": "x"}}\n`);
    const clinic = await runCli(["bench", "--suite", "consult-agentclinic", "--data", badClinic, "--out", join(scratch, "never")]);
    expect(clinic.status).toBe(2);
    expect(clinic.stderr).toMatch(new RegExp(`^anamnesis: ${badClinic.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:2: not an AgentClinic case: OSCE_Examination\\.Patient_Actor: .*\\n$`));

    const notJson = join(scratch, "all_dev_good.jsonl");
    writeFileSync(notJson, `${good[0]}\n{"id": 3, "question": \n`);
    const parsed = await runCli(["score", "consult-mediq", "--data", notJson, "--predictions", notJson]);
    expect(parsed.status).toBe(2);
    expect(parsed.stderr).toMatch(/all_dev_good\.jsonl:2: not valid JSON/);
  });
});
