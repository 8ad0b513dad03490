/** fast-check arbitraries for the AI SDK's `UIMessage`: every kind of part, every tool state. */
import type { UIMessage } from 'ai';
import fc from 'fast-check';

/** JSON as the store keeps it (no -0, no undefined). */
const asStored = <T>(v: T): T => JSON.parse(JSON.stringify(v));
const json = fc.jsonValue({ maxDepth: 3 }).map((v) => asStored(v) as unknown);
const jsonObject = fc.dictionary(fc.string(), json, { maxKeys: 4 }).map(asStored);
const id = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() === s && s !== '');
const providerMetadata = fc.dictionary(fc.string({ minLength: 1 }), jsonObject, { maxKeys: 2 }).map(asStored);
const mediaType = fc.constantFrom('image/png', 'text/plain', 'application/pdf');
const base64 = fc.base64String({ maxLength: 24 });

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
/** A record without the keys whose value came out `undefined` (what JSON keeps). */
const part = <T extends Record<string, fc.Arbitrary<unknown>>>(shape: T) =>
  fc.record(shape).map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));

const text = part({
  type: fc.constantFrom('text', 'reasoning'),
  text: fc.string(),
  state: optional(fc.constantFrom('streaming', 'done')),
  providerMetadata: optional(providerMetadata),
});
const file = fc
  .tuple(mediaType, mediaType, base64, fc.webUrl(), fc.nat(2), optional(fc.string()))
  .map(([type, other, data, web, pick, filename]) => ({
    type: 'file',
    mediaType: type,
    url: [`data:${type};base64,${data}`, `data:${other};base64,${data}`, web][pick] as string,
    ...(filename === undefined ? {} : { filename }),
  }));
const sources = fc.oneof(
  part({ type: fc.constant('source-url'), sourceId: id, url: fc.webUrl(), title: optional(fc.string()) }),
  part({
    type: fc.constant('source-document'),
    sourceId: id,
    mediaType,
    title: fc.string(),
    filename: optional(fc.string()),
  }),
);
const others = fc.oneof(
  fc.constant({ type: 'step-start' }),
  part({ type: fc.constantFrom('data-weather', 'data-progress'), id: optional(id), data: json }),
  part({ type: fc.constant('custom'), kind: fc.constant('acme.widget') }),
  part({ type: fc.constant('reasoning-file'), mediaType, url: fc.webUrl() }),
);
const approval = (approved?: boolean) =>
  part({ id, ...(approved === undefined ? {} : { approved: fc.constant(approved) }), reason: optional(fc.string()) });
const toolState = fc.oneof(
  part({ state: fc.constant('input-streaming'), input: optional(jsonObject) }),
  part({ state: fc.constant('input-available'), input: fc.oneof(jsonObject, fc.string()) }),
  part({ state: fc.constant('approval-requested'), input: jsonObject, approval: approval() }),
  part({ state: fc.constant('approval-responded'), input: jsonObject, approval: approval(true) }),
  part({
    state: fc.constant('output-available'),
    input: jsonObject,
    output: json,
    preliminary: optional(fc.boolean()),
  }),
  part({ state: fc.constant('output-error'), input: jsonObject, errorText: fc.string() }),
  part({ state: fc.constant('output-denied'), input: jsonObject, approval: approval(false) }),
);
const tool = fc
  .tuple(
    fc.oneof(
      fc.constantFrom('add', 'weather').map((name) => ({ type: `tool-${name}` })),
      id.map((toolName) => ({ type: 'dynamic-tool', toolName })),
    ),
    id,
    toolState,
    optional(fc.string()),
    optional(fc.boolean()),
  )
  .map(([kind, toolCallId, state, title, providerExecuted]) => ({
    ...kind,
    toolCallId,
    ...state,
    ...(title === undefined ? {} : { title }),
    ...(providerExecuted === undefined ? {} : { providerExecuted }),
  }));

export const uiMessage: fc.Arbitrary<UIMessage> = part({
  id,
  role: fc.constantFrom('system', 'user', 'assistant'),
  metadata: optional(json.filter((v) => v !== null)),
  parts: fc.array(fc.oneof(text, file, sources, others, tool), { maxLength: 8 }),
}) as unknown as fc.Arbitrary<UIMessage>;
