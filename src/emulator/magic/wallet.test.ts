import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  parseEther,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startAnvil } from '../chain/anvil.js'
import { type Contracts, deployContracts } from '../chain/deploy.js'
import * as Mailbox from '../mailbox/store.js'
import { findFreePort } from '../net.js'
import { createRegistry, type Registry } from '../registry/index.js'
import { createMagicService } from './service.js'
import {
  call,
  createDevice,
  type Device,
  loginByEmail,
  open,
} from './testkit.js'

let anvil: Awaited<ReturnType<typeof startAnvil>>
let contracts: Contracts
let app: ReturnType<typeof createMagicService>
let mailbox: Mailbox.Store
let registry: Registry

beforeAll(async () => {
  anvil = await startAnvil({ port: await findFreePort() })
  contracts = await deployContracts({ rpcUrl: anvil.rpcUrl })
  mailbox = Mailbox.create()
  registry = createRegistry({ rpcUrl: anvil.rpcUrl })
  app = createMagicService({
    mailbox,
    registry,
    chain: { rpcUrl: anvil.rpcUrl, chainId: anvil.chainId },
    tokens: contracts,
  })
}, 60_000)

afterAll(() => anvil?.stop())

let users = 0
async function loggedIn(): Promise<{ device: Device; address: Address }> {
  const device = await createDevice()
  const email = `user${++users}@example.com`
  await loginByEmail(app, mailbox, email, device)
  return { device, address: registry.find({ email })!.address }
}

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
      [{ nft: { contractAddress: contracts.erc721, quantity: 1 } }],
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
      [{ contractId: contracts.erc1155, tokenId: '7', quantity: 3 }],
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
        contractAddress: contracts.erc1155,
        standard: 'ERC1155',
        tokenId: '7',
        quantity: '3',
      },
    ])
    const tokenId = screen.data.nfts[0]!.tokenId

    const cancelled = await open(
      app,
      'magic_nft_transfer',
      [{ contractAddress: contracts.erc721, tokenId, recipient: address }],
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
      [{ contractAddress: contracts.erc721, tokenId, recipient }],
      { device },
    )
    await transfer.until((line) => line.kind === 'screen')
    await transfer.answer('confirm')
    expect((await transfer.done()).response.result).toEqual({
      status: 'processed',
    })
    expect(
      await chain().readContract({
        address: contracts.erc721,
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
