/**
 * Receipts wired into the app: the `receipt` effect over the tracker's order records and the media
 * store. Names the parts it needs instead of importing the app.
 */
import type { Engine } from '../engine/index.js';
import type { I18n } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { MediaStore } from '../store/media.js';
import type { Tracker } from '../tracker/index.js';
import { ReceiptService, registerReceiptEffects } from './service.js';

export interface ReceiptsParts {
  logger: Logger;
  engine: Engine;
  i18n: I18n;
  media: MediaStore;
  tracker: Pick<Tracker, 'recordOf'>;
}

export function wireReceipts(parts: ReceiptsParts): ReceiptService {
  const log = parts.logger.child({ component: 'receipts' });
  const service = new ReceiptService({
    records: parts.tracker,
    media: parts.media,
    i18n: parts.i18n,
    onDrawn: (ms, bytes) => log.debug({ ms: Math.round(ms), bytes }, 'receipt drawn'),
  });
  registerReceiptEffects(parts.engine, service);
  return service;
}
