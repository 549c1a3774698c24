import { Magic } from 'magic-sdk'
import {
  createPublicClient,
  http,
  parseEther,
  toHex,
  verifyMessage,
} from 'viem'
import { describe, expect, inject, test } from 'vitest'
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
})
