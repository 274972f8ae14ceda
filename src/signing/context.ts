/** What every signing route handler is given: the services (once) and the request on a known link. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { I18n } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import type { SigningIntent, SigningService } from './ports.js';

export interface SigningContext {
  service: SigningService;
  i18n: I18n;
  log: Logger;
  /** With it, the EVM page offers WalletConnect when no wallet is injected. */
  walletConnectProjectId?: string;
  /** Whether recovery may still restore a sale unknown now (Redis came back empty). */
  restoring?: () => Promise<boolean>;
}

/** A request under `/sign/<token>/<action>` whose token names a sale. */
export interface LinkRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  intent: SigningIntent;
  /** False once the link expired, was used or cancelled. */
  alive: boolean;
}

/** One action on a link: `/sign/<token>/<action>` with `method`, for the sales `accepts` lets through. */
export interface LinkRoute {
  action: string;
  method: 'GET' | 'POST';
  accepts?: (intent: SigningIntent) => boolean;
  /** Also served once the link is dead (the handler then decides). */
  afterExpiry?: boolean;
  handle: (ctx: SigningContext, r: LinkRequest) => Promise<void>;
}
