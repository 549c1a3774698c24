/**
 * The two base64 alphabets of the iframe protocol: standard base64 (RFC 4648,
 * section 4) for the encoded iframe parameters and the device share, and
 * unpadded base64url (RFC 4648, section 5) for the compact JWS of the DPoP
 * proof. Written with `btoa`/`atob` and typed arrays only, which browsers
 * and Node both have, so that client and emulator can share them.
 */

/** Standard base64 (`+ / =`) of `bytes`. */
export function fromBytes(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** The bytes of standard base64 `text`; throws on anything that is not. */
export function toBytes(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0))
}

/** Base64url without padding, as JWS uses it (RFC 7515, section 2), of `bytes`. */
export function urlFromBytes(bytes: Uint8Array): string {
  return fromBytes(bytes)
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

/** Base64url without padding of the UTF-8 bytes of `text`. */
export function urlFromString(text: string): string {
  return urlFromBytes(utf8.encode(text))
}

/** One encoder for every call (it keeps no state between them). */
const utf8 = /* @__PURE__ */ new TextEncoder()

/** The bytes of base64url `text`, padded or not. */
export function urlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/')
  return toBytes(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='))
}
