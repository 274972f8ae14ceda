/** A weekly standing buy of KES 500 of USDT on Polygon, as the store keeps it; `over` changes any field. */
import type { Plan } from '../../src/savings/plan.js';

export const weeklyPlan = (user: string, due: number, over: Partial<Plan> = {}): Omit<Plan, 'id'> => ({
  v: 1,
  u: user,
  t: 'USDT',
  n: 'polygon',
  w: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
  ph: '254712345678',
  kes: 500,
  c: 'w5@9',
  s: 'a',
  due,
  no: 0,
  past: [],
  ...over,
});
