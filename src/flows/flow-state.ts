/** The shape every flow's persisted state shares, and the schema type of one (a leaf: no imports of flows). */
import type * as z from 'zod';

/**
 * A flow's persisted state: `name` says which flow; each flow's own schema says the rest (a flow
 * reads its state through its own type, `FlowDef<S>`, never through this one).
 */
export interface FlowState {
  name: string;
  // biome-ignore lint/suspicious/noExplicitAny: the fields belong to each flow's own state type
  [field: string]: any;
}

/** A flow's persisted-state schema: an object with a literal `name`, the table's discriminator. */
export type FlowStateSchema = z.ZodObject<{ name: z.ZodLiteral<string> } & z.ZodRawShape>;
