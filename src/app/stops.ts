/** What the app started, as stop functions; stopped last-first, so channels stop before what they use. */
export type Stops = Array<() => Promise<void>>;
