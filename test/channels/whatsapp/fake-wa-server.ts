/**
 * A local WhatsApp Web socket server, enough for baileys to connect, finish the Noise handshake and
 * receive one scripted stanza (a QR pairing request, a logout `failure`, a `stream:error` restart) or
 * a plain close. Baileys only trusts a server certificate signed by WhatsApp's root key, so
 * `trustTestRoot()` swaps that public key for a test one (the way a test CA is installed) and puts
 * it back afterwards; nothing else in baileys is touched.
 */
import type { AddressInfo } from 'node:net';
import {
  aesDecryptGCM,
  aesEncryptGCM,
  type BinaryNode,
  Curve,
  encodeBinaryNode,
  hkdf,
  NOISE_MODE,
  NOISE_WA_HEADER,
  proto,
  sha256,
  WA_CERT_DETAILS,
} from '@whiskeysockets/baileys';
import { type WebSocket, WebSocketServer } from 'ws';

export type Script =
  /** Close the socket as soon as it opens. */
  | { kind: 'close' }
  /** Finish the handshake, then send this stanza. */
  | { kind: 'stanza'; node: BinaryNode };

export const stanzas = {
  loggedOut: (): Script => ({ kind: 'stanza', node: { tag: 'failure', attrs: { reason: '401' } } }),
  restartRequired: (): Script => ({ kind: 'stanza', node: { tag: 'stream:error', attrs: { code: '515' } } }),
  pairDevice: (): Script => ({
    kind: 'stanza',
    node: {
      tag: 'iq',
      attrs: { id: 'pair-1', type: 'set', from: 's.whatsapp.net' },
      content: [
        {
          tag: 'pair-device',
          attrs: {},
          content: [{ tag: 'ref', attrs: {}, content: Buffer.from('2@test-ref-1') }],
        },
      ],
    },
  }),
};

const testRoot = Curve.generateKeyPair();
const originalRoot = Buffer.from(WA_CERT_DETAILS.PUBLIC_KEY);

/** Makes baileys accept this server's certificate; returns the undo. */
export function trustTestRoot(): () => void {
  WA_CERT_DETAILS.PUBLIC_KEY.set(testRoot.public);
  return () => WA_CERT_DETAILS.PUBLIC_KEY.set(originalRoot);
}

function certificateChain(serverStatic: Uint8Array): Uint8Array {
  const intermediateKey = Curve.generateKeyPair();
  const Details = proto.CertChain.NoiseCertificate.Details;
  const intermediate = Details.encode({
    serial: 1,
    issuerSerial: WA_CERT_DETAILS.SERIAL,
    key: intermediateKey.public,
  }).finish();
  const leaf = Details.encode({ serial: 2, issuerSerial: 1, key: serverStatic }).finish();
  return proto.CertChain.encode({
    intermediate: { details: intermediate, signature: Curve.sign(testRoot.private, intermediate) },
    leaf: { details: leaf, signature: Curve.sign(intermediateKey.private, leaf) },
  }).finish();
}

const iv = (counter: number) => {
  const out = Buffer.alloc(12);
  out.writeUInt32BE(counter, 8);
  return out;
};

const frame = (data: Uint8Array) => {
  const out = Buffer.alloc(3 + data.length);
  out.writeUIntBE(data.length, 0, 3);
  out.set(data, 3);
  return out;
};

/** The server side of one Noise XX handshake, mirroring baileys' noise handler. */
function serverNoise(ws: WebSocket, onReady: (send: (node: BinaryNode) => void) => void) {
  let hash: Buffer = Buffer.from(NOISE_MODE);
  let salt: Buffer = hash;
  let key: Buffer = hash;
  let counter = 0;
  const serverEphemeral = Curve.generateKeyPair();
  const serverStatic = Curve.generateKeyPair();
  const authenticate = (data: Uint8Array) => {
    hash = sha256(Buffer.concat([hash, data]));
  };
  const mixIntoKey = (material: Uint8Array) => {
    const out = Buffer.from(hkdf(Buffer.from(material), 64, { salt, info: '' }));
    salt = out.subarray(0, 32);
    key = out.subarray(32);
    counter = 0;
  };
  const encrypt = (plain: Uint8Array) => {
    const cipher = aesEncryptGCM(plain, key, iv(counter++), hash);
    authenticate(cipher);
    return cipher;
  };
  const decrypt = (cipher: Uint8Array) => {
    const plain = aesDecryptGCM(Buffer.from(cipher), key, iv(counter++), hash);
    authenticate(cipher);
    return plain;
  };

  let step: 'hello' | 'finish' | 'transport' = 'hello';
  ws.on('message', (data: Buffer) => {
    if (step === 'hello') {
      const body = data.subarray(NOISE_WA_HEADER.length + 3);
      const clientEphemeral = proto.HandshakeMessage.decode(body).clientHello!.ephemeral!;
      authenticate(NOISE_WA_HEADER);
      authenticate(clientEphemeral);
      authenticate(serverEphemeral.public);
      mixIntoKey(Curve.sharedKey(serverEphemeral.private, clientEphemeral));
      const encStatic = encrypt(serverStatic.public);
      mixIntoKey(Curve.sharedKey(serverStatic.private, clientEphemeral));
      const encPayload = encrypt(certificateChain(serverStatic.public));
      const hello = proto.HandshakeMessage.encode({
        serverHello: { ephemeral: serverEphemeral.public, static: encStatic, payload: encPayload },
      }).finish();
      ws.send(frame(hello));
      step = 'finish';
    } else if (step === 'finish') {
      const finish = proto.HandshakeMessage.decode(data.subarray(3)).clientFinish!;
      const clientNoiseKey = decrypt(finish.static!);
      mixIntoKey(Curve.sharedKey(serverEphemeral.private, clientNoiseKey));
      decrypt(finish.payload!);
      const transport = Buffer.from(hkdf(Buffer.alloc(0), 64, { salt, info: '' }));
      const toClient = transport.subarray(32);
      let written = 0;
      step = 'transport';
      onReady((node) => {
        const cipher = aesEncryptGCM(encodeBinaryNode(node), toClient, iv(written++), Buffer.alloc(0));
        ws.send(frame(cipher));
      });
    }
  });
}

export interface FakeWhatsAppServer {
  url: string;
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

/** Starts the server on a random port; `next(n)` scripts the n-th connection (0-based). */
export async function startFakeWhatsAppServer(next: (n: number) => Script): Promise<FakeWhatsAppServer> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  let connections = 0;
  wss.on('connection', (ws) => {
    const script = next(connections++);
    ws.on('error', () => undefined);
    if (script.kind === 'close') {
      ws.close();
      return;
    }
    serverNoise(ws, (send) => send(script.node));
  });
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws/chat`,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}
