/**
 * The CA and serving certificate generated at start. Node's crypto makes keys and signatures but not
 * certificates, so the certificate is DER-encoded here (see der.ts): ECDSA P-256 keeps TLS handshakes cheap,
 * which matters because @kubernetes/client-node opens a new connection per request.
 */
import crypto from 'node:crypto';
import { bits, bool, explicit, integer, octets, oid, seq, set, time, tlv, utf8 } from './der.js';

/** PEM texts of the generated CA and the server's key pair. */
export interface ServingCerts {
  caPem: string;
  certPem: string;
  keyPem: string;
}

const ecdsaWithSha256 = seq(oid('1.2.840.10045.4.3.2'));

function name(cn: string): Buffer {
  return seq(set(seq(oid('2.5.4.3'), utf8(cn))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));
}

function keyUsage(mask: number, unusedBits: number): Buffer {
  return tlv(0x03, Buffer.from([unusedBits, mask]));
}

interface CertSpec {
  subject: string;
  issuer: string;
  publicKey: crypto.KeyObject;
  signer: crypto.KeyObject;
  isCa: boolean;
  now: number;
}

function certificate(spec: CertSpec): Buffer {
  const spki = spec.publicKey.export({ type: 'spki', format: 'der' });
  const ski = crypto.createHash('sha1').update(spki).digest();
  const exts = spec.isCa
    ? [
        extension('2.5.29.19', true, seq(bool(true))),
        extension('2.5.29.15', true, keyUsage(0x06, 1)),
        extension('2.5.29.14', false, octets(ski)),
      ]
    : [
        extension('2.5.29.19', true, seq()),
        // digitalSignature, keyEncipherment; serverAuth; SANs 127.0.0.1 and localhost.
        extension('2.5.29.15', true, keyUsage(0xa0, 5)),
        extension('2.5.29.37', false, seq(oid('1.3.6.1.5.5.7.3.1'))),
        extension('2.5.29.17', false, seq(tlv(0x87, Buffer.from([127, 0, 0, 1])), tlv(0x82, Buffer.from('localhost')))),
      ];
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(crypto.randomBytes(16)),
    ecdsaWithSha256,
    name(spec.issuer),
    seq(time(new Date(spec.now - 3600_000)), time(new Date(spec.now + 10 * 365 * 86400_000))),
    name(spec.subject),
    spki,
    explicit(3, seq(...exts)),
  );
  const signature = crypto.sign('sha256', tbs, spec.signer);
  return seq(tbs, ecdsaWithSha256, bits(signature));
}

function pem(der: Buffer): string {
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN CERTIFICATE-----\n${b64.endsWith('\n') ? b64 : `${b64}\n`}-----END CERTIFICATE-----\n`;
}

/** Generates a fresh CA and a serving certificate for 127.0.0.1 and localhost signed by it. */
export function generateServingCerts(now = Date.now()): ServingCerts {
  const ca = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const server = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const caDer = certificate({
    subject: 'tenon-apiserver-ca',
    issuer: 'tenon-apiserver-ca',
    publicKey: ca.publicKey,
    signer: ca.privateKey,
    isCa: true,
    now,
  });
  const certDer = certificate({
    subject: 'tenon-apiserver',
    issuer: 'tenon-apiserver-ca',
    publicKey: server.publicKey,
    signer: ca.privateKey,
    isCa: false,
    now,
  });
  return {
    caPem: pem(caDer),
    certPem: pem(certDer),
    keyPem: server.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
