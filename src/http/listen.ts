/**
 * Opening and closing the server: a busy port is named in the error; draining stops taking requests
 * and waits for those in flight; closing drops open connections.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens (port 0 = any free port) and resolves with the bound port and a base URL to reach it. */
export function listen(server: Server, port: number, host: string): Promise<{ port: number; url: string }> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(
              `HTTP_PORT ${port} is already in use on ${host}: set HTTP_PORT to a free port (0 picks one)`,
            )
          : err,
      );
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const addr = server.address() as AddressInfo;
      const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
      resolve({ port: addr.port, url: `http://${shownHost}:${addr.port}` });
    });
  });
}

/** Stops listening and ends every open connection. */
export function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    // A drained server no longer listens, but may still hold connections.
    if (server.listening) server.close((err) => (err ? reject(err) : resolve()));
    else resolve();
    server.closeAllConnections();
  });
}

/**
 * Counts requests in flight. Once `drain` is called the listener closes (new connections are
 * refused), a request arriving on a connection still open is answered 503 with `connection: close`,
 * and `drain` resolves when the requests in flight have been answered (or after `maxWaitMs`).
 */
export function drainable(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  let inFlight = 0;
  let draining = false;
  let idle: (() => void) | undefined;
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (draining) {
      res.writeHead(503, { connection: 'close', 'retry-after': '1' }).end();
      return;
    }
    inFlight += 1;
    res.once('close', () => {
      inFlight -= 1;
      if (inFlight === 0) idle?.();
    });
    handle(req, res);
  };
  const drain = async (server: Server, maxWaitMs: number): Promise<void> => {
    draining = true;
    if (server.listening) server.close();
    server.closeIdleConnections();
    if (inFlight === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, maxWaitMs);
      timer.unref();
      idle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  };
  return { listener, drain };
}
