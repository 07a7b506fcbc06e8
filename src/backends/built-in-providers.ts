/**
 * The providers that come with Anamnesis: `openai:<model>`, `ollama:<model>`, `llamacpp:<path to .gguf>`,
 * `langchain:<provider>:<model>` and `embedded`. Each declares how its ids look, the settings it reads
 * (settings.ts) and the environment variables that set them; its driver is imported only when one of
 * its ids is used, so listing the providers (`--help`) loads no model client.
 */
import * as z from "zod";
import { registerProvider } from "./providers.ts";
import {
  langChainSettingsSchema,
  llamaCppSettingsSchema,
  ollamaSettingsSchema,
  openaiSettingsSchema,
} from "./settings.ts";

registerProvider(
  "openai",
  async (model, settings) => (await import("./openai.ts")).createOpenAIBackend(model, settings),
  {
    usage: "openai:<model> (OpenAI-compatible server)",
    settings: openaiSettingsSchema,
    fromEnv: (env) => ({
      ...(env.OPENAI_BASE_URL ? { baseUrl: env.OPENAI_BASE_URL } : {}),
      ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
      // The OpenAI SDK's names for the organization and project, read as it reads them.
      ...((env.OPENAI_ORG_ID ?? env.OPENAI_ORGANIZATION)
        ? { organization: env.OPENAI_ORG_ID ?? env.OPENAI_ORGANIZATION }
        : {}),
      ...(env.OPENAI_PROJECT_ID ? { project: env.OPENAI_PROJECT_ID } : {}),
    }),
  },
);

registerProvider(
  "ollama",
  async (model, settings) => (await import("./ollama.ts")).createOllamaBackend(model, settings),
  {
    usage: "ollama:<model>",
    settings: ollamaSettingsSchema,
    fromEnv: (env) => (env.OLLAMA_HOST ? { baseUrl: env.OLLAMA_HOST } : {}),
  },
);

registerProvider(
  "llamacpp",
  async (model, settings) => (await import("./llamacpp.ts")).createLlamaCppBackend(model, settings),
  {
    usage: "llamacpp:<path to .gguf>",
    settings: llamaCppSettingsSchema,
  },
);

registerProvider(
  "langchain",
  async (model, settings, id) => (await import("./langchain-universal.ts")).createLangChainBackend(model, settings, id),
  {
    usage: "langchain:<provider>:<model> (any installed LangChain chat-model integration)",
    settings: langChainSettingsSchema,
  },
);

// The engine builds its modules itself (modules/builders/create-modules.ts); as a provider it only
// explains why it is no chat backend, so it reads no settings beyond the common ones.
registerProvider(
  "embedded",
  async (model, settings, id) => (await import("./embedded.ts")).createEmbeddedBackend(model, settings, id),
  {
    usage: "embedded",
    modelRequired: false,
    chatModel: false,
    settings: z.object({}),
  },
);
