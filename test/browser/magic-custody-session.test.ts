import { type Address, type Hex, toHex } from 'viem'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import * as Storage from '../../src/core/Storage.js'
import { Magic, MagicRPCError, type MagicSDK } from '../../src/magic/index.js'
import { custodyStore } from '../../src/passport/zkevm/custodySigner.js'
import type { ZkEvmProvider } from '../../src/passport/zkevm/provider.js'
import { database, freshEmail, store } from './magicClient.js'
import { loginHeadless } from './magicLogin.js'
import { chain, connectPlayer, info } from './passportWallet.js'

/*
 * A dApp that uses both wallets on one page: the game wallet's custody
 * client (our iframe-wallet client, logged in with the player's id token)
 * and the dApp's own iframe-wallet client, created as a dApp creates it
 * (the default store, `magic.apiKey`). Neither may ever see the other's
 * session.
 */

const clients: MagicSDK[] = []

/** The dApp's own iframe-wallet client, on the page's default store. */
function dAppClient(): MagicSDK {
  const magic = new Magic(info.magic.apiKey, {
    endpoint: info.magic.endpoint,
    network: { rpcUrl: info.rpcUrl, chainId: info.chainId },
    announceProvider: false,
  })
  clients.push(magic)
  return magic
}

const defaultStore = () => Storage.indexedDb({ database, store })

beforeEach(async () => {
  // Each test signs a new player in: no game-wallet user is kept.
  localStorage.clear()
  // Other files of this origin leave sessions in both stores.
  await defaultStore().clear()
  await Storage.indexedDb(custodyStore).clear()
})
afterEach(() => {
  for (const magic of clients.splice(0)) magic.destroy()
})

async function personalSign(
  provider: ZkEvmProvider,
  wallet: Address,
  message: string,
): Promise<void> {
  const signature = (await provider.request({
    method: 'personal_sign',
    params: [toHex(message), wallet],
  })) as Hex
  expect(
    await chain.verifyMessage({ address: wallet, message, signature }),
  ).toBe(true)
}

describe("the game wallet's custody session and the iframe wallet's", () => {
  test("behavior: after signing in to the game wallet, connecting and signing a message, the page's iframe-wallet client (as after a reload) shows no account", async () => {
    const { provider, wallet } = await connectPlayer({ label: 'custody-leak' })
    await personalSign(provider, wallet, 'the custody key signs')

    // What the page's iframe-wallet panel does on load.
    const magic = dAppClient()
    expect(await magic.rpcProvider.request({ method: 'eth_accounts' })).toEqual(
      [],
    )
    expect(await magic.user.isLoggedIn()).toBe(false)
    const info = await magic.user.getInfo().catch((error: unknown) => error)
    expect(info).toBeInstanceOf(MagicRPCError)
    expect(info).toMatchObject({ code: -10011 })
    // Nothing of the custody session is in the store dApp clients share.
    expect(await defaultStore().getItem('rt')).toBe(null)
  })

  test("behavior: a dApp's iframe-wallet session and the game wallet's custody session live side by side on one page", async () => {
    const magic = dAppClient()
    const email = freshEmail('side-by-side')
    await loginHeadless(magic, { mailbox: info.mailbox, email })
    const [own] = (await magic.rpcProvider.request({
      method: 'eth_accounts',
    })) as Address[]
    expect(own).toMatch(/^0x[0-9a-fA-F]{40}$/)

    const { provider, wallet } = await connectPlayer({ label: 'side-by-side' })
    await personalSign(provider, wallet, 'first')

    // The dApp's client, and a new one (a reload), still see their user.
    expect(await magic.rpcProvider.request({ method: 'eth_accounts' })).toEqual(
      [own],
    )
    const reloaded = dAppClient()
    expect(
      await reloaded.rpcProvider.request({ method: 'eth_accounts' }),
    ).toEqual([own])
    expect((await reloaded.user.getInfo()).email).toBe(email)
    // And the game wallet still signs with its custody key.
    await personalSign(provider, wallet, 'second')
  })
})
