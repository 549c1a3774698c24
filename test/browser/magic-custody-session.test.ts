import { type Address, type Hex, toHex } from 'viem'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import * as Storage from '../../src/core/Storage.js'
import { Magic, MagicRPCError, type MagicSDK } from '../../src/magic/index.js'
import { Passport } from '../../src/passport/index.js'
import { custodyStore } from '../../src/passport/zkevm/custodySigner.js'
import type { ZkEvmProvider } from '../../src/passport/zkevm/provider.js'
import { appConfig } from './fixtures/passportApp.js'
import { database, freshEmail, store } from './magicClient.js'
import { loginHeadless } from './magicLogin.js'
import { appOptions } from './passportLogin.js'
import { chain, connectPlayer, info, overrides } from './passportWallet.js'

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

/** A client of the custody key on `storage`. */
function custodyClient(storage: Storage.Storage): MagicSDK {
  const magic = new Magic(overrides.magicPublishableApiKey, {
    endpoint: overrides.magicEndpoint,
    network: { rpcUrl: info.rpcUrl, chainId: info.chainId },
    storage,
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

/** The game wallet on this page, logging out by `mode`. */
function createWallet(mode: 'redirect' | 'silent'): Passport {
  const base = appConfig(location.origin, { ...appOptions, mode })
  return new Passport({
    ...base,
    overrides: { ...base.overrides, ...overrides },
  })
}

/**
 * The custody store's session copied into memory: the same device key and
 * refresh token, so that a client on the copy is logged in exactly while
 * the provider keeps that session.
 */
async function copyOfCustodySession(): Promise<Storage.Storage> {
  const custody = Storage.indexedDb(custodyStore)
  const copy = Storage.memory()
  for (const key of await custody.keys())
    await copy.setItem(key, await custody.getItem(key))
  return copy
}

type Navigation = EventTarget & {
  addEventListener(
    type: 'navigate',
    listener: (event: Event & { destination: { url: string } }) => void,
    options: { once: boolean },
  ): void
}

/** Cancels this page's next navigation (a redirect logout's); its URL. */
function stopNavigation(): Promise<string> {
  const { navigation } = window as unknown as { navigation: Navigation }
  return new Promise((resolve) => {
    navigation.addEventListener(
      'navigate',
      (event) => {
        event.preventDefault()
        resolve(event.destination.url)
      },
      { once: true },
    )
  })
}

describe('passport.logout()', () => {
  for (const mode of ['silent', 'redirect'] as const)
    test(`behavior: logoutMode '${mode}' logs the custody key's session out too: the provider revokes it and the custody store forgets it`, async () => {
      const passport = createWallet(mode)
      const { provider, wallet } = await connectPlayer({
        passport,
        label: `custody-logout-${mode}`,
      })
      await personalSign(provider, wallet, 'before the logout')
      const copy = await copyOfCustodySession()
      expect(await custodyClient(copy).user.isLoggedIn()).toBe(true)

      const navigated = mode === 'redirect' ? stopNavigation() : undefined
      await passport.logout()
      if (navigated)
        expect(new URL(await navigated).pathname).toBe('/v2/logout')

      expect(await Storage.indexedDb(custodyStore).getItem('rt')).toBe(null)
      expect(await custodyClient(copy).user.isLoggedIn()).toBe(false)
    })
})
