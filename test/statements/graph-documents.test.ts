/**
 * Documents on the fake Graph API through the app's own Graph client: a PDF is uploaded and sent as
 * a document naming its media id and filename; the fake refuses what Meta refuses (a CSV's
 * text/csv type, a document without a filename, a media id never uploaded).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphClient, type GraphClient } from '../../src/channels/whatsapp-cloud/graph.js';
import { FakeWhatsAppGraphApi } from '../fakes/whatsapp-graph-api.js';

const opts = { token: 'graph-doc-token', phoneNumberId: '1098765432', appSecret: 'graph-doc-secret' };
const USER = '254712349900';
let fake: FakeWhatsAppGraphApi;
let graph: GraphClient;

beforeAll(async () => {
  fake = await FakeWhatsAppGraphApi.start(opts);
  graph = createGraphClient({ baseUrl: fake.graphUrl, phoneNumberId: opts.phoneNumberId, token: opts.token });
  fake.openWindow(USER);
});
afterAll(async () => {
  await fake?.close();
});

describe('documents on the fake Graph API', () => {
  it('uploads a PDF and sends it as a named document; refuses text/csv, no filename and unknown ids', async () => {
    const pdf = Buffer.from('%PDF-1.3\n%fake\n');
    const id = await graph.upload(pdf, 'application/pdf', 'statement.pdf');
    await graph.send(USER, {
      type: 'document',
      document: { id, filename: 'statement.pdf', caption: 'Yours' },
    });
    const sent = fake.to(USER).at(-1)!;
    expect(FakeWhatsAppGraphApi.textOf(sent)).toBe('Yours');
    expect(fake.mediaOf(sent)?.equals(pdf)).toBe(true);
    await expect(graph.upload(Buffer.from('a,b\r\n'), 'text/csv', 'rows.csv')).rejects.toThrow(/131053/);
    await expect(graph.send(USER, { type: 'document', document: { id } })).rejects.toThrow(/131009/);
    await expect(
      graph.send(USER, { type: 'document', document: { id: '42', filename: 'x.pdf' } }),
    ).rejects.toThrow(/131009/);
  });
});
