import {
  createPublicClient,
  getAddress,
  http,
  parseAbi,
  parseAbiItem,
  parseEther,
  toHex,
} from 'viem'
import { afterEach, describe, expect, inject, test } from 'vitest'
import { page } from 'vitest/browser'
import type { Magic } from '../../src/magic/index.js'
import { fund, loggedIn, shownOverlay } from './magicLogin.js'

/**
 * Our client's wallet UI (`magic.wallet.show*`) and NFT calls, driven in the
 * emulator's cross-origin iframe with Playwright's frame locator. Every
 * screen resolves once its `close` is clicked.
 */
describe('wallet UI with our client', () => {
  const emulator = inject('magicEmulator')
  const { rpcUrl } = emulator
  const chain = createPublicClient({ transport: http(rpcUrl) })
  const erc721 = parseAbi([
    'function ownerOf(uint256 tokenId) view returns (address)',
  ])
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

  /** The provider's screens, once our client shows its iframe. */
  async function overlay() {
    const iframe = await shownOverlay()
    return { iframe, ui: page.frameLocator(page.elementLocator(iframe)) }
  }

  /** Waits for `testid` to read exactly `text` in the iframe. */
  async function seen(
    ui: Awaited<ReturnType<typeof overlay>>['ui'],
    testid: string,
    text: string | RegExp,
  ) {
    await ui
      .getByTestId(testid)
      .filter({
        hasText: typeof text === 'string' ? new RegExp(`^${text}$`) : text,
      })
      .hover()
  }

  /** Clicks `close`: the call resolves `true` and the overlay hides. */
  async function close(
    screen: {
      iframe: HTMLIFrameElement
      ui: ReturnType<typeof page.frameLocator>
    },
    call: PromiseLike<unknown>,
  ) {
    await screen.ui.getByTestId('close').click()
    expect(await call).toBe(true)
    expect(screen.iframe.style.display).toBe('none')
  }

  test('showAddress shows the user address; close resolves true', async () => {
    const { magic, address } = await user('show-address')
    const call = magic.wallet.showAddress()
    const screen = await overlay()
    await seen(screen.ui, 'wallet-address', address)
    await close(screen, call)
  })

  test('showBalances shows the real ETH balance from Anvil', async () => {
    const { magic, address } = await user('show-balances')
    await fund(rpcUrl, address, parseEther('1.5'))
    const call = magic.wallet.showBalances()
    const screen = await overlay()
    await seen(screen.ui, 'balances-eth', '1.5')
    await close(screen, call)
  })

  test('showSendTokensUI sends real ETH; showOnRamp says it is emulated', async () => {
    const { magic, address } = await user('show-send')
    await fund(rpcUrl, address, parseEther('1'))
    const to = getAddress(toHex(crypto.getRandomValues(new Uint8Array(20))))
    const send = magic.wallet.showSendTokensUI()
    const screen = await overlay()
    await screen.ui.getByTestId('send-tokens-to').fill(to)
    await screen.ui.getByTestId('send-tokens-amount').fill('0.25')
    await screen.ui.getByTestId('send-tokens-submit').click()
    await seen(screen.ui, 'send-tokens-hash', /^0x[0-9a-f]{64}$/)
    expect(await chain.getBalance({ address: to })).toBe(parseEther('0.25'))
    await close(screen, send)

    const onRamp = magic.wallet.showOnRamp()
    const ramp = await overlay()
    await seen(ramp.ui, 'onramp-emulated', /emulated/)
    await close(ramp, onRamp)
  })

  test('nft.purchase mints a test NFT that showNFTs lists; nft.transfer moves it', async () => {
    const { magic, address } = await user('nfts')
    await fund(rpcUrl, address, parseEther('1'))

    const purchase = magic.nft.purchase({ nft: {}, identityPrefill: {} })
    const checkout = await overlay()
    await checkout.ui.getByTestId('nft-checkout-confirm').click()
    expect(await purchase).toEqual({ status: 'processed' })

    const [minted] = await chain.getLogs({
      event: parseAbiItem(
        'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
      ),
      args: { to: address },
      fromBlock: 0n,
      strict: true,
    })
    if (!minted) throw new Error('No NFT was minted to the user.')
    const contractAddress = getAddress(minted.address)
    const tokenId = minted.args.tokenId
    expect(
      await chain.readContract({
        address: contractAddress,
        abi: erc721,
        functionName: 'ownerOf',
        args: [tokenId],
      }),
    ).toBe(address)

    const shown = magic.wallet.showNFTs()
    const list = await overlay()
    await list.ui
      .getByTestId('nft-item')
      .filter({ hasText: `ERC721 #${tokenId}` })
      .filter({ hasText: contractAddress })
      .hover()
    await close(list, shown)

    const recipient = getAddress(
      toHex(crypto.getRandomValues(new Uint8Array(20))),
    )
    const transfer = magic.nft.transfer({
      tokenId: tokenId.toString(),
      contractAddress,
      recipient,
    })
    const confirm = await overlay()
    await seen(confirm.ui, 'nft-recipient', recipient)
    await confirm.ui.getByTestId('nft-checkout-confirm').click()
    expect(await transfer).toEqual({ status: 'processed' })
    expect(
      await chain.readContract({
        address: contractAddress,
        abi: erc721,
        functionName: 'ownerOf',
        args: [tokenId],
      }),
    ).toBe(recipient)
  })
})
