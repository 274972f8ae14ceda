/** Forwards to the sandbox; a ticket call is forwarded (so it is filed) and then answered 502. */
export async function ticketFailingProxy(target: string) {
  const { createServer, request } = await import('node:http');
  const base = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const up = request(
        { host: base.hostname, port: base.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () => {
            if (/ticket/.test(req.url ?? '')) {
              res.writeHead(502, { 'content-type': 'text/html' });
              return res.end('<html>502 Bad Gateway</html>');
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(body));
          });
        },
      );
      up.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
