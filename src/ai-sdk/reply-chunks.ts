/**
 * The AI SDK's UI message chunks as a draft's deltas, and back. `chunkDelta`
 * gives what a chunk adds to the stored reply: text, reasoning, a file (up to
 * `MAX_DRAFT_FILE_URL`), a finished tool call or its result (a tool's input
 * while it streams, and sources and data parts, which ADK has no part for, are
 * not kept in the draft). `skipStored` passes only what a replayed stream adds
 * beyond what a draft already holds, by counting: the replay is the
 * same stream from its start, so each stored part's characters are skipped, then
 * the rest is new. `storedChunks` turns a stored draft back into chunks, for a
 * stream that continues a reply the SDK has not seen the start of: its last
 * text (or reasoning) part is left open, and `continuingPart` gives the
 * continuation's deltas for a part it never started (it began mid-part) to it,
 * or starts that part when the draft has none of it.
 */
import type { UIMessageChunk } from 'ai';
import { isPlainObject } from '../core/json.js';
import type { DraftDelta } from '../index.js';
import type { Content, Part } from '../types.js';
import { partFromAdk, partToAdk } from './parts.js';

/** The longest file URL (a `data:` URL holds the file) a draft keeps: 1 MiB of characters. */
export const MAX_DRAFT_FILE_URL = 1024 * 1024;

/** What `chunk` adds to the draft, if anything; `names` keeps each tool call's name for its result. */
export function chunkDelta(chunk: UIMessageChunk, names: Map<string, string>): DraftDelta | undefined {
  switch (chunk.type) {
    case 'text-delta':
      return chunk.delta ? { text: chunk.delta } : undefined;
    case 'reasoning-delta':
      return chunk.delta ? { thought: chunk.delta } : undefined;
    case 'tool-input-start':
      names.set(chunk.toolCallId, chunk.toolName);
      return undefined;
    case 'tool-input-available': {
      names.set(chunk.toolCallId, chunk.toolName);
      const args = isPlainObject(chunk.input) ? chunk.input : { input: chunk.input };
      return { parts: [{ functionCall: { id: chunk.toolCallId, name: chunk.toolName, args } }] };
    }
    case 'tool-output-available':
      if (chunk.preliminary) return undefined;
      return result(chunk.toolCallId, names, isPlainObject(chunk.output) ? chunk.output : { result: chunk.output });
    case 'tool-output-error':
      return result(chunk.toolCallId, names, { error: chunk.errorText });
    case 'file':
      // A larger file would crowd the draft's writes (each at most a record's size); the
      // finished message still holds it.
      if (chunk.url.length > MAX_DRAFT_FILE_URL) return undefined;
      return { parts: partToAdk({ type: 'file', url: chunk.url, mediaType: chunk.mediaType }).adk };
    default:
      return undefined;
  }
}

function result(id: string, names: Map<string, string>, response: Record<string, unknown>): DraftDelta {
  const name = names.get(id);
  return { parts: [{ functionResponse: { id, ...(name === undefined ? {} : { name }), response } }] };
}

type Kind = 'text' | 'thought' | 'whole';

/** A part's kind as a draft folds deltas: only a bare text (or bare thought) part is extended. */
function kindOf(part: Part): Kind {
  const keys = Object.keys(part);
  if (typeof part.text !== 'string') return 'whole';
  if (part.thought === true && keys.length === 2) return 'thought';
  return part.thought === undefined && keys.length === 1 ? 'text' : 'whole';
}

/**
 * A filter for the deltas of a stream replayed from its start into a draft that
 * holds `stored`: each delta comes back as the part of it beyond `stored`, or
 * `undefined` while the replay is still within it. Deltas are folded as the
 * draft folds them (text extends a text part of its kind, else starts one; a
 * whole part is a part), and compared by position and length.
 */
export function skipStored(stored: readonly Part[]): (delta: DraftDelta) => DraftDelta | undefined {
  const lengths = stored.map((part) => (kindOf(part) === 'whole' ? 0 : (part.text as string).length));
  // The replay so far, folded: the kind of its last part, its index and length.
  let kind: Kind | undefined;
  let at = -1;
  let length = 0;
  let beyond = stored.length === 0;
  const text = (added: string, of: Kind): string | undefined => {
    if (kind === of) length += added.length;
    else {
      kind = of;
      at++;
      length = added.length;
    }
    if (at >= stored.length) beyond = true;
    if (beyond) return added;
    if (at < stored.length - 1 || length <= (lengths[at] as number)) return undefined;
    // The last stored part, and the replay reached past it: what it has not seen is new.
    beyond = true;
    return added.slice(added.length - (length - (lengths[at] as number)));
  };
  return (delta) => {
    if (beyond) return delta;
    if (delta.thought) {
      const thought = text(delta.thought, 'thought');
      return thought === undefined ? undefined : { thought };
    }
    if (delta.text) {
      const more = text(delta.text, 'text');
      return more === undefined ? undefined : { text: more };
    }
    const fresh: Part[] = [];
    for (const part of delta.parts ?? []) {
      kind = 'whole';
      at++;
      length = 0;
      if (beyond || at >= stored.length) {
        beyond = true;
        fresh.push(part);
      }
    }
    return fresh.length > 0 ? { parts: fresh } : undefined;
  };
}

/** A text or reasoning part `storedChunks` left open, for the continuation to go on with. */
export interface OpenPart {
  id: string;
  kind: 'text' | 'reasoning';
}

/**
 * The chunks that make the stored `content` again in a `useChat` that has none of it (ids
 * `stored-0`, ...), and the part left open: the last one, when it is text or reasoning.
 */
export function storedChunks(content: Content): { chunks: UIMessageChunk[]; open: OpenPart | undefined } {
  const chunks: UIMessageChunk[] = [];
  const names = new Map<string, string>();
  const parts = content.parts ?? [];
  let open: OpenPart | undefined;
  parts.forEach((part, i) => {
    const id = `stored-${i}`;
    const kind = kindOf(part);
    if (kind !== 'whole') {
      const prefix = kind === 'text' ? 'text' : 'reasoning';
      chunks.push({ type: `${prefix}-start`, id }, { type: `${prefix}-delta`, id, delta: part.text as string });
      if (i < parts.length - 1) chunks.push({ type: `${prefix}-end`, id });
      else open = { id, kind: prefix };
      return;
    }
    const call = part.functionCall;
    if (call?.id !== undefined) {
      names.set(call.id, call.name ?? '');
      const input = call.args ?? {};
      chunks.push({
        type: 'tool-input-available',
        toolCallId: call.id,
        toolName: call.name ?? '',
        input,
        dynamic: true,
      });
    }
    if (part.inlineData || part.fileData) {
      const { url, mediaType } = partFromAdk({ type: 'file' }, [part]) as { url: string; mediaType: string };
      chunks.push({ type: 'file', url, mediaType });
    }
    const response = part.functionResponse;
    if (response?.id !== undefined && names.has(response.id)) {
      const result = response.response ?? {};
      if (typeof result.error === 'string' && Object.keys(result).length === 1) {
        chunks.push({ type: 'tool-output-error', toolCallId: response.id, errorText: result.error, dynamic: true });
      } else chunks.push({ type: 'tool-output-available', toolCallId: response.id, output: result, dynamic: true });
    }
  });
  return { chunks, open };
}

/**
 * Chunks of a stream continuing a reply: deltas and the end of a text or reasoning part the
 * stream never started go to `open` (the stored part they continue), once; any other part
 * the stream starts first closes `open`.
 */
export function continuingPart(open: OpenPart | undefined): TransformStream<UIMessageChunk, UIMessageChunk> {
  const started = new Set<string>();
  let pending = open;
  const close = (controller: TransformStreamDefaultController<UIMessageChunk>) => {
    if (pending) controller.enqueue({ type: `${pending.kind}-end`, id: pending.id });
    pending = undefined;
  };
  return new TransformStream({
    transform(chunk, controller) {
      const part = /^(text|reasoning)-(start|delta|end)$/.exec(chunk.type);
      if (!part) {
        if (chunk.type !== 'start' && chunk.type !== 'start-step') close(controller);
        return controller.enqueue(chunk);
      }
      const { id } = chunk as { id: string };
      if (part[2] === 'start') {
        started.add(id);
        close(controller);
        return controller.enqueue(chunk);
      }
      if (started.has(id)) return controller.enqueue(chunk);
      if (pending?.kind === part[1]) {
        const adopted = { ...chunk, id: pending?.id } as UIMessageChunk;
        if (part[2] === 'end') pending = undefined;
        return controller.enqueue(adopted);
      }
      // A part the draft has nothing of yet: it is started here; the end of one is nothing to show.
      if (part[2] === 'end') return;
      close(controller);
      started.add(id);
      controller.enqueue({ type: `${part[1] as OpenPart['kind']}-start`, id });
      controller.enqueue(chunk);
    },
    flush: close,
  });
}
