/**
 * Price charts over WhatsApp's Cloud API, the whole app on the fake Graph API with real Redis: the
 * picture is uploaded as media and sent as an image message naming it, its caption the rates, and
 * the range choices follow; the uploaded PNG has its lines where the kept rates put them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateHistory } from '../../src/charts/history-redis.js';
import { COLOURS, HEIGHT, layout, WIDTH } from '../../src/charts/svg.js';
import { FakeWhatsAppGraphApi } from '../fakes/whatsapp-graph-api.js';
import { connectTestRedis } from '../helpers/redis.js';
import { startWaRig, type WaRig } from '../journeys/whatsapp-drivers.js';
import { decodePng } from './pixels.js';

const MIN = 60_000;
const usdt = { token: 'USDT', network: 'celo' };
let rig: WaRig;

beforeAll(async () => {
  rig = await startWaRig('cloud');
  const redis = await connectTestRedis();
  const history = new RedisRateHistory(redis, rig.prefix);
  const now = Date.now();
  for (let m = 1439; m >= 0; m--) {
    await history.record(usdt, 'buy', 131 - m / 1440, now - m * MIN);
    await history.record(usdt, 'sell', 127, now - m * MIN);
  }
  await redis.quit();
}, 60_000);
afterAll(async () => {
  await rig?.stop();
});

describe('a price chart over the Cloud API', () => {
  it('is uploaded and sent as an image with the rates as its caption, then the range choices', async () => {
    const graph = rig.graph!;
    const u = rig.user('254712340077');
    await u.say('/price USDT celo');
    await u.until(/Buy rate now: KES 131\.00/);
    const image = await graph.waitFor(() => graph.to(u.waId).find((m) => m.type === 'image'), 8000, 'image');
    expect(FakeWhatsAppGraphApi.textOf(image)).toMatch(
      /USDT on Celo, the last 24 hours[\s\S]*Sell rate now: KES 127\.00/,
    );
    expect(graph.media.get(image.body.image.id)?.mime).toBe('image/png');
    const choices = await graph.waitFor(
      () => graph.to(u.waId).find((m) => FakeWhatsAppGraphApi.choicesOf(m).some((id) => id.endsWith(':7d'))),
      8000,
      'the range choices',
    );
    expect(choices.at).toBeGreaterThanOrEqual(image.at);

    const pic = decodePng(graph.mediaOf(image)!);
    expect([pic.width, pic.height]).toEqual([WIDTH, HEIGHT]);
    const redis = await connectTestRedis();
    const now = Date.now();
    const h = await new RedisRateHistory(redis, rig.prefix).read(usdt, '24h', now);
    await redis.quit();
    const l = layout(h, now);
    const p = h.points.findLast((x) => x.at <= now - 3 * 3600_000)!;
    expect(pic.near(l.x(p.at), l.y(p.buy!), COLOURS.buy, 2)).toBe(true);
    expect(pic.near(l.x(p.at), l.y(p.sell!), COLOURS.sell, 2)).toBe(true);
  }, 30_000);
});
