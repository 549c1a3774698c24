import { Magic } from 'magic-sdk'
import {
  createPublicClient,
  http,
  parseEther,
  toHex,
  verifyMessage,
} from 'viem'
import { describe, expect, inject, test } from 'vitest'
import { page } from 'vitest/browser'
import { waitForCode } from './mailbox.js'

/**
 * The published magic-sdk, unchanged, against the emulator: only `endpoint`
 * (and the network) point at it. If this passes, a dApp can develop and test
 * offline with the SDK it ships.
 */
describe('published magic-sdk against the emulator', () => {
  const { endpoint, apiKey, mailbox, rpcUrl, chainId } = inject('magicEmulator')

  test('logs in by email code headless, reads getInfo, signs and sends', async () => {
    const magic = new Magic(apiKey, {
      endpoint,
      network: { rpcUrl, chainId },
    })
    const email = `compat-${crypto.randomUUID()}@example.com`

    const login = magic.auth.loginWithEmailOTP({ email, showUI: false })
    login.on('email-otp-sent', async () => {
      login.emit('verify-email-otp', await waitForCode({ mailbox, to: email }))
    })
    const didToken = await login
    expect(typeof didToken).toBe('string')
    const [proof, claim] = JSON.parse(atob(didToken as string)) as string[]
    expect(proof).toMatch(/^0x[0-9a-f]{130}$/)

    const info = await magic.user.getInfo()
    const address = info.wallets?.ethereum?.publicAddress ?? ''
    expect(info.email).toBe(email)
    expect(JSON.parse(claim ?? '{}').iss).toBe(`did:ethr:${address}`)
    expect(await magic.user.isLoggedIn()).toBe(true)

    const message = 'hello from the published SDK'
    const signature = await magic.rpcProvider.request({
      method: 'personal_sign',
      params: [toHex(message), address],
    })
    expect(
      await verifyMessage({
        address: address as `0x${string}`,
        message,
        signature: signature as `0x${string}`,
      }),
    ).toBe(true)

    const to = '0x000000000000000000000000000000000000dEaD'
    const hash = await magic.rpcProvider.request({
      method: 'eth_sendTransaction',
      params: [{ from: address, to, value: toHex(parseEther('0.01')) }],
    })
    const client = createPublicClient({ transport: http(rpcUrl) })
    const receipt = await client.waitForTransactionReceipt({
      hash: hash as `0x${string}`,
    })
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(address.toLowerCase())

    await magic.user.logout()
    expect(await magic.user.isLoggedIn()).toBe(false)
  })

  test('connectWithUI: the login typed into the iframe resolves the account, and id-token-created carries { idToken } as the SDK passes it on', async () => {
    const magic = new Magic(apiKey, {
      endpoint,
      network: { rpcUrl, chainId },
    })
    const email = `compat-ui-${crypto.randomUUID()}@example.com`
    const tokens: { idToken: string }[] = []
    const connecting = magic.wallet
      .connectWithUI()
      .on('id-token-created', (params: { idToken: string }) =>
        tokens.push(params),
      )
    const shown = () =>
      [
        ...document.querySelectorAll<HTMLIFrameElement>('iframe.magic-iframe'),
      ].find((iframe) => iframe.style.display === 'block')
    await expect.poll(shown).toBeTruthy()
    const ui = page.frameLocator(page.elementLocator(shown() as HTMLElement))
    await ui.getByTestId('login-email-input').fill(email)
    await ui.getByTestId('login-email-submit').click()
    await ui
      .getByTestId('email-otp-input')
      .fill(await waitForCode({ mailbox, to: email }))
    await ui.getByTestId('email-otp-submit').click()
    const [account] = await connecting
    expect(tokens).toHaveLength(1)
    const [, claim] = JSON.parse(atob(tokens[0]?.idToken ?? '')) as string[]
    expect(JSON.parse(claim ?? '{}').iss).toBe(`did:ethr:${account}`)
    await magic.user.logout()
  })
})
