/** The messages waiting in an outbound line for their turn (./line.ts). */
import { OUTBOUND_CLASSES, type OutboundClass, type OutboundMessage, type Turn } from './line-types.js';

export interface Waiting {
  m: OutboundMessage;
  seq: number;
  since: number;
  send: (turn: Turn) => Promise<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** One queue per class, each in the order the messages came (a message put back keeps its place). */
export class LineQueues {
  private readonly byClass = new Map<OutboundClass, Waiting[]>(OUTBOUND_CLASSES.map((c) => [c, []]));
  size = 0;

  of(cls: OutboundClass): Waiting[] {
    return this.byClass.get(cls) as Waiting[];
  }

  insert(w: Waiting): void {
    const q = this.of(w.m.cls);
    let i = q.length;
    while (i > 0 && (q[i - 1] as Waiting).seq > w.seq) i--;
    q.splice(i, 0, w);
    this.size++;
  }

  /** Takes the message out; false when it was not waiting. */
  remove(w: Waiting): boolean {
    const q = this.of(w.m.cls);
    const i = q.indexOf(w);
    if (i < 0) return false;
    q.splice(i, 1);
    this.size--;
    return true;
  }
}
