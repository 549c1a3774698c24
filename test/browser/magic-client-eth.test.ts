import {
  createPublicClient,
  getAddress,
  type Hex,
  http,
  parseEther,
  parseTransaction,
  recoverTransactionAddress,
  toHex,
  verifyMessage,
  verifyTypedData,
} from 'viem'
import { afterEach, describe, expect, inject, test } from 'vitest'
import type { Magic } from '../../src/magic/index.js'
import { anvil, fund, loggedIn } from './magicLogin.js'

/**
 * Our client's `rpcProvider` after a headless email-OTP login, against the
 * emulator and its Anvil: accounts, chain, every signing method (checked
 * with viem), transactions mined on Anvil and proxied reads.
 */
describe('rpcProvider: Ethereum', () => {
  const emulator = inject('magicEmulator')
  const { rpcUrl, chainId, endpoint } = emulator
  const chain = createPublicClient({ transport: http(rpcUrl) })
  let current: Magic | undefined

  afterEach(() => {
    current?.destroy()
    current = undefined
  })

  async function user(name: string) {
    const session = await loggedIn(emulator, { name })
    current = session.magic
    return session
  }

  const mail = {
    types: {
      EIP712Domain: [
        { name: 'name', type: 'string' },
        { name: 'chainId', type: 'uint256' },
      ],
      Person: [
        { name: 'name', type: 'string' },
        { name: 'wallet', type: 'address' },
      ],
      Mail: [
        { name: 'from', type: 'Person' },
        { name: 'to', type: 'Person' },
        { name: 'contents', type: 'string' },
      ],
    },
    primaryType: 'Mail',
    domain: { name: 'Ether Mail', chainId },
    message: {
      from: {
        name: 'Cow',
        wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826',
      },
      to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
      contents: 'Hello, Bob!',
    },
  } as const

  test('eth_accounts, eth_requestAccounts and eth_chainId answer the logged-in user and the chain', async () => {
    const { magic, address } = await user('accounts')
    const { rpcProvider } = magic
    expect(address).toBe(getAddress(address))
    expect(await rpcProvider.request({ method: 'eth_accounts' })).toEqual([
      address,
    ])
    expect(
      await rpcProvider.request({ method: 'eth_requestAccounts' }),
    ).toEqual([address])
    expect(await rpcProvider.request({ method: 'eth_chainId' })).toBe(
      toHex(chainId),
    )
  })

  test('personal_sign and eth_sign signatures verify for the user address', async () => {
    const { magic, address } = await user('sign')
    const message = 'hello from our client'
    const personal = (await magic.rpcProvider.request({
      method: 'personal_sign',
      params: [toHex(message), address],
    })) as Hex
    expect(await verifyMessage({ address, message, signature: personal })).toBe(
      true,
    )
    const data = toHex('raw bytes to sign')
    const signed = (await magic.rpcProvider.request({
      method: 'eth_sign',
      params: [address, data],
    })) as Hex
    expect(
      await verifyMessage({
        address,
        message: { raw: data },
        signature: signed,
      }),
    ).toBe(true)
  })

  test('eth_signTypedData_v4 (object) and _v3 (JSON string) verify with viem', async () => {
    const { magic, address } = await user('typed')
    const v4 = (await magic.rpcProvider.request({
      method: 'eth_signTypedData_v4',
      params: [address, mail],
    })) as Hex
    const typed = {
      types: { Person: mail.types.Person, Mail: mail.types.Mail },
      primaryType: 'Mail',
      domain: mail.domain,
      message: mail.message,
    } as const
    expect(await verifyTypedData({ address, signature: v4, ...typed })).toBe(
      true,
    )
    const v3 = (await magic.rpcProvider.request({
      method: 'eth_signTypedData_v3',
      params: [address, JSON.stringify(mail)],
    })) as Hex
    expect(v3).toBe(v4)
  })

  test('typed data with uint7 is refused with -32602 before anything is posted to the iframe', async () => {
    const { magic, address } = await user('typed-rules')
    const origin = new URL(endpoint).origin
    const responses: unknown[] = []
    const listen = (event: MessageEvent) => {
      const type = (event.data as { msgType?: unknown } | null)?.msgType
      if (
        event.origin === origin &&
        typeof type === 'string' &&
        type.startsWith('MAGIC_HANDLE_RESPONSE-')
      )
        responses.push((event.data as { response: unknown }).response)
    }
    window.addEventListener('message', listen)
    try {
      const bad = {
        ...mail,
        types: {
          ...mail.types,
          Mail: [...mail.types.Mail, { name: 'count', type: 'uint7' }],
        },
        message: { ...mail.message, count: 1 },
      }
      await expect(
        magic.rpcProvider.request({
          method: 'eth_signTypedData_v4',
          params: [address, bad],
        }),
      ).rejects.toMatchObject({
        code: -32602,
        message:
          'Magic RPC Error: [-32602] Invalid typed data: `Mail.count` has type `uint7`: the width must be a multiple of 8 from 8 to 256.',
      })
      // The next request's response is the only one the iframe sent.
      await magic.rpcProvider.request({ method: 'eth_chainId' })
      // Our listener runs after the client's (which settles the request).
      await expect.poll(() => responses.length).toBe(1)
      expect(responses).toEqual([
        { jsonrpc: '2.0', id: expect.any(Number), result: toHex(chainId) },
      ])
    } finally {
      window.removeEventListener('message', listen)
    }
  })

  test('eth_signTransaction returns a raw transaction signed by the user', async () => {
    const { magic, address } = await user('sign-tx')
    await fund(rpcUrl, address, parseEther('1'))
    const to = '0x000000000000000000000000000000000000dEaD'
    const raw = (await magic.rpcProvider.request({
      method: 'eth_signTransaction',
      params: [{ from: address, to, value: toHex(parseEther('0.5')) }],
    })) as Hex
    const transaction = parseTransaction(raw)
    expect(transaction).toMatchObject({
      chainId,
      to: to.toLowerCase(),
      value: parseEther('0.5'),
      type: 'eip1559',
      nonce: 0,
    })
    expect(
      await recoverTransactionAddress({
        serializedTransaction: raw as Parameters<
          typeof recoverTransactionAddress
        >[0]['serializedTransaction'],
      }),
    ).toBe(address)
  })

  test('eth_sendTransaction is mined on Anvil; eth_getBalance is read through the iframe', async () => {
    const { magic, address } = await user('send-tx')
    await fund(rpcUrl, address, parseEther('2'))
    const to = getAddress(toHex(crypto.getRandomValues(new Uint8Array(20))))
    const hash = (await magic.rpcProvider.request({
      method: 'eth_sendTransaction',
      params: [{ from: address, to, value: toHex(parseEther('0.25')) }],
    })) as Hex
    const receipt = await chain.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.from).toBe(address.toLowerCase())
    expect(await chain.getBalance({ address: to })).toBe(parseEther('0.25'))
    const balance = await magic.rpcProvider.request({
      method: 'eth_getBalance',
      params: [address, 'latest'],
    })
    expect(balance).toBe(
      await anvil(rpcUrl, 'eth_getBalance', [address, 'latest']),
    )
    expect(BigInt(balance as string)).toBeLessThan(parseEther('1.75'))
  })

  test('signing refuses another address (-32602) and a logged-out user (-10011)', async () => {
    const { magic } = await user('sign-refused')
    const other = '0x000000000000000000000000000000000000dEaD'
    await expect(
      magic.rpcProvider.request({
        method: 'eth_sendTransaction',
        params: [{ from: other, to: other, value: '0x1' }],
      }),
    ).rejects.toMatchObject({
      code: -32602,
      message: `Magic RPC Error: [-32602] eth_sendTransaction: ${other} is not the logged-in user's address.`,
    })
    await magic.user.logout()
    await expect(
      magic.rpcProvider.request({
        method: 'personal_sign',
        params: ['0x00', other],
      }),
    ).rejects.toMatchObject({
      code: -10011,
      message: 'Magic RPC Error: [-10011] The user is not logged in.',
    })
    expect(await magic.rpcProvider.request({ method: 'eth_accounts' })).toEqual(
      [],
    )
  })
})
