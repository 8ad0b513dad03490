/**
 * One TanStack AI message part to the ADK parts that mean the same, and back.
 * Text is `text`, thinking `text` with `thought: true`, a tool call a
 * `functionCall`, a tool result a `functionResponse`, an image, audio, video or
 * document `inlineData` (base64 source) or `fileData` (URL source). What a part
 * holds beyond those fields, and whole parts ADK has no field for (structured
 * output, UI resources), is returned as `rest`, which the caller keeps in the
 * event's `customMetadata`: `partFromAdk(rest, adk)` rebuilds the part exactly.
 * `rest` is JSON: a tool result's `createdAt` Date is kept as epoch ms.
 */
import type { MessagePart } from '@tanstack/ai-client';
import { isPlainObject } from '../core/json.js';
import type { Part } from '../types.js';

/** What of a part the ADK parts do not carry; always has the part's `type`. */
export type PartRest = { type: string } & Record<string, unknown>;

const FILE_TYPES = new Set(['image', 'audio', 'video', 'document']);

/** `text` as an object when it is exactly the JSON of one (a tool result's usual content), else `undefined`. */
function jsonObject(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) && JSON.stringify(parsed) === text ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function partToAdk(part: MessagePart): { adk: Part[]; rest: PartRest } {
  const fields = part as PartRest;
  switch (part.type) {
    case 'text':
    case 'thinking': {
      const { content, ...rest } = part;
      return { adk: [part.type === 'text' ? { text: content } : { text: content, thought: true }], rest };
    }
    case 'tool-call': {
      const { id, name, input, arguments: args, ...rest } = fields;
      const call: NonNullable<Part['functionCall']> = { id: String(id), name: String(name) };
      // ADK's args are an object; other inputs stay in `rest`. The raw arguments are kept only when they are not the input's JSON.
      if (isPlainObject(input)) call.args = input;
      else if (input !== undefined) rest.input = input;
      if (!(isPlainObject(input) && JSON.stringify(input) === args)) rest.arguments = args;
      return { adk: [{ functionCall: call }], rest };
    }
    case 'tool-result': {
      const { toolCallId, name, content, createdAt, ...rest } = fields;
      const object = jsonObject(content);
      const response: Record<string, unknown> = object ?? { result: content };
      if (!object) rest.wrapped = true;
      if (name !== undefined) rest.name = name;
      if (createdAt instanceof Date) rest.createdAtMs = createdAt.getTime();
      else if (createdAt !== undefined) rest.createdAt = createdAt;
      const named = typeof name === 'string' ? { name } : {};
      return { adk: [{ functionResponse: { id: String(toolCallId), ...named, response } }], rest };
    }
    default:
      return FILE_TYPES.has(part.type) && isPlainObject(fields.source) ? fileToAdk(fields) : { adk: [], rest: fields };
  }
}

function fileToAdk(part: PartRest): { adk: Part[]; rest: PartRest } {
  const { source, ...rest } = part as PartRest & { source: Record<string, unknown> };
  const { value, mimeType, ...sourceRest } = source;
  rest.source = sourceRest;
  const mime = typeof mimeType === 'string' ? { mimeType } : {};
  if (mimeType !== undefined && typeof mimeType !== 'string') sourceRest.mimeType = mimeType;
  const adk: Part =
    source.type === 'data'
      ? { inlineData: { ...mime, data: String(value) } }
      : { fileData: { ...mime, fileUri: String(value) } };
  return { adk: [adk], rest };
}

/** The part `rest` and its ADK parts came from. */
export function partFromAdk(rest: PartRest, adk: readonly Part[]): MessagePart {
  const [first] = adk;
  switch (rest.type) {
    case 'text':
    case 'thinking':
      return { ...rest, content: first?.text ?? '' } as MessagePart;
    case 'tool-call': {
      const call = first?.functionCall;
      const part: Record<string, unknown> = { ...rest, id: call?.id ?? '', name: call?.name ?? '' };
      if (call?.args !== undefined) part.input = call.args;
      if (!('arguments' in rest)) part.arguments = JSON.stringify(call?.args ?? {});
      return part as MessagePart;
    }
    case 'tool-result': {
      const { wrapped, createdAtMs, ...kept } = rest;
      const response = first?.functionResponse?.response ?? {};
      const part: Record<string, unknown> = {
        ...kept,
        toolCallId: first?.functionResponse?.id ?? '',
        content: wrapped ? response.result : JSON.stringify(response),
      };
      if (typeof createdAtMs === 'number') part.createdAt = new Date(createdAtMs);
      return part as MessagePart;
    }
    default: {
      if (!FILE_TYPES.has(rest.type) || !isPlainObject(rest.source) || !first) return rest as MessagePart;
      const file = first.inlineData ?? first.fileData;
      const value = first.inlineData ? first.inlineData.data : first.fileData?.fileUri;
      const mime = file?.mimeType === undefined ? {} : { mimeType: file.mimeType };
      return { ...rest, source: { ...rest.source, value: value ?? '', ...mime } } as MessagePart;
    }
  }
}

/** A part read from an ADK part no TanStack message was stored from (an ADK agent's, a draft's). */
export function adkToPart(part: Part): MessagePart | undefined {
  if (part.text !== undefined) return { type: part.thought ? 'thinking' : 'text', content: part.text };
  const call = part.functionCall;
  if (call) {
    const args = call.args ?? {};
    return {
      type: 'tool-call',
      id: call.id ?? '',
      name: call.name ?? '',
      arguments: JSON.stringify(args),
      input: args,
      state: 'input-complete',
    };
  }
  const response = part.functionResponse;
  if (response) {
    const named = response.name === undefined ? {} : { name: response.name };
    return {
      type: 'tool-result',
      toolCallId: response.id ?? '',
      ...named,
      content: JSON.stringify(response.response ?? {}),
      state: 'complete',
    };
  }
  const file = part.inlineData ?? part.fileData;
  if (!file) return undefined;
  const mimeType = file.mimeType ?? 'application/octet-stream';
  const kind = /^(image|audio|video)\//.exec(mimeType)?.[1] ?? 'document';
  const source = part.inlineData
    ? { type: 'data' as const, value: part.inlineData.data ?? '', mimeType }
    : { type: 'url' as const, value: part.fileData?.fileUri ?? '', mimeType };
  return { type: kind, source } as MessagePart;
}
