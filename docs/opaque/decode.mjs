// Decodes (and encodes) uid's opaque IDs from the specification in docs/ids-as-text.md, with nothing but Node.js's
// built-in crypto (AES-ECB): FF1 of NIST SP 800-38G over the ID's bits, radix 62 at a fixed width, a key version.
//
//   node docs/opaque/decode.mjs docs/opaque/vectors.json      checks every vector both ways, exit 0 when all agree
//   node docs/opaque/decode.mjs <base64 key> <bits> <text> [tweak] [version]   prints the ID
//   node docs/opaque/decode.mjs encode <base64 key> <bits> <id> [tweak] [version]   prints the text
import { createCipheriv } from 'node:crypto';
import { readFileSync } from 'node:fs';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** AES of one 16-byte block under the key (16, 24 or 32 bytes). */
function aes(key, block) {
  const cipher = createCipheriv(`aes-${key.length * 8}-ecb`, key, null);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(block), cipher.final()]);
}

/** NUM(S): the bytes as a big-endian unsigned integer. */
function num(bytes) {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return value;
}

/** [x]^length: x as length big-endian bytes. */
function bytesOf(x, length) {
  const out = Buffer.alloc(length);
  for (let i = length - 1; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

/** FF1 with radix 2 over n bits (x and the result as integers, the first bit of the string the highest). */
function ff1(key, tweak, n, x, encrypt) {
  const u = Math.floor(n / 2);
  const v = n - u;
  const b = Math.ceil(v / 8); // ceil(ceil(v * log2(2)) / 8)
  const d = 4 * Math.ceil(b / 4) + 4;
  const t = tweak.length;
  const p = Buffer.concat([Buffer.from([1, 2, 1, 0, 0, 2, 10, u % 256]), bytesOf(BigInt(n), 4), bytesOf(BigInt(t), 4)]);
  const pad = (((-t - b - 1) % 16) + 16) % 16;
  const y = (i, half) => {
    const q = Buffer.concat([tweak, Buffer.alloc(pad), Buffer.from([i]), bytesOf(half, b)]);
    let r = aes(key, p); // PRF(P || Q): CBC-MAC, zero IV
    for (let j = 0; j < q.length; j += 16) {
      const block = Buffer.alloc(16);
      for (let k = 0; k < 16; k++) block[k] = r[k] ^ q[j + k];
      r = aes(key, block);
    }
    return num(r.subarray(0, d)); // d <= 16 for n <= 64, so S is the first d bytes of R
  };
  let a = x >> BigInt(v);
  let bHalf = x & ((1n << BigInt(v)) - 1n);
  if (encrypt) {
    for (let i = 0; i < 10; i++) {
      const m = BigInt(i % 2 === 0 ? u : v);
      const c = (a + y(i, bHalf)) % (1n << m);
      a = bHalf;
      bHalf = c;
    }
  } else {
    for (let i = 9; i >= 0; i--) {
      const m = BigInt(i % 2 === 0 ? u : v);
      const c = (((bHalf - y(i, a)) % (1n << m)) + (1n << m)) % (1n << m);
      bHalf = a;
      a = c;
    }
  }
  return (a << BigInt(v)) | bHalf;
}

/** Radix-62 digits of the largest value of n bits: the fixed width of every text. */
function width(n) {
  let w = 0;
  for (let rest = (1n << BigInt(n)) - 1n; rest > 0n; rest /= 62n) w++;
  return w;
}

function encode(key, bits, tweak, version, id) {
  let value = ff1(key, tweak, bits, id, true);
  let text = '';
  for (let i = 0; i < width(bits); i++) {
    text = ALPHABET[Number(value % 62n)] + text;
    value /= 62n;
  }
  return version + text;
}

function decode(key, bits, tweak, version, text) {
  const w = width(bits);
  if (text.length !== w + version.length || !text.startsWith(version)) {
    throw new Error(`'${text}' is not an opaque ID of key version '${version}' and ${bits} bits`);
  }
  let value = 0n;
  for (const c of text.slice(version.length)) {
    const digit = ALPHABET.indexOf(c);
    if (digit < 0) throw new Error(`'${c}' is not a radix-62 digit`);
    value = value * 62n + BigInt(digit);
  }
  if (value >> BigInt(bits) !== 0n) throw new Error(`'${text}' is beyond ${bits} bits`);
  return ff1(key, tweak, bits, value, false);
}

const args = process.argv.slice(2);
if (args.length === 1) {
  const { vectors } = JSON.parse(readFileSync(args[0], 'utf8'));
  let failures = 0;
  for (const vector of vectors) {
    const key = Buffer.from(vector.key, 'base64');
    const tweak = Buffer.from(vector.tweak, 'utf8');
    const id = BigInt(vector.id);
    const decoded = decode(key, vector.bits, tweak, vector.version, vector.text);
    const encoded = encode(key, vector.bits, tweak, vector.version, id);
    if (decoded !== id || encoded !== vector.text) {
      failures++;
      console.log(`FAIL ${vector.text}: decoded ${decoded}, encoded ${encoded}, expected ${vector.id}`);
    }
  }
  console.log(`${vectors.length - failures} of ${vectors.length} vectors agree`);
  process.exit(failures === 0 && vectors.length > 0 ? 0 : 1);
} else if (args[0] === 'encode' && args.length >= 4) {
  const [, key, bits, id, tweak = '', version = ''] = args;
  console.log(encode(Buffer.from(key, 'base64'), Number(bits), Buffer.from(tweak, 'utf8'), version, BigInt(id)));
} else if (args.length >= 3) {
  const [key, bits, text, tweak = '', version = ''] = args;
  console.log(decode(Buffer.from(key, 'base64'), Number(bits), Buffer.from(tweak, 'utf8'), version, text).toString());
} else {
  console.error('usage: node decode.mjs <vectors.json> | <base64 key> <bits> <text> [tweak] [version]'
    + ' | encode <base64 key> <bits> <id> [tweak] [version]');
  process.exit(2);
}
