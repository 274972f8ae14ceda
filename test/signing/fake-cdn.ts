/** A local stand-in for the CDN the WalletConnect files come from: serves given files, records paths. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function fakeCdn(files: Record<string, string>) {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://cdn').pathname;
    seen.push(path);
    const body = files[path.slice(1)];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/javascript' });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    files,
    requests: () => [...seen],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
