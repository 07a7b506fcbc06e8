import { describe, expect, it } from "vitest";
import { loadMeditod } from "../../../src/data/meditod.ts";
import { loadMtsDialog } from "../../../src/data/mts-dialog.ts";
import {
  buildModulesForProtocol,
  type ProtocolModulesRequest,
} from "../../../src/modules/builders/modules-for-protocol.ts";

/** The one place a benchmark run's modules are chosen: note modules for note data, else by protocol. */

const request = (backendId: string, protocol: ProtocolModulesRequest["protocol"]): ProtocolModulesRequest => ({
  backendId,
  protocol,
  // A port nothing listens on: building the modules must not call the backend.
  backendOptions: { baseUrl: "http://127.0.0.1:9/v1" },
  exemplars: 5,
  official: { checkoutDir: undefined, embeddings: undefined },
  anamnesis: { retrieval: "bm25" },
});

describe("buildModulesForProtocol", () => {
  it("builds the embedded engine's dialogue modules for MediTOD and the embedded protocol", async () => {
    const setup = await buildModulesForProtocol(loadMeditod(), "test", request("embedded", "embedded"));
    expect(setup.modules).toMatchObject({ nlu: expect.anything(), policy: expect.anything(), nlg: expect.anything() });
    expect(setup.modules).not.toHaveProperty("note");
    expect(setup.protocol.name).toBe("embedded");
    expect(setup.unavailable).toEqual({});
    await setup.close();
  }, 60_000);

  it("builds our in-context modules over the backend for the anamnesis protocol", async () => {
    const setup = await buildModulesForProtocol(loadMeditod(), "test", request("openai:test-model", "anamnesis"));
    expect(setup.backend.id).toBe("openai:test-model");
    expect(setup.protocol).toMatchObject({ name: "anamnesis", retrieval: "lexical:bm25", exemplars: 5 });
    expect(Object.keys(setup.promptVersions).sort()).toEqual(["nlg", "nlu", "policy"]);
    await setup.close();
  });

  it("takes the official pipeline for the official protocol (which asks for a MediTOD checkout first)", async () => {
    await expect(
      buildModulesForProtocol(loadMeditod(), "test", request("openai:test-model", "official")),
    ).rejects.toThrow(/--protocol official reads its prompts from a checkout of dair-iitd\/MediTOD/);
  });

  it("builds the note writer and the header classifier for note data, and says why a chat backend gives no log-likelihoods", async () => {
    const embedded = await buildModulesForProtocol(loadMtsDialog(), "valid", request("embedded", "embedded"));
    expect(Object.keys(embedded.modules).sort()).toEqual(["classifier", "likelihood", "note"]);
    expect(embedded.modules.classifier!.id).toBe("embedded:nearest-label");
    await embedded.close();
    const chat = await buildModulesForProtocol(loadMtsDialog(), "valid", request("openai:test-model", "anamnesis"));
    expect(Object.keys(chat.modules).sort()).toEqual(["classifier", "note"]);
    expect(chat.unavailable.likelihood).toMatch(
      /^backend openai:test-model cannot score the log-likelihood of a given text/,
    );
    await chat.close();
  }, 60_000);
});
