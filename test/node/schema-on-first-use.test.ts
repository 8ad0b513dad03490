/**
 * The boundary schemas are built on first use (src/schema.ts): loading the module, which the
 * worker does before its first answer, builds only the session key other modules take apart;
 * each request's schema is built by its first validation, once, and checks by the same rules.
 */
import { expect, it, vi } from 'vitest';
import { InvalidInputError } from '../../src/core/errors.js';

const objects = vi.hoisted(() => ({ built: 0 }));
vi.mock('zod/mini', async (importOriginal) => {
  const z = await importOriginal<typeof import('zod/mini')>();
  const object: typeof z.object = (...args) => {
    objects.built += 1;
    return z.object(...args);
  };
  return { ...z, object };
});

it('builds one object schema at load, and each request schema on its first validation, once', async () => {
  const { helloRequestSchema, eventSchema, validate } = await import('../../src/core/schema.js');
  expect(objects.built).toBe(1);

  expect(validate('hello', helloRequestSchema, { dbName: 'chat' })).toEqual({ dbName: 'chat' });
  expect(objects.built).toBe(2);
  expect(() => validate('hello', helloRequestSchema, { dbName: ' chat' })).toThrow(
    new InvalidInputError('hello: dbName: must not have surrounding whitespace'),
  );
  expect(helloRequestSchema()).toBe(helloRequestSchema());
  expect(objects.built).toBe(2);

  const event = { id: 'e1', timestamp: 1, content: { parts: [{ text: 'hi' }] } };
  expect(validate('appendEvent', eventSchema, event)).toEqual(event);
  const withEvent = objects.built;
  expect(withEvent).toBeGreaterThan(2);
  expect(() => validate('appendEvent', eventSchema, { ...event, timestamp: -1 })).toThrow(
    new InvalidInputError('appendEvent: timestamp: must not be negative'),
  );
  expect(objects.built).toBe(withEvent);
});
