/**
 * The credentials of the creates that move assets: transfers (v1, v2),
 * trades (v3) and exchange transfers. Each takes a player's bearer token,
 * the signed wallet headers, or both (then both must pass):
 *
 * - `Authorization: Bearer …`: the player's access token; the sender is the
 *   player's StarkEx account;
 * - `x-imx-eth-address` and `x-imx-eth-signature`: the sender's Ethereum
 *   address and its EIP-191 signature (r ‖ s ‖ v, v as 00/01 or 1b/1c) of
 *   the `signable_message` the exchange answered with the request's
 *   payload hash, as the published x-client's workflows send them. The
 *   sender is the account of the Stark key the body names, and the
 *   address must be that account's.
 *
 * A request with neither is 401 and never reaches the route. The
 * guardian's approval is the route's own check, whichever credential came:
 * the headers prove the key, not the player's consent.
 *
 * @packageDocumentation
 */
import type { MiddlewareHandler } from 'hono'
import { type Address, type Hex, recoverMessageAddress } from 'viem'
import type { User } from '../../registry/index.js'
import {
  accountOfPlayer,
  addressOf,
  type Deps,
  fail,
  notRegistered,
  playerOf,
  type StarkExEnv,
  starkKeyOf,
} from './http.js'
import type { Account, Pending } from './ledger.js'
import { ethSignatureOf } from './registration.js'

/** The signed wallet headers' names. */
export const walletHeaderNames = {
  address: 'x-imx-eth-address',
  signature: 'x-imx-eth-signature',
} as const

/** The signed wallet headers of a request, well-formed (not yet checked against a message). */
export type WalletHeaders = {
  readonly address: Address
  /** v as 1b/1c. */
  readonly signature: Hex
}

/** What a create was sent as its credential: at least one of the two. */
export type Credential = {
  /** The player of a valid bearer token, when one was sent. */
  readonly player: User | undefined
  /** The signed wallet headers, when sent. */
  readonly wallet: WalletHeaders | undefined
}

/** A refusal of a create's credential: its error kind and message. */
export type CredentialRefusal = {
  readonly ok: false
  readonly kind: 'validation' | 'unauthorised' | 'authentication'
  readonly message: string
}

/**
 * Lets a request through with a valid bearer token of a player, with
 * well-formed wallet headers, or with both (each valid), keeping what came
 * in `c.var.credential`; others get 401 `UNAUTHORISED_REQUEST`.
 */
export function requireCredential(deps: Deps): MiddlewareHandler<StarkExEnv> {
  return async (c, next) => {
    const authorization = c.req.header('authorization')
    const address = c.req.header(walletHeaderNames.address)
    const signature = c.req.header(walletHeaderNames.signature)
    const refuse = (description: string) => {
      c.header(
        'WWW-Authenticate',
        `Bearer error="invalid_token", error_description="${description}"`,
      )
      return fail(c, 'unauthorised', description)
    }
    if (
      authorization === undefined &&
      address === undefined &&
      signature === undefined
    )
      return refuse(
        `A bearer token or the signed wallet headers ${walletHeaderNames.address} and ${walletHeaderNames.signature} are required.`,
      )
    let player: User | undefined
    if (authorization !== undefined) {
      const checked = await playerOf(deps, authorization)
      if (!checked.ok) return refuse(checked.description)
      player = checked.player
    }
    let wallet: WalletHeaders | undefined
    if (address !== undefined || signature !== undefined) {
      const read = walletHeadersOf(address, signature)
      if (!read.ok) return fail(c, 'unauthorised', read.message)
      wallet = read.value
    }
    c.set('credential', { player, wallet })
    await next()
  }
}

/** Reads the two wallet headers: both present and well-formed. */
function walletHeadersOf(
  address: string | undefined,
  signature: string | undefined,
): { ok: true; value: WalletHeaders } | { ok: false; message: string } {
  const { address: addressName, signature: signatureName } = walletHeaderNames
  if (address === undefined || signature === undefined)
    return {
      ok: false,
      message: `${addressName} and ${signatureName} go together: send both or neither.`,
    }
  const checksummed = addressOf(address)
  if (!checksummed)
    return { ok: false, message: `${addressName} must be an Ethereum address.` }
  const parsed = ethSignatureOf(signature)
  if (!parsed)
    return {
      ok: false,
      message: `${signatureName} must be a 65-byte signature r ‖ s ‖ v in hex (v 00, 01, 1b or 1c).`,
    }
  return { ok: true, value: { address: checksummed, signature: parsed } }
}

/**
 * The StarkEx account a create acts for, from its credential and the Stark
 * key its body names in `field`: with a bearer token, the player's account,
 * whose key it must be (403 otherwise); with the wallet headers alone, the
 * account of that key. The headers' address must be the account's (401).
 */
export function accountOfCredential(
  deps: Deps,
  credential: Credential,
  starkKey: unknown,
  field: string,
): { ok: true; account: Account } | CredentialRefusal {
  const key = starkKeyOf(starkKey)
  let account: Account | undefined
  if (credential.player) {
    account = accountOfPlayer(deps, credential.player)
    if (!account)
      return { ok: false, kind: 'validation', message: notRegistered }
    if (!key)
      return {
        ok: false,
        kind: 'validation',
        message: `${field} must be a Stark key.`,
      }
    if (key !== account.starkKey)
      return {
        ok: false,
        kind: 'authentication',
        message: `${field} must be the player's Stark key ${account.starkKey}.`,
      }
  } else {
    if (!key)
      return {
        ok: false,
        kind: 'validation',
        message: `${field} must be a Stark key.`,
      }
    account = deps.ledger.accountOfKey(key)
    if (!account)
      return {
        ok: false,
        kind: 'validation',
        message: `The Stark key ${key} is not registered with StarkEx.`,
      }
    // The providers' receiving accounts have keys derived from public text
    // (see exchanges.ts): a signature by them proves nothing.
    if (account.sub === undefined)
      return {
        ok: false,
        kind: 'authentication',
        message: `Stark key ${key} is an exchange provider's receiving account: it sends nothing.`,
      }
  }
  const wallet = credential.wallet
  if (wallet && wallet.address !== account.ethAddress)
    return {
      ok: false,
      kind: 'unauthorised',
      message: `${walletHeaderNames.address} ${wallet.address} is not ${account.ethAddress}, the Ethereum address of Stark key ${account.starkKey}.`,
    }
  return { ok: true, account }
}

/**
 * Why the wallet headers do not sign `signable.message` (the
 * `signable_message` the exchange answered with payload hash
 * `signable.hash`) by `account`'s address, or `undefined` when they do (or
 * none were sent).
 */
export async function walletSignatureRefusal(
  credential: Credential,
  account: Account,
  signable: Pick<Pending, 'hash' | 'message'>,
): Promise<CredentialRefusal | undefined> {
  const wallet = credential.wallet
  if (!wallet) return undefined
  let signer: Address | undefined
  try {
    signer = await recoverMessageAddress({
      message: signable.message,
      signature: wallet.signature,
    })
  } catch {
    signer = undefined
  }
  return signer === account.ethAddress
    ? undefined
    : {
        ok: false,
        kind: 'unauthorised',
        message: `${walletHeaderNames.signature} does not sign the signable message of payload hash ${signable.hash} by ${account.ethAddress}.`,
      }
}
