/**
 * Glue shared by the LangChain-based drivers (ollama.ts, langchain-universal.ts): message conversion,
 * one call (invoke or stream), reading the reply text / tool-call arguments / usage. Their requests go
 * through attempt-fetch.ts.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatMessage, TokenUsage } from "./spec.ts";

export function toLangChainMessages(messages: readonly ChatMessage[]): BaseMessage[] {
  return messages.map((message) => {
    switch (message.role) {
      case "system":
        return new SystemMessage(message.content);
      case "user":
        return new HumanMessage(message.content);
      case "assistant":
        return new AIMessage(message.content);
    }
  });
}

/** One model call: `invoke`, or `stream` with the chunks concatenated (usage comes in the last chunk). */
export async function callChatModel(
  model: BaseChatModel,
  messages: readonly ChatMessage[],
  callOptions: Record<string, unknown>,
  streaming: boolean,
): Promise<AIMessage | AIMessageChunk> {
  const input = toLangChainMessages(messages);
  if (!streaming) return await model.invoke(input, callOptions);
  let reply: AIMessageChunk | undefined;
  for await (const chunk of await model.stream(input, callOptions)) {
    reply = reply ? reply.concat(chunk) : chunk;
  }
  return reply ?? new AIMessageChunk("");
}

/** The reply as text; for a tool call, its raw JSON arguments (what structured output is parsed from). */
export function replyText(message: AIMessage | AIMessageChunk, toolCall: boolean): string {
  if (toolCall) {
    const raw = (
      message.additional_kwargs?.tool_calls as Array<{ function?: { arguments?: unknown } }> | undefined
    )?.[0]?.function?.arguments;
    if (typeof raw === "string") return raw;
    const chunkArgs = (message as AIMessageChunk).tool_call_chunks?.[0]?.args;
    if (typeof chunkArgs === "string") return chunkArgs;
    const invalid = message.invalid_tool_calls?.[0]?.args;
    if (typeof invalid === "string") return invalid;
    const call = message.tool_calls?.[0];
    if (call) return JSON.stringify(call.args);
  }
  return message.text;
}

export function usageOf(message: AIMessage | AIMessageChunk): TokenUsage {
  return {
    inputTokens: message.usage_metadata?.input_tokens ?? 0,
    outputTokens: message.usage_metadata?.output_tokens ?? 0,
  };
}

/** One chat-model instance per distinct set of constructor fields (temperature, max tokens, …). */
export function modelCache<K, M>(build: (key: K) => M): (key: K) => M {
  const models = new Map<string, M>();
  return (key) => {
    const id = JSON.stringify(key);
    let model = models.get(id);
    if (!model) {
      model = build(key);
      models.set(id, model);
    }
    return model;
  };
}
