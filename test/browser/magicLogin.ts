/**
 * Helpers for the browser tests of our iframe-wallet client: a headless
 * email-OTP login that reads the code from the emulator's dev mailbox, a
 * fresh client with its own in-memory storage, and raw Anvil calls.
 */

import { expect } from 'vitest'
import * as Storage from '../../src/core/Storage.js'
import {
  type ExtensionsOption,
  Magic,
  type MagicOptions,
} from '../../src/magic/index.js'
import { freshEmail } from './magicClient.js'
import { waitForCode } from './mailbox.js'

/** What the helpers need of `inject('magicEmulator')`. */
export type Emulator = {
  endpoint: string
  apiKey: string
  rpcUrl: string
  chainId: number
  mailbox: string
}

export { freshEmail }

/** What the login needs of a client: `auth.loginWithEmailOTP`. */
export type CanLogin = {
  auth: Pick<Magic['auth'], 'loginWithEmailOTP'>
}

/**
 * Logs `email` in with our client, headless (`showUI: false`): answers
 * `email-otp-sent` with the code from the mailbox. Resolves to the DID
 * token.
 */
export async function loginHeadless(
  magic: CanLogin,
  options: { mailbox: string; email: string },
): Promise<string | null> {
  const { mailbox, email } = options
  const login = magic.auth.loginWithEmailOTP({ email, showUI: false })
  login.on('email-otp-sent', async () => {
    login.emit('verify-email-otp', await waitForCode({ mailbox, to: email }))
  })
  return await login
}

/**
 * Our client against the emulator, with its own in-memory storage (so that
 * tests on one page share no session) and no EIP-6963 announcement unless
 * asked.
 */
export function createMagic<const extensions extends ExtensionsOption = []>(
  emulator: Emulator,
  options: MagicOptions<extensions> = {},
): Magic<extensions> {
  const { endpoint, apiKey, rpcUrl, chainId } = emulator
  return new Magic<extensions>(apiKey, {
    endpoint,
    network: { rpcUrl, chainId },
    storage: Storage.memory(),
    announceProvider: false,
    ...options,
  })
}

/** A logged-in client and its user's checksummed address. */
export async function loggedIn(
  emulator: Emulator,
  options: { name: string; magic?: MagicOptions | undefined },
): Promise<{ magic: Magic; email: string; address: `0x${string}` }> {
  const magic = createMagic(emulator, options.magic)
  const email = freshEmail(options.name)
  await loginHeadless(magic, { mailbox: emulator.mailbox, email })
  const info = await magic.user.getInfo()
  const address = info.publicAddress as `0x${string}`
  return { magic, email, address }
}

/** One JSON-RPC call to Anvil; throws its error message. */
export async function anvil(
  rpcUrl: string,
  method: string,
  params: unknown[],
): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await response.json()) as {
    result?: unknown
    error?: { message: string }
  }
  if (body.error) throw new Error(body.error.message)
  return body.result
}

/** Gives `address` `wei` on Anvil. */
export async function fund(
  rpcUrl: string,
  address: string,
  wei: bigint,
): Promise<void> {
  await anvil(rpcUrl, 'anvil_setBalance', [address, `0x${wei.toString(16)}`])
}

/** The shown (overlay) iframe of our client, once there is one. */
export async function shownOverlay(): Promise<HTMLIFrameElement> {
  const shown = () =>
    [
      ...document.querySelectorAll<HTMLIFrameElement>('iframe.magic-iframe'),
    ].find((iframe) => iframe.style.display === 'block')
  await expect.poll(shown).toBeTruthy()
  return shown() as HTMLIFrameElement
}
