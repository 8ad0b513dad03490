/**
 * One `UIMessage` part to the ADK parts that mean the same, and back. Text is
 * `text`, reasoning `text` with `thought: true`, a tool call a `functionCall`
 * (plus a `functionResponse` once it has a result or an error), a file
 * `inlineData` (a base64 `data:` URL) or `fileData` (any other URL). What a
 * part holds beyond those fields, and whole parts ADK has no field for
 * (sources, step starts, data parts, ...), is returned as `rest`, kept by the
 * caller in the event's `customMetadata`: `partFromAdk(rest, adk)` rebuilds
 * the part exactly.
 */
import type { UIMessage } from 'ai';
import { isPlainObject } from '../core/json.js';
import type { Part } from '../types.js';

export type UIPart = UIMessage['parts'][number];
/** What of a part the ADK parts do not carry; always has the part's `type`. */
export type PartRest = { type: string } & Record<string, unknown>;

/** A file's `data:` URL with base64 content: its media type, then its data. */
export const BASE64_DATA_URL = /^data:([^;,]+);base64,([A-Za-z0-9+/]*={0,2})$/;

export const isToolPart = (type: string): boolean => type === 'dynamic-tool' || type.startsWith('tool-');

export function partToAdk(part: UIPart): { adk: Part[]; rest: PartRest } {
  const fields = part as PartRest;
  switch (part.type) {
    case 'text':
    case 'reasoning': {
      const { text, ...rest } = part;
      return { adk: [part.type === 'text' ? { text } : { text, thought: true }], rest };
    }
    case 'file': {
      const { url, mediaType, filename, ...rest } = part;
      const inline = BASE64_DATA_URL.exec(url);
      const named = filename === undefined ? {} : { displayName: filename };
      const adk: Part =
        inline && inline[1] === mediaType
          ? { inlineData: { mimeType: mediaType, data: inline[2] as string, ...named } }
          : { fileData: { mimeType: mediaType, fileUri: url, ...named } };
      return { adk: [adk], rest };
    }
    default:
      return isToolPart(part.type) ? toolToAdk(fields) : { adk: [], rest: fields };
  }
}

function toolToAdk(part: PartRest): { adk: Part[]; rest: PartRest } {
  const { toolCallId, input, output, errorText, ...rest } = part;
  const id = toolCallId as string;
  const name = part.type === 'dynamic-tool' ? String(part.toolName) : part.type.slice('tool-'.length);
  const call: NonNullable<Part['functionCall']> = { id, name };
  // ADK's args are an object; other inputs (a string from a text-encoded tool) stay in `rest`.
  if (isPlainObject(input)) call.args = input;
  else if (input !== undefined) rest.input = input;
  const adk: Part[] = [{ functionCall: call }];
  if (part.state === 'output-available') {
    // A tool's object result is ADK's response as is; anything else is wrapped, as ADK wraps a tool's non-object return.
    if (isPlainObject(output)) adk.push({ functionResponse: { id, name, response: output } });
    else {
      adk.push({ functionResponse: { id, name, response: { result: output } } });
      rest.wrapped = true;
    }
  } else if (part.state === 'output-error') {
    adk.push({ functionResponse: { id, name, response: { error: errorText } } });
  }
  return { adk, rest };
}

/** The part `rest` and its ADK parts came from. */
export function partFromAdk(rest: PartRest, adk: Part[]): UIPart {
  const [first, second] = adk;
  switch (rest.type) {
    case 'text':
    case 'reasoning':
      return { ...rest, text: first?.text ?? '' } as UIPart;
    case 'file': {
      const inline = first?.inlineData as { mimeType?: string; data?: string; displayName?: string } | undefined;
      const file = first?.fileData as { mimeType?: string; fileUri?: string; displayName?: string } | undefined;
      const mediaType = inline?.mimeType ?? file?.mimeType ?? 'application/octet-stream';
      const url = inline ? `data:${mediaType};base64,${inline.data ?? ''}` : (file?.fileUri ?? '');
      const filename = inline?.displayName ?? file?.displayName;
      return { ...rest, mediaType, url, ...(filename === undefined ? {} : { filename }) } as UIPart;
    }
    default:
      return isToolPart(rest.type) ? toolFromAdk(rest, first, second) : (rest as UIPart);
  }
}

function toolFromAdk(rest: PartRest, call: Part | undefined, response: Part | undefined): UIPart {
  const { wrapped, ...part } = rest;
  const fc = call?.functionCall;
  part.toolCallId = fc?.id ?? '';
  if (fc?.args !== undefined) part.input = fc.args;
  const result = response?.functionResponse?.response;
  if (part.state === 'output-available' && result !== undefined) part.output = wrapped ? result.result : result;
  if (part.state === 'output-error' && result !== undefined) part.errorText = result.error;
  return part as UIPart;
}
