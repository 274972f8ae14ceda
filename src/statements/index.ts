/**
 * Monthly statements wired into the app: the `statement` effect over the app's media store.
 * Names the parts it needs instead of importing the app.
 */
import type { Engine } from '../engine/index.js';
import type { I18n } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { MediaStore } from '../store/media.js';
import { registerStatementEffects, StatementService } from './service.js';

export interface StatementsParts {
  logger: Logger;
  engine: Engine;
  i18n: I18n;
  media: MediaStore;
}

export function wireStatements(parts: StatementsParts): void {
  const log = parts.logger.child({ component: 'statements' });
  const service = new StatementService({
    media: parts.media,
    i18n: parts.i18n,
    onBuilt: (ms, pdf, csv) => log.info({ ms: Math.round(ms), pdf, csv }, 'statement built'),
  });
  registerStatementEffects(parts.engine, service);
}
