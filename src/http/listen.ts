/** Opening and closing the server: a busy port is named in the error, closing drops open connections. */
import type { Server } from 'node:http';
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
    if (!server.listening) return resolve();
    server.close((err) => (err ? reject(err) : resolve()));
    server.closeAllConnections();
  });
}
