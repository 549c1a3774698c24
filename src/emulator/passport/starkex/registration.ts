/**
 * Off-chain registration of a player's Stark key, and the users lookup:
 *
 * - `POST /v1/signable-registration-offchain` `{ ether_key, stark_key }` →
 *   the `payload_hash` the Stark key signs (StarkEx's `UserRegistration:`
 *   hash, see stark.ts) and the `signable_message` the Ethereum key signs;
 * - `POST /v2/passport/users` [Bearer] `{ eth_signature, ether_key,
 *   stark_signature, stark_key }` → 201: both signatures checked, the
 *   Ethereum key being the player's custody key; the player's registry
 *   entry then carries `imx_eth_address` = `imx_user_admin_address` = the
 *   custody key and `imx_stark_address` = the Stark key, which the identity
 *   provider's next tokens carry. A second registration is 409;
 * - `GET /v1/users/{user}` → `{ accounts: [stark_key] }`, or 404 with code
 *   `account_not_found` (the code the published x-client looks for).
 *
 * @packageDocumentation
 */
import type { Hono } from 'hono'
import { type Hex, recoverMessageAddress } from 'viem'
import type { components } from '../../../api/wire/imx/schema.generated.js'
import { findCustody } from '../custody.js'
import {
  addressOf,
  type Deps,
  fail,
  isRecord,
  readJson,
  requirePlayer,
  type StarkExEnv,
  starkKeyOf,
} from './http.js'
import { type Account, LedgerError, LedgerFullError } from './ledger.js'
import { releaseFeeEscrow } from './market.js'
import {
  isOnCurve,
  parseStarkSignature,
  payloadHashText,
  registrationHash,
  registrationMessage,
  verifyStarkSignature,
} from './stark.js'

type Schemas = components['schemas']

/** The code of the users lookup's 404, as the published x-client reads it. */
export const accountNotFound = 'account_not_found'

/** Mounts the registration and users routes. */
export function registrationRoutes(app: Hono<StarkExEnv>, deps: Deps) {
  app.post('/v1/signable-registration-offchain', async (c) => {
    const body = await readJson(c)
    if (!isRecord(body))
      return fail(
        c,
        'validation',
        'Expected a JSON body { ether_key, stark_key }.',
      )
    const etherKey = addressOf(body.ether_key)
    if (!etherKey)
      return fail(c, 'validation', 'ether_key must be an Ethereum address.')
    const starkKey = starkKeyOf(body.stark_key)
    if (!starkKey || !isOnCurve(starkKey))
      return fail(
        c,
        'validation',
        'stark_key must be a Stark public key (the x-coordinate of a point of the Stark curve, in hex).',
      )
    const payloadHash = payloadHashText(
      registrationHash(etherKey, BigInt(starkKey)),
    )
    const readable = JSON.stringify({
      type: 'RegisterUserOffchain',
      ether_key: etherKey.toLowerCase(),
      stark_key: starkKey,
    })
    return c.json({
      payload_hash: payloadHash,
      readable_transaction: readable,
      signable_message: registrationMessage(etherKey, starkKey),
      verification_signature: await deps.verificationSignature(
        readable,
        payloadHash,
      ),
    } satisfies Schemas['GetSignableRegistrationOffchainResponse'])
  })

  app.post('/v2/passport/users', requirePlayer(deps), async (c) => {
    const player = c.var.player
    const body = await readJson(c)
    if (!isRecord(body))
      return fail(
        c,
        'validation',
        'Expected a JSON body { eth_signature, ether_key, stark_signature, stark_key }.',
      )
    if (player.passport.imxEthAddress !== undefined)
      return fail(
        c,
        'conflict',
        `The player is registered with StarkEx already (${player.passport.imxEthAddress}).`,
      )
    const etherKey = addressOf(body.ether_key)
    if (!etherKey)
      return fail(c, 'validation', 'ether_key must be an Ethereum address.')
    const custody = findCustody(deps.registry, deps.issuer, player.id)
    if (!custody || custody.address !== etherKey)
      return fail(
        c,
        'authentication',
        `ether_key ${etherKey} is not the player's custody key.`,
      )
    const starkKey = starkKeyOf(body.stark_key)
    if (!starkKey || !isOnCurve(starkKey))
      return fail(c, 'validation', 'stark_key must be a Stark public key.')
    if (deps.ledger.accountOf(etherKey) || deps.ledger.accountOfKey(starkKey))
      return fail(
        c,
        'conflict',
        `${deps.ledger.accountOf(etherKey) ? etherKey : `The Stark key ${starkKey}`} is registered already.`,
      )
    const ethSignature = ethSignatureOf(body.eth_signature)
    if (!ethSignature)
      return fail(
        c,
        'validation',
        'eth_signature must be a 65-byte signature r ‖ s ‖ v in hex (v 00, 01, 1b or 1c).',
      )
    let signer: string | undefined
    try {
      signer = await recoverMessageAddress({
        message: registrationMessage(etherKey, starkKey),
        signature: ethSignature,
      })
    } catch {
      signer = undefined
    }
    if (signer !== etherKey)
      return fail(
        c,
        'validation',
        `eth_signature does not sign the registration message for ${etherKey}.`,
      )
    const starkSignature = parseStarkSignature(body.stark_signature)
    const hash = registrationHash(etherKey, BigInt(starkKey))
    if (!starkSignature)
      return fail(
        c,
        'validation',
        'stark_signature must be 0x followed by r and s, 64 hex digits each.',
      )
    if (!verifyStarkSignature(starkSignature, hash, starkKey))
      return fail(
        c,
        'validation',
        `The Stark signature does not sign payload_hash ${payloadHashText(hash)} for Stark key ${starkKey}.`,
      )
    let account: Account
    try {
      account = deps.ledger.register({
        ethAddress: etherKey,
        starkKey,
        sub: player.id,
      })
    } catch (error) {
      if (error instanceof LedgerFullError)
        return fail(c, 'conflict', error.shortMessage)
      if (error instanceof LedgerError)
        return fail(c, 'conflict', error.shortMessage)
      throw error
    }
    // Fees paid to this address before it had a Stark key waited in its
    // escrow; they are its own now. A full ledger leaves them waiting.
    try {
      releaseFeeEscrow(deps.ledger, account)
    } catch (error) {
      if (!(error instanceof LedgerFullError)) throw error
    }
    deps.registry.setPassport(player.id, {
      imxEthAddress: etherKey,
      imxStarkAddress: starkKey as Hex,
      imxUserAdminAddress: etherKey,
    })
    return c.json(
      {
        ether_key: etherKey,
        stark_key: starkKey,
        user_admin_key: etherKey,
      } satisfies Schemas['RegisterPassportUserResult'],
      201,
    )
  })

  app.get('/v1/users/:user', (c) => {
    const account = deps.ledger.accountOf(c.req.param('user'))
    if (!account)
      return fail(
        c,
        'notFound',
        `No StarkEx account is registered for ${c.req.param('user')}.`,
        accountNotFound,
      )
    return c.json({
      accounts: [account.starkKey],
    } satisfies Schemas['GetUsersApiResponse'])
  })
}

/**
 * An EIP-191 signature as the published SDK sends it (r ‖ s ‖ v, v as
 * 00/01 or 1b/1c), with v as 1b/1c for viem; `undefined` if malformed.
 */
export function ethSignatureOf(value: unknown): Hex | undefined {
  if (typeof value !== 'string') return undefined
  const match = /^0x([0-9a-fA-F]{128})(00|01|1b|1c|1B|1C)$/.exec(value)
  if (!match) return undefined
  const v = Number.parseInt(match[2]!, 16)
  return `0x${match[1]}${(v < 27 ? v + 27 : v).toString(16)}`
}
