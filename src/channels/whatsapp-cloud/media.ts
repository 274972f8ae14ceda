/**
 * A picture part as Meta takes it: the outbox holds its media store reference, and at its turn the
 * bytes are uploaded (POST /<number id>/media) and the message names the media id Meta gave. A
 * picture no longer kept goes as its caption alone.
 */
import type { WireMessage } from './graph.js';
import type { OutboundContext } from './outbound-types.js';

export async function withMedia(
  ctx: Pick<OutboundContext, 'graph' | 'log' | 'media'>,
  message: WireMessage,
): Promise<WireMessage> {
  const image = message.type === 'image' ? (message.image as { ref?: string; caption?: string }) : undefined;
  if (!image?.ref) return message;
  const caption = image.caption ? { caption: image.caption } : {};
  const bytes = await ctx.media?.get(image.ref);
  if (!bytes) {
    ctx.log.warn({ ref: image.ref }, 'picture not found in the media store; its caption goes alone');
    return { type: 'text', text: { body: image.caption || '…', preview_url: false } };
  }
  const id = await ctx.graph.upload(bytes, 'image/png', 'picture.png');
  return { type: 'image', image: { id, ...caption } };
}
