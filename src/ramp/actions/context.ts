import type * as z from 'zod';
import { RampServerError } from '../errors.js';
import type { Transport } from '../http.js';
import type { Generation, RampPaths } from '../paths.js';

/** What every endpoint function gets: the wire, the path table and the generation. */
export interface RampContext {
  send: Transport;
  paths: RampPaths;
  generation: Generation;
}

/** Parses an answer with a schema; a shape we cannot read is the service's fault. */
export function read<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues = r.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
    .join('; ');
  throw new RampServerError(`The ramp's ${what} answer has an unexpected shape (${issues}).`);
}
