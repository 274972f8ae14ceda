/**
 * A picture or document part as Meta takes it: the outbox holds its media store reference, and at
 * its turn the bytes are uploaded (POST /<number id>/media) and the message names the media id Meta
 * gave (a document also its filename, which WhatsApp shows). Media no longer kept goes as its
 * caption alone.
 */
import type { WireMessage } from '../graph.js';
import type { OutboundContext } from './outbound-types.js';

interface MediaPart {
  ref?: string;
  caption?: string;
  filename?: string;
  mime?: string;
}

export async function withMedia(
  ctx: Pick<OutboundContext, 'graph' | 'log' | 'media'>,
  message: WireMessage,
): Promise<WireMessage> {
  const kind = message.type === 'image' || message.type === 'document' ? message.type : undefined;
  const part = kind ? (message[kind] as MediaPart) : undefined;
  if (!kind || !part?.ref) return message;
  const caption = part.caption ? { caption: part.caption } : {};
  const bytes = await ctx.media?.get(part.ref);
  if (!bytes) {
    ctx.log.warn({ ref: part.ref, kind }, 'media not found in the media store; its caption goes alone');
    return { type: 'text', text: { body: part.caption || '…', preview_url: false } };
  }
  if (kind === 'image') {
    const id = await ctx.graph.upload(bytes, 'image/png', 'picture.png');
    return { type: 'image', image: { id, ...caption } };
  }
  const filename = part.filename ?? 'document';
  const id = await ctx.graph.upload(bytes, uploadType(part.mime), filename);
  return { type: 'document', document: { id, filename, ...caption } };
}

/** Meta's upload takes a fixed list of document types: CSV is not on it, so it goes as plain text (its name keeps `.csv`). */
function uploadType(mime: string | undefined): string {
  if (!mime) return 'application/octet-stream';
  return mime.startsWith('text/') ? 'text/plain' : mime;
}
