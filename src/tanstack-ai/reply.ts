/**
 * The reply streaming in, as draft appends holding only what is new. The
 * ChatClient hands over the whole message on every chunk; what a draft was
 * already given is remembered per part, so each hand-over appends the text that
 * grew at the end, and each part once it is whole (a tool call once its input is
 * complete, a tool result once it is in). A part that changed in a way an append
 * cannot say (an earlier part rewritten) is left as the draft has it: the final
 * event, stored whole at the finish, holds the message exactly.
 */
import type { MessagePart, UIMessage } from '@tanstack/ai-client';
import type { DraftDelta } from '../index.js';
import { partToAdk } from './parts.js';

/** What one message part gave the draft: its text so far, or that it was added whole (`undefined`). */
type Given = { kind: 'text' | 'thinking'; text: string } | { kind: 'whole' };

/** Parts whose ADK form is not final yet: written once they are. */
function isWhole(part: MessagePart): boolean {
  if (part.type === 'tool-call') return part.state !== 'awaiting-input' && part.state !== 'input-streaming';
  if (part.type === 'tool-result') return part.state !== 'streaming';
  return true;
}

/** What a draft has been given of one message, and the appends that bring it up to date. */
export class ReplyParts {
  private readonly given: Given[] = [];

  /** The deltas that add what `message` holds beyond what was given; remembers them as given. */
  deltas(message: UIMessage): DraftDelta[] {
    const out: DraftDelta[] = [];
    const parts = message.parts;
    const last = this.given.length - 1;
    const grown = this.given[last];
    const at = parts[last];
    // Only the last part given can still grow: text streams into the part at the end.
    if (grown && grown.kind !== 'whole' && at && at.type === grown.kind && at.content.length > grown.text.length) {
      if (at.content.startsWith(grown.text)) {
        const more = at.content.slice(grown.text.length);
        out.push(grown.kind === 'text' ? { text: more } : { thought: more });
        grown.text = at.content;
      }
    }
    for (let i = this.given.length; i < parts.length; i++) {
      const part = parts[i] as MessagePart;
      if (part.type === 'text' || part.type === 'thinking') {
        if (part.content.length > 0)
          out.push(part.type === 'text' ? { text: part.content } : { thought: part.content });
        this.given.push({ kind: part.type, text: part.content });
        continue;
      }
      // A part still streaming holds back those after it: the draft keeps the message's order.
      if (!isWhole(part)) break;
      const { adk } = partToAdk(part);
      if (adk.length > 0) out.push({ parts: adk });
      this.given.push({ kind: 'whole' });
    }
    return out;
  }

  /** Whether `message` goes on from what was given: the same parts, text grown only at the end. */
  matches(message: UIMessage): boolean {
    return this.given.every((given, i) => {
      const part = message.parts[i];
      if (!part) return false;
      if (given.kind === 'whole') return part.type !== 'text' && part.type !== 'thinking';
      return part.type === given.kind && part.content.startsWith(given.text);
    });
  }
}
