import { createBackend, type BackendOptions } from "../../backends/index.ts";
import { AnamnesisError } from "../../foundation/errors.ts";
import type { MeditodDataset, Split } from "../../data/meditod.ts";
import type { ModuleSetup } from "./create-modules.ts";
import { readMeditodCheckout, COMMONS_PATH } from "../official/meditod-checkout.ts";
import { createOfficialModules, OFFICIAL_MAX_TOKENS } from "../official/official-modules.ts";
import { OFFICIAL_HISTORY_SIZE } from "../official/official-turns.ts";

/**
 * `anamnesis bench --protocol official`: the chat backend, a separate embeddings backend
 * (`--embeddings openai:<model>` or `ollama:<model>`, with its own `--embeddings-base-url`), the prompt
 * text from the user's MediTOD checkout, and the labels every output carries.
 */

/** What `--protocol official` is given besides the chat backend. */
export interface OfficialSetupOptions {
  /** The MediTOD checkout (`--meditod-repo` or `MEDITOD_REPO`). */
  readonly checkoutDir: string | undefined;
  /** `openai:<model>` or `ollama:<model>`. */
  readonly embeddings: string | undefined;
  readonly embeddingsBaseUrl?: string;
  readonly maxTokens?: number;
  readonly exemplars?: number;
  readonly exemplarSplit?: Split;
  readonly backendOptions?: BackendOptions;
}

const EMBEDDINGS_EXPECTED =
  "--embeddings openai:<model> or ollama:<model> (the paper used BAAI/bge-large-en-v1.5, e.g. served by vLLM, TEI or Ollama), with --embeddings-base-url for its server";

/**
 * The module setup of `anamnesis bench --protocol official`: official modules over `backendId`, their
 * embeddings backend, and the protocol labels. A missing checkout or embeddings id is one clear error.
 */
export async function createOfficialSetup(
  backendId: string,
  dataset: MeditodDataset,
  options: OfficialSetupOptions,
): Promise<ModuleSetup> {
  if (!options.checkoutDir) {
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `--protocol official reads its prompts from a checkout of dair-iitd/MediTOD: give --meditod-repo DIR or set MEDITOD_REPO (expected ${COMMONS_PATH} inside it)`,
    );
  }
  const checkout = readMeditodCheckout(options.checkoutDir);
  if (!options.embeddings || !/^(openai|ollama):.+/.test(options.embeddings)) {
    throw new AnamnesisError(
      "INVALID_ARGUMENT",
      `--protocol official retrieves exemplars by dense embeddings: give ${EMBEDDINGS_EXPECTED}${options.embeddings ? ` (got '${options.embeddings}')` : ""}`,
    );
  }
  const chat = await createBackend(backendId, options.backendOptions ?? {});
  const { baseUrl: _chatUrl, ...shared } = options.backendOptions ?? {};
  const embeddings = await createBackend(options.embeddings, {
    ...shared,
    ...(options.embeddingsBaseUrl ? { baseUrl: options.embeddingsBaseUrl } : {}),
  });
  const maxTokens = options.maxTokens ?? OFFICIAL_MAX_TOKENS;
  const exemplars = options.exemplars ?? 5;
  const modules = createOfficialModules(chat, embeddings, dataset, checkout, {
    maxTokens,
    exemplars,
    ...(options.exemplarSplit ? { exemplarSplit: options.exemplarSplit } : {}),
  });
  return {
    modules,
    backend: { id: chat.id, parameters: chat.parameters },
    promptVersions: Object.fromEntries(
      Object.keys(modules.prompters).map((task) => [
        task,
        `meditod:${COMMONS_PATH}@${checkout.commit ?? "unknown commit"}`,
      ]),
    ),
    protocol: {
      name: "official",
      prompt_source: `dair-iitd/MediTOD ${COMMONS_PATH} read from ${checkout.dir}`,
      meditod_commit: checkout.commit,
      retrieval: `dense: inner product of L2-normalised embeddings of the last turn, top ${exemplars} in numpy argsort order`,
      embedding_model: embeddings.id,
      embeddings_parameters: embeddings.parameters,
      decoding: { temperature: 0, max_tokens: maxTokens, response_format: null, tools: null, repair: false },
      post_processing: "post.py: lower-case the reply, strict JSON, deformat_nlu; [] and a format error otherwise",
      exemplars,
      exemplar_source: options.exemplarSplit ?? "train",
      history_size: OFFICIAL_HISTORY_SIZE,
      token_budget: null,
    },
    close: async () => {
      await chat.close?.();
      await embeddings.close?.();
    },
  };
}
