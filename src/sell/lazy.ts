/**
 * Local selling on first use. In local mode the dev chain (hardhat) and the Algorand stand-in cost
 * 100 MB and several seconds (loading hardhat is most of it), and most runs never sell: they start,
 * and selling is wired, when a sell effect first runs. Until then the sandbox lists the dev tokens at
 * their known addresses. The first sale does not wait for them at its first question: the tokens to
 * choose from are known without the chain, so its questions go on while the chain starts, and only
 * Confirm (the signing link) waits for what is left; typed answers keep their step.
 * A leaf module: nothing here loads a chain library until `get()` is called.
 */

import type { EffectHandler, Engine } from '../engine/index.js';
import type { HttpRoute, HttpServer } from '../http/index.js';
import type { HashCheck, SandboxToken } from '../sandbox/index.js';
import type { LocalSellDemo } from './local/local.js';
import { localDemoOptions, localDemoSandboxTokens } from './local/local-tokens.js';
import type { LazySellDemo, SellParts } from './parts.js';
import type { SellEscalation } from './service.js';

export type { LazySellDemo } from './parts.js';

/** Where the signing pages and the pinned WalletConnect files are served (signing/routes, walletconnect). */
export const SIGNING_PATH = '/sign';
export const WALLETCONNECT_PATH = '/walletconnect/';

/** The effects `registerSellEffects` handles (test/sell/lazy.test.ts keeps the two in step). */
export const SELL_EFFECT_TYPES = [
  'sellOptions',
  'sellCreateIntent',
  'sellReportHash',
  'sellCancelIntent',
  'sellDevSign',
] as const;

/** A local sell demo that starts on first use; `onStart` is told when it starts and when it is up. */
export function lazySellDemo(onStart?: (phase: 'starting' | 'ready', ms?: number) => void): LazySellDemo {
  let demo: Promise<LocalSellDemo> | undefined;
  let started = false;
  const get = () => {
    demo ??= (async () => {
      onStart?.('starting');
      const t0 = Date.now();
      const { startLocalSellDemo } = await import('./local/local.js');
      const d = await startLocalSellDemo();
      started = true;
      onStart?.('ready', Date.now() - t0);
      return d;
    })();
    demo.catch(() => {
      demo = undefined;
    });
    return demo;
  };
  const tokens: SandboxToken[] = localDemoSandboxTokens();
  return {
    get,
    get started() {
      return started;
    },
    sandboxOptions: {
      tokens,
      verifyOfframpHash: async (o: HashCheck) => (await get()).sandboxOptions.verifyOfframpHash(o),
    },
    async stop() {
      if (!demo) return;
      const d = await demo.catch(() => undefined);
      await d?.stop();
    },
  };
}

/**
 * Registers the sell effects as stubs that, on the first call, start the local demo (if any), wire selling
 * (`wireSell`) against an engine view that collects its handlers, then hand every call to them.
 * Returns the stop function of whatever was wired.
 */
export function wireSellOnFirstUse(
  parts: SellParts,
  onEscalate: (c: SellEscalation) => Promise<void>,
): () => Promise<void> {
  const handlers = new Map<string, EffectHandler>();
  const routes: HttpRoute[] = [];
  let wired: Promise<() => Promise<void>> | undefined;
  const collecting: Engine = {
    ...parts.engine,
    registerEffect: (type, handler) => {
      handlers.set(type, handler as EffectHandler);
    },
  };
  const http: HttpServer = { ...parts.http, addRoute: (route) => void routes.push(route) };
  const wire = () => {
    wired ??= (async () => {
      const localDemo = await parts.sellDemo?.get();
      const { wireSell } = await import('./index.js');
      return wireSell(
        { ...parts, engine: collecting, http },
        { ...(localDemo ? { localDemo } : {}), onEscalate },
      );
    })();
    wired.catch((err: unknown) => {
      wired = undefined;
      parts.logger.warn(
        { err: err instanceof Error ? err.message : String(err) },
        parts.sellDemo
          ? 'local selling could not start (the dev chain needs hardhat: npm install with dev dependencies)'
          : 'selling could not be wired',
      );
    });
    return wired;
  };
  let ready = false;
  for (const type of SELL_EFFECT_TYPES) {
    parts.engine.registerEffect(type, async (effect, ctx) => {
      // Local mode, not wired yet: the token list without the chain, the chain starting meanwhile.
      if (type === 'sellOptions' && parts.sellDemo && !ready) {
        void wire().then(
          () => {
            ready = true;
          },
          () => undefined,
        );
        return { kind: 'sellOptions', tokens: await localDemoOptions(parts.ramp) };
      }
      await wire();
      ready = true;
      const handler = handlers.get(type);
      if (!handler) throw new Error(`selling registered no handler for ${type}`);
      return handler(effect, ctx);
    });
  }
  // The signing pages (and the WalletConnect files) answer from the first request on, wiring selling
  // if no sell effect did yet: a link opened after a restart still gets its page.
  for (const path of [SIGNING_PATH, ...(parts.config.WALLETCONNECT_PROJECT_ID ? [WALLETCONNECT_PATH] : [])]) {
    parts.http.addRoute({
      method: '*',
      path,
      prefix: true,
      handler: async (req, res) => {
        const ok = await wire().then(
          () => true,
          () => false,
        );
        const method = (req.method ?? 'GET').toUpperCase();
        const route = routes.find(
          (r) => r.path === path && (r.method === '*' || r.method.toUpperCase() === method),
        );
        if (route) return route.handler(req, res);
        res.writeHead(ok ? 404 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: ok ? 'not found' : 'selling is unavailable' }));
      },
    });
  }
  return async () => {
    const stop = await wired?.catch(() => undefined);
    await stop?.();
  };
}
