/**
 * The DID token the provider's logins resolve to, as its admin SDKs verify
 * it: standard base64 of the JSON array `[proof, claim]`, where `claim` is a
 * JSON string and `proof` its `personal_sign` signature by the user's key.
 * The claim's `add` is the user's `personal_sign` signature of the
 * attachment (`'none'` unless `generateIdToken` was given one): the
 * published `@magic-sdk/admin` refuses a claim without it as malformed, and
 * checks its signer when the backend passes the attachment it expects.
 */
import type { Address, Hex } from 'viem'

/** The claim of a DID token. */
export type Claim = {
  iat: number
  ext: number
  nbf: number
  iss: string
  sub: string
  aud: string
  tid: string
  /** `personal_sign` signature of the attachment by the user's key. */
  add: Hex
}

/** The attachment a token signs when none is given. */
export const defaultAttachment = 'none'

/** Default lifespan: 900 seconds (15 minutes). */
export const defaultLifespan = 900

/**
 * Creates a DID token.
 *
 * @param options.attachment - What `add` signs. @default 'none'
 * @param options.sign - Signs a message with the user's key (`personal_sign`).
 */
export async function createDidToken(options: {
  address: Address
  subject: string
  audience: string
  now: Date
  lifespan?: number | undefined
  attachment?: string | undefined
  sign: (message: string) => Promise<Hex>
}): Promise<string> {
  const {
    address,
    subject,
    audience,
    now,
    attachment = defaultAttachment,
    sign,
  } = options
  const lifespan = options.lifespan ?? defaultLifespan
  const iat = Math.floor(now.getTime() / 1000)
  const claim: Claim = {
    iat,
    ext: iat + lifespan,
    nbf: iat,
    iss: `did:ethr:${address}`,
    sub: subject,
    aud: audience,
    tid: crypto.randomUUID(),
    add: await sign(attachment),
  }
  const claimString = JSON.stringify(claim)
  const proof = await sign(claimString)
  return Buffer.from(JSON.stringify([proof, claimString])).toString('base64')
}

/** Decodes a DID token into its proof, claim string and claim. */
export function decodeDidToken(token: string): {
  proof: Hex
  claim: string
  parsed: Claim
} {
  const [proof, claim] = JSON.parse(
    Buffer.from(token, 'base64').toString('utf8'),
  ) as [Hex, string]
  return { proof, claim, parsed: JSON.parse(claim) as Claim }
}

/** The client id (`aud`) the emulator derives from an API key. */
export async function clientIdOf(apiKey: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(`magic-client:${apiKey}`),
  )
  return Buffer.from(digest).toString('base64url').slice(0, 43)
}
