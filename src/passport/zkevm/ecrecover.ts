/**
 * Ethereum's `ecrecover`: the address whose secp256k1 key made a 65-byte
 * `r ‖ s ‖ v` signature over a 32-byte hash. The provider needs it for one
 * thing only, to learn the address of a co-signer's EOA part so the parts
 * can be sorted (the wallet contract requires ascending signers), on public
 * data; so it is written here on `bigint` instead of bundling a general
 * elliptic-curve library with signing, hashing to curve and precomputed
 * tables, most of a page's wallet budget (`npm run size`). Not constant
 * time: nothing secret goes through it.
 *
 * The arithmetic is the textbook one for short Weierstrass curves with
 * a = 0 (public key recovery as SEC 1 describes it; Jacobian doubling and addition
 * as in the Explicit-Formulas Database, `dbl-2009-l` and `add-2007-bl`).
 */
import { type Address, getAddress, type Hex, keccak256 } from 'viem'

/** The field prime p = 2^256 − 2^32 − 977. */
const P = 2n ** 256n - 2n ** 32n - 977n
/** The group order n. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
/** The generator G (affine). */
const G: Point = [
  0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n,
  0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n,
  1n,
]

/** Jacobian coordinates (X, Y, Z): x = X/Z², y = Y/Z³; Z = 0 is infinity. */
type Point = [bigint, bigint, bigint]
const infinity: Point = [0n, 1n, 0n]

function mod(a: bigint, m = P): bigint {
  const r = a % m
  return r < 0n ? r + m : r
}

function pow(base: bigint, exponent: bigint, m: bigint): bigint {
  let result = 1n
  let b = mod(base, m)
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % m
    b = (b * b) % m
  }
  return result
}

/** The inverse modulo a prime (Fermat). */
function invert(a: bigint, m: bigint): bigint {
  return pow(a, m - 2n, m)
}

function double([x, y, z]: Point): Point {
  if (z === 0n || y === 0n) return infinity
  const a = mod(x * x)
  const b = mod(y * y)
  const c = mod(b * b)
  const d = mod(2n * (mod((x + b) ** 2n) - a - c))
  const e = mod(3n * a)
  const x3 = mod(e * e - 2n * d)
  return [x3, mod(e * (d - x3) - 8n * c), mod(2n * y * z)]
}

function add(p: Point, q: Point): Point {
  if (p[2] === 0n) return q
  if (q[2] === 0n) return p
  const [x1, y1, z1] = p
  const [x2, y2, z2] = q
  const z1z1 = mod(z1 * z1)
  const z2z2 = mod(z2 * z2)
  const u1 = mod(x1 * z2z2)
  const u2 = mod(x2 * z1z1)
  const s1 = mod(y1 * z2 * z2z2)
  const s2 = mod(y2 * z1 * z1z1)
  if (u1 === u2) return s1 === s2 ? double(p) : infinity
  const h = mod(u2 - u1)
  const r = mod(s2 - s1)
  const hh = mod(h * h)
  const hhh = mod(h * hh)
  const v = mod(u1 * hh)
  const x3 = mod(r * r - hhh - 2n * v)
  return [x3, mod(r * (v - x3) - s1 * hhh), mod(h * z1 * z2)]
}

/** u1·G + u2·R in one pass (Shamir's trick). */
function mulAdd(u1: bigint, u2: bigint, r: Point): Point {
  const both = add(G, r)
  let acc = infinity
  for (let bit = 255n; bit >= 0n; bit--) {
    acc = double(acc)
    const a = (u1 >> bit) & 1n
    const b = (u2 >> bit) & 1n
    if (a && b) acc = add(acc, both)
    else if (a) acc = add(acc, G)
    else if (b) acc = add(acc, r)
  }
  return acc
}

/**
 * The signer's address (checksummed) of `signature` (`r ‖ s ‖ v`, `v` 27/28
 * or 0/1) over `hash`, as the EVM's `ecrecover` gives it. Throws on a
 * signature no key can have made.
 */
export function recoverAddress(options: {
  hash: Hex
  signature: Hex
}): Address {
  const hex = options.signature.replace(/^0x/, '')
  if (hex.length !== 130) throw new Error('Invalid signature length')
  const r = BigInt(`0x${hex.slice(0, 64)}`)
  const s = BigInt(`0x${hex.slice(64, 128)}`)
  const v = Number.parseInt(hex.slice(128), 16)
  const parity = v === 0 || v === 1 ? v : v === 27 || v === 28 ? v - 27 : -1
  if (parity < 0) throw new Error('Invalid yParityOrV value')
  if (r <= 0n || r >= N || s <= 0n || s >= N)
    throw new Error('Invalid signature: r or s out of range')
  // R: the point with x = r whose y has the signature's parity
  // (p ≡ 3 mod 4, so a square root is a power).
  const ySquared = mod(r ** 3n + 7n)
  let y = pow(ySquared, (P + 1n) / 4n, P)
  if (mod(y * y) !== ySquared)
    throw new Error('Invalid signature: r is not on the curve')
  if (Number(y & 1n) !== parity) y = P - y
  // Q = r⁻¹ · (s·R − e·G)
  const e = mod(BigInt(options.hash), N)
  const rInverse = invert(r, N)
  const q = mulAdd(mod(-e * rInverse, N), mod(s * rInverse, N), [r, y, 1n])
  if (q[2] === 0n) throw new Error('Invalid signature: no public key')
  const zInverse = invert(q[2], P)
  const zz = mod(zInverse * zInverse)
  const x = mod(q[0] * zz)
  const qy = mod(q[1] * zz * zInverse)
  const key =
    `0x${x.toString(16).padStart(64, '0')}${qy.toString(16).padStart(64, '0')}` as Hex
  return getAddress(`0x${keccak256(key).slice(-40)}`)
}
