/**
 * The AI SDK's own mock model, so the example runs with no server and no key,
 * behind a transport that, like a real one's `fetch`, fails when the network is off.
 * It answers "You said: …", numbers its answers to words it was given before
 * (a regenerated reply reads "(answer 2)"), and counts the photos in the history it was sent.
 * Asked for "a long story", it streams one slowly, word by word, for about ten seconds: long
 * enough to reload the page mid-reply.
 */
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { type ChatTransport, simulateReadableStream, type UIMessage } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

export function echoModel(): MockLanguageModelV4 {
  const asked = new Map<string, number>();
  return new MockLanguageModelV4({
    doStream: async ({ prompt }) => {
      const last = prompt.findLast((message) => message.role === 'user');
      const said =
        last?.role === 'user' ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join('') : '';
      // Like a model that sees images: it counts the photos the history sent it.
      const photos = prompt
        .flatMap((message) => (message.role === 'user' ? message.content : []))
        .filter((part) => part.type === 'file' && part.mediaType.startsWith('image/')).length;
      const times = (asked.get(said) ?? 0) + 1;
      asked.set(said, times);
      const again = times > 1 ? ` (answer ${times})` : '';
      const long = /a long story/i.test(said);
      const reply = long
        ? `Once upon a time ${'there was a chat that kept every word it was told. '.repeat(12)}The end.`
        : `You said: ${said}${again}${photos ? ` (${photos} photo${photos > 1 ? 's' : ''} in this chat)` : ''}`;
      const chunks: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        ...reply.split(/(?<= )/).map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta })),
        { type: 'text-end', id: 't' },
        {
          type: 'finish',
          finishReason: { unified: 'stop', raw: undefined },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 1, text: 1, reasoning: 0 },
          },
        },
      ];
      return { stream: simulateReadableStream({ chunks, chunkDelayInMs: long ? 80 : 5 }) };
    },
  });
}

/** `transport`, failing as a network request does when the browser is offline. */
export function needsNetwork<M extends UIMessage>(transport: ChatTransport<M>): ChatTransport<M> {
  return {
    sendMessages: async (request) => {
      if (!navigator.onLine)
        throw new TypeError('You are offline: the model cannot be reached. Your message is saved.');
      return transport.sendMessages(request);
    },
    reconnectToStream: (request) => transport.reconnectToStream(request),
  };
}
