/**
 * Price charts over WhatsApp, the whole app with real Redis on both transports: on the Cloud API (the
 * fake Graph API) the picture is uploaded as media and sent as an image message naming it, on baileys
 * (a recording socket) as an image message; its caption the rates, the range choices follow, and the
 * PNG has its lines where the kept rates put them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisRateHistory } from '../../src/charts/history-redis.js';
import { COLOURS, HEIGHT, layout, WIDTH } from '../../src/charts/svg.js';
import { FakeWhatsAppGraphApi } from '../fakes/whatsapp-graph-api.js';
import { connectTestRedis } from '../helpers/redis.js';
import { startWaRig, TRANSPORTS, type WaRig } from '../journeys/whatsapp-drivers.js';
import { decodePng } from './pixels.js';

const MIN = 60_000;
const usdt = { token: 'USDT', network: 'celo' };

describe.each(TRANSPORTS)('a price chart over WhatsApp (%s)', (transport) => {
  let rig: WaRig;

  beforeAll(async () => {
    rig = await startWaRig(transport);
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

  it('is sent as an image with the rates as its caption, then the range choices', async () => {
    const u = rig.user(transport === 'cloud' ? '254712340077' : '254712340078');
    await u.say('/price USDT celo');
    await u.until(/Buy rate now: KES 131\.00/);
    const [png] = rig.images(u.waId);
    expect(png).toBeDefined();
    await linesWhereRatesAre(rig, png!);
    if (transport === 'baileys') {
      // No buttons on baileys: the ranges are a numbered menu after the picture.
      await u.until(/7 days/);
      return;
    }
    const graph = rig.graph!;
    const image = await graph.waitFor(() => graph.to(u.waId).find((m) => m.type === 'image'), 8000, 'image');
    expect(FakeWhatsAppGraphApi.textOf(image)).toMatch(
      /USDT on Celo, the last 24 hours[\s\S]*Sell rate now: KES 127\.00/,
    );
    expect(graph.media.get(image.body.image.id)?.mime).toBe('image/png');
    const choices = await graph.waitFor(
      () =>
        graph.to(u.waId).find((m) => FakeWhatsAppGraphApi.choicesOf(m).some((id) => id.endsWith(':7d:p'))),
      8000,
      'the range choices',
    );
    expect(choices.at).toBeGreaterThanOrEqual(image.at);
  }, 30_000);
});

async function linesWhereRatesAre(rig: WaRig, png: Buffer): Promise<void> {
  const pic = decodePng(png);
  expect([pic.width, pic.height]).toEqual([WIDTH, HEIGHT]);
  const redis = await connectTestRedis();
  const now = Date.now();
  const h = await new RedisRateHistory(redis, rig.prefix).read(usdt, '24h', now);
  await redis.quit();
  const l = layout(h, now);
  const p = h.points.findLast((x) => x.at <= now - 3 * 3600_000)!;
  expect(pic.near(l.x(p.at), l.y(p.buy!), COLOURS.buy, 2)).toBe(true);
  expect(pic.near(l.x(p.at), l.y(p.sell!), COLOURS.sell, 2)).toBe(true);
}
