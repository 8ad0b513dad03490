/**
 * A model that never touches the network: it answers each call with the next
 * response of its script and records what it was asked. Its requests are part
 * of the differential comparison: they show the history the Runner loaded from
 * the session service, in the order the service returned it.
 */
import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from '@google/adk';

export interface RecordedRequest {
  model: string;
  instruction: unknown;
  contents: unknown;
  tools: string[];
}

/** Advances the pinned clock, so that events of different model calls get different timestamps. */
export type Tick = () => void;

export class ScriptedModel extends BaseLlm {
  private next = 0;

  constructor(
    name: string,
    private readonly script: LlmResponse[],
    private readonly log: RecordedRequest[],
    private readonly tick: Tick,
  ) {
    super({ model: name });
  }

  get remaining(): number {
    return this.script.length - this.next;
  }

  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.tick();
    this.log.push(
      JSON.parse(
        JSON.stringify({
          model: this.model,
          instruction: request.config?.systemInstruction,
          contents: request.contents,
          tools: Object.keys(request.toolsDict).sort(),
        }),
      ),
    );
    const response = this.script[this.next++];
    if (!response) throw new Error(`${this.model}: the script has no response left for call ${this.next}`);
    // A fresh copy each time: the Runner mutates what it is given.
    yield structuredClone(response);
  }

  async connect(): Promise<BaseLlmConnection> {
    throw new Error('ScriptedModel has no live mode');
  }
}

export function call(id: string, name: string, args: Record<string, unknown> = {}): LlmResponse {
  return { content: { role: 'model', parts: [{ functionCall: { id, name, args } }] } };
}

export function calls(...parts: [id: string, name: string, args?: Record<string, unknown>][]): LlmResponse {
  return {
    content: {
      role: 'model',
      parts: parts.map(([id, name, args]) => ({ functionCall: { id, name, args: args ?? {} } })),
    },
  };
}

export function say(text: string, tokens = 10): LlmResponse {
  return {
    content: { role: 'model', parts: [{ text }] },
    usageMetadata: { promptTokenCount: tokens, candidatesTokenCount: 3, totalTokenCount: tokens + 3 },
    customMetadata: { scripted: true, note: null },
    turnComplete: true,
  };
}
