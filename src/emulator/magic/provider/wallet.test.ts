import { createPublicClient, type Hex, http, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type ChainService,
  call,
  createDevice,
  open,
  startChainService,
} from './testkit.js'

let anvil: ChainService['anvil']
let contracts: ChainService['contracts']
let app: ChainService['app']
let mailbox: ChainService['mailbox']
let registry: ChainService['registry']
let loggedIn: ChainService['loggedIn']

beforeAll(async () => {
  ;({ anvil, contracts, app, mailbox, registry, loggedIn } =
    await startChainService())
}, 60_000)

afterAll(() => anvil?.stop())

const chain = () => createPublicClient({ transport: http(anvil.rpcUrl) })

describe('wallet screens and NFTs', { timeout: 30_000 }, () => {
  test('behavior: show_balances shows the real balance; send-tokens transfers for real', async () => {
    const { device, address } = await loggedIn()
    const balances = await open(app, 'magic_show_balances', [], { device })
    const screen = await balances.until((line) => line.kind === 'screen')
    expect(screen).toEqual({
      kind: 'screen',
      screen: 'balances',
      data: {
        address,
        chainId: 31337,
        balances: [
          { symbol: 'ETH', balance: '100', decimals: 18 },
          {
            symbol: 'TEST',
            balance: '0',
            decimals: 18,
            token: contracts.erc20,
          },
        ],
      },
    })
    await balances.answer('close')
    expect((await balances.done()).response.result).toBe(true)

    const to = '0x000000000000000000000000000000000000bEEF'
    const send = await open(app, 'magic_show_send_tokens_ui', [], { device })
    await send.until((line) => line.kind === 'screen')
    await send.answer('send-tokens', { to, amount: '2.5' })
    const sent = await send.until(
      (line) => line.kind === 'screen' && 'hash' in line.data,
    )
    const hash = (sent as { data: { hash: Hex } }).data.hash
    expect((await chain().getTransactionReceipt({ hash })).status).toBe(
      'success',
    )
    expect(await chain().getBalance({ address: to })).toBe(parseEther('2.5'))
    await send.answer('close')
    expect((await send.done()).response.result).toBe(true)
  })

  test('behavior: nft purchase mints a test NFT; show_nfts lists it; transfer moves it; close cancels', async () => {
    const { device, address } = await loggedIn()
    const purchase = await open(
      app,
      'magic_nft_purchase',
      [{ nft: { contractAddress: contracts.testErc721, quantity: 1 } }],
      { device },
    )
    await purchase.until((line) => line.kind === 'screen')
    await purchase.answer('confirm')
    expect((await purchase.done()).response.result).toEqual({
      status: 'processed',
    })
    const checkout = await open(
      app,
      'magic_nft_checkout',
      [{ contractId: contracts.testErc1155, tokenId: '7', quantity: 3 }],
      { device },
    )
    await checkout.until((line) => line.kind === 'screen')
    await checkout.answer('confirm')
    await checkout.done()

    const nfts = await open(app, 'magic_show_nfts', [], { device })
    const screen = (await nfts.until(
      (line) => line.kind === 'screen',
    )) as unknown as {
      data: { nfts: { standard: string; tokenId: string }[] }
    }
    await nfts.answer('close')
    await nfts.done()
    expect(screen.data.nfts).toEqual([
      expect.objectContaining({ standard: 'ERC721', quantity: '1' }),
      {
        contractAddress: contracts.testErc1155,
        standard: 'ERC1155',
        tokenId: '7',
        quantity: '3',
      },
    ])
    const tokenId = screen.data.nfts[0]!.tokenId

    const cancelled = await open(
      app,
      'magic_nft_transfer',
      [{ contractAddress: contracts.testErc721, tokenId, recipient: address }],
      { device },
    )
    await cancelled.until((line) => line.kind === 'screen')
    await cancelled.answer('close')
    expect((await cancelled.done()).response.result).toEqual({
      status: 'cancelled',
    })

    const recipient = '0x000000000000000000000000000000000000cafE'
    const transfer = await open(
      app,
      'magic_nft_transfer',
      [{ contractAddress: contracts.testErc721, tokenId, recipient }],
      { device },
    )
    await transfer.until((line) => line.kind === 'screen')
    await transfer.answer('confirm')
    expect((await transfer.done()).response.result).toEqual({
      status: 'processed',
    })
    expect(
      await chain().readContract({
        address: contracts.testErc721,
        abi: [
          {
            type: 'function',
            name: 'ownerOf',
            stateMutability: 'view',
            inputs: [{ name: 'id', type: 'uint256' }],
            outputs: [{ name: '', type: 'address' }],
          },
        ],
        functionName: 'ownerOf',
        args: [BigInt(tokenId)],
      }),
    ).toBe(recipient)
  })

  test('behavior: mc_login logged out runs the iframe login and answers the address', async () => {
    const device = await createDevice()
    const flow = await open(app, 'mc_login', [{}], { device })
    expect(await flow.until((line) => line.kind === 'screen')).toEqual({
      kind: 'screen',
      screen: 'login',
      data: {},
    })
    await flow.answer('submit-email', 'ui@example.com')
    await flow.event('email-otp-sent')
    await flow.answer(
      'verify-email-otp',
      mailbox.list({ to: 'ui@example.com' })[0]?.code,
    )
    const { response, rt } = await flow.done()
    const address = registry.find({ email: 'ui@example.com' })!.address
    expect(response.result).toEqual([address])
    expect(rt).toBe(device.rt)
    expect(
      (await call(app, 'eth_requestAccounts', [], { device })).result,
    ).toEqual([address])
  })

  test('error: cancelling the mc_login / eth_requestAccounts login screens answers -10012 "User denied account access."; other cancels stay -10014', async () => {
    const denied = { code: -10012, message: 'User denied account access.' }
    const device = await createDevice()
    const login = await open(app, 'mc_login', [{}], { device })
    await login.until((line) => line.kind === 'screen')
    await login.answer('cancel')
    const cancelled = await login.done()
    expect(cancelled.response.error).toEqual(denied)
    expect(cancelled.rt).toBeUndefined()
    expect(cancelled.deviceShare).toBeUndefined()

    const request = await open(app, 'eth_requestAccounts', [], { device })
    await request.until((line) => line.kind === 'screen')
    await request.answer('submit-email', 'denied@example.com')
    await request.event('email-otp-sent')
    await request.answer('cancel')
    expect((await request.done()).response.error).toEqual(denied)

    const user = await loggedIn()
    const consent = await open(app, 'mc_request_user_info', [], {
      device: user.device,
    })
    await consent.until((line) => line.kind === 'screen')
    await consent.answer('cancel')
    expect((await consent.done()).response.error).toEqual({
      code: -10014,
      message: 'User canceled the request.',
    })
  })

  test('behavior: wallet, address, on-ramp, reveal-key and user-info screens answer on close or consent', async () => {
    const { device, address } = await loggedIn()
    const screenOf = async (method: string, answer = 'close') => {
      const flow = await open(app, method, [], { device })
      const screen = await flow.until((line) => line.kind === 'screen')
      await flow.answer(answer)
      return { screen, result: (await flow.done()).response.result }
    }
    expect(await screenOf('magic_wallet')).toEqual({
      screen: {
        kind: 'screen',
        screen: 'wallet',
        data: { address, balance: '100', chainId: 31337 },
      },
      result: true,
    })
    expect((await screenOf('magic_show_address')).screen).toEqual({
      kind: 'screen',
      screen: 'address',
      data: { address },
    })
    expect((await screenOf('magic_show_fiat_onramp')).screen).toEqual({
      kind: 'screen',
      screen: 'onramp',
      data: { address, emulated: true },
    })
    const reveal = await screenOf('magic_reveal_key')
    const { privateKey } = (reveal.screen as { data: { privateKey: Hex } }).data
    expect(privateKeyToAccount(privateKey).address).toBe(address)
    expect(reveal.result).toBe(true)
    expect(await screenOf('mc_request_user_info', 'share')).toMatchObject({
      result: { email: expect.stringMatching(/@example\.com$/) },
    })
    expect(
      (
        await call(
          app,
          'magic_get_multichain_public_address',
          [{ chain: 'ETH' }],
          {
            device,
          },
        )
      ).result,
    ).toBe(address)
  })
})
