import { afterEach, describe, expect, test } from 'vitest'
import { page } from 'vitest/browser'
import type { MagicSDK } from '../../src/magic/index.js'
import {
  copyOf,
  createMagic,
  destroyClients,
  freshEmail,
  isolatedStorage,
  loginWithEmail,
  readDatabase,
  rejection,
} from './magicClient.js'
import { shownOverlay } from './magicLogin.js'

/**
 * `User denied account access.` end to end (the published SDK wipes every
 * stored device share on exactly that error message): a client that still
 * holds a device share but whose session is gone asks to connect; the user
 * closes the login screens; the provider answers that message and the
 * client deletes every `ds_*` device share.
 */
describe('Magic client against the emulator: user denied account access', () => {
  afterEach(() => destroyClients())

  const keyEntries = ['STORE_KEY_PRIVATE_KEY', 'STORE_KEY_PUBLIC_JWK']
  const denied = 'User denied account access.'

  /** The `ds_*` keys of a database, read with the raw IndexedDB API. */
  async function deviceShares(name: string): Promise<string[]> {
    return Object.keys(await readDatabase(name)).filter((key) =>
      key.startsWith('ds_'),
    )
  }

  /**
   * A client that logged in (so it stores a device share) and whose session
   * was then revoked at the provider by another instance of the same
   * device and session (its key pair and refresh token) logging out. The
   * client keeps its `ds_*` entry: only its own logout would delete it.
   */
  async function revokedElsewhere(
    label: string,
  ): Promise<{ magic: MagicSDK; name: string }> {
    const { storage, name } = isolatedStorage()
    const magic = createMagic({ storage })
    await loginWithEmail(magic, freshEmail(label))
    expect(await deviceShares(name)).toHaveLength(1)

    const other = createMagic({
      storage: await copyOf(storage, [...keyEntries, 'rt']),
    })
    expect(await other.user.isLoggedIn()).toBe(true)
    expect(await other.user.logout()).toBe(true)
    other.destroy()

    expect(await deviceShares(name)).toHaveLength(1)
    return { magic, name }
  }

  test('eth_requestAccounts after the session was revoked shows the login screen; closing it rejects with "User denied account access." and deletes every ds_ entry', async () => {
    const { magic, name } = await revokedElsewhere('denied-request')
    // Handled at once: it rejects while the test still clicks.
    const rejected = rejection(
      magic.rpcProvider.request({ method: 'eth_requestAccounts' }),
    )
    const ui = page.frameLocator(page.elementLocator(await shownOverlay()))
    // Locators act across the cross-origin frame (expect.element does not):
    // filling the field waits for the login screen.
    await ui.getByTestId('login-email-input').fill('')
    await ui.getByTestId('close').click()

    const error = await rejected
    expect(error.rawMessage).toBe(denied)
    expect(error.message).toContain(denied)
    expect(error.code).toBe(-10012)
    expect(await deviceShares(name)).toEqual([])
  })

  test('mc_login (connectWithUI) cancelled at the email code screen rejects with "User denied account access." and deletes every ds_ entry', async () => {
    const { magic, name } = await revokedElsewhere('denied-login')
    const rejected = rejection(magic.wallet.connectWithUI())
    const ui = page.frameLocator(page.elementLocator(await shownOverlay()))
    await ui.getByTestId('login-email-input').fill(freshEmail('denied-other'))
    await ui.getByTestId('login-email-submit').click()
    // Waits for the email code screen before closing it.
    await ui.getByTestId('email-otp-input').fill('')
    await ui.getByTestId('close').click()

    const error = await rejected
    expect(error.message).toContain(denied)
    expect(error.rawMessage).toBe(denied)
    expect(await deviceShares(name)).toEqual([])
  })
})
