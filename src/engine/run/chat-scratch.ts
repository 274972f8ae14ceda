import type { ChatScratch } from '../../channels/types.js';

/** A chat's scratch with what to save: `changed()` is the JSON to store, or undefined. */
export type TrackedScratch = ChatScratch & { changed(): string | undefined };

/** The chat's scratch over its stored JSON; `changed()` is the JSON to save, or undefined. */
export function chatScratch(stored: string | undefined): TrackedScratch {
  let values: Record<string, string> = {};
  try {
    const parsed: unknown = stored ? JSON.parse(stored) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      values = Object.fromEntries(
        Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
  } catch {
    // Cosmetic state: an unreadable scratch starts empty.
  }
  let dirty = false;
  return {
    get: (name) => values[name],
    set(name, value) {
      if (values[name] === value) return;
      if (value === undefined) delete values[name];
      else values[name] = value;
      dirty = true;
    },
    changed: () => (dirty ? JSON.stringify(values) : undefined),
  };
}
