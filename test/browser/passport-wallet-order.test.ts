import {
  type Address,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  hashStruct,
  http,
  parseAbi,
  parseEther,
  toHex,
  zeroAddress,
  zeroHash,
} from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { commands } from 'vitest/browser'
import { createConfig, mr } from '../../src/api/index.js'
import { anvilAccounts } from '../../src/emulator/chain/accounts.js'
import type { ZkEvmProvider } from '../../src/passport/zkevm/provider.js'
import {
  type Connected,
  chain,
  connectPlayer,
  fund,
  info,
  noConfirmationWindowLeft,
  setGuardianRules,
  trackWindows,
} from './passportWallet.js'

/*
 * A dApp's marketplace flow on the emulated platform, through our
 * generated clients and the game wallet in the browser: the platform mints
 * an NFT to the player's smart wallet, the player approves the seaport and
 * signs a Seaport 1.5 listing with the wallet (confirming both in the
 * guardian's popup), the dApp creates it on the order book, and another
 * account buys it on chain with the zone-signed fulfilment data. The dApp
 * builds the order itself, as Seaport defines it, without the published
 * order book SDK.
 */

const { passportDomain } = info.passport
const transactionPage = `${passportDomain}/transaction-confirmation/zkevm/transaction?transactionID=`
const messagePage = `${passportDomain}/transaction-confirmation/zkevm/message?messageID=`

/** Anvil account 2 (left to dApps): the buyer, an EOA of the dApp's. */
const buyer = anvilAccounts[2] as (typeof anvilAccounts)[number]

const { seaport, signedZone, erc721 } = info.contracts

/** ERC-6492's magic suffix: a signature of a wallet not deployed yet. */
const erc6492Suffix = '6492'.repeat(16)

const erc721Abi = parseAbi([
  'function setApprovalForAll(address operator, bool approved)',
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function ownerOf(uint256 tokenId) view returns (address)',
])

// Seaport 1.5's structs and the calls a dApp makes (seaport-types).
const seaportAbi = parseAbi([
  'struct OfferItem { uint8 itemType; address token; uint256 identifierOrCriteria; uint256 startAmount; uint256 endAmount; }',
  'struct ConsiderationItem { uint8 itemType; address token; uint256 identifierOrCriteria; uint256 startAmount; uint256 endAmount; address recipient; }',
  'struct OrderComponents { address offerer; address zone; OfferItem[] offer; ConsiderationItem[] consideration; uint8 orderType; uint256 startTime; uint256 endTime; bytes32 zoneHash; uint256 salt; bytes32 conduitKey; uint256 counter; }',
  'struct OrderParameters { address offerer; address zone; OfferItem[] offer; ConsiderationItem[] consideration; uint8 orderType; uint256 startTime; uint256 endTime; bytes32 zoneHash; uint256 salt; bytes32 conduitKey; uint256 totalOriginalConsiderationItems; }',
  'struct AdvancedOrder { OrderParameters parameters; uint120 numerator; uint120 denominator; bytes signature; bytes extraData; }',
  'struct CriteriaResolver { uint256 orderIndex; uint8 side; uint256 index; uint256 identifier; bytes32[] criteriaProof; }',
  'function getCounter(address offerer) view returns (uint256 counter)',
  'function getOrderHash(OrderComponents order) view returns (bytes32 orderHash)',
  'function fulfillAdvancedOrder(AdvancedOrder advancedOrder, CriteriaResolver[] criteriaResolvers, bytes32 fulfillerConduitKey, address recipient) payable returns (bool fulfilled)',
])

/** The EIP-712 types of a Seaport order, as a wallet is asked to sign them. */
const orderTypes = {
  EIP712Domain: [
    { name: 'name', type: 'string' },
    { name: 'version', type: 'string' },
    { name: 'chainId', type: 'uint256' },
    { name: 'verifyingContract', type: 'address' },
  ],
  OrderComponents: [
    { name: 'offerer', type: 'address' },
    { name: 'zone', type: 'address' },
    { name: 'offer', type: 'OfferItem[]' },
    { name: 'consideration', type: 'ConsiderationItem[]' },
    { name: 'orderType', type: 'uint8' },
    { name: 'startTime', type: 'uint256' },
    { name: 'endTime', type: 'uint256' },
    { name: 'zoneHash', type: 'bytes32' },
    { name: 'salt', type: 'uint256' },
    { name: 'conduitKey', type: 'bytes32' },
    { name: 'counter', type: 'uint256' },
  ],
  OfferItem: [
    { name: 'itemType', type: 'uint8' },
    { name: 'token', type: 'address' },
    { name: 'identifierOrCriteria', type: 'uint256' },
    { name: 'startAmount', type: 'uint256' },
    { name: 'endAmount', type: 'uint256' },
  ],
  ConsiderationItem: [
    { name: 'itemType', type: 'uint8' },
    { name: 'token', type: 'address' },
    { name: 'identifierOrCriteria', type: 'uint256' },
    { name: 'startAmount', type: 'uint256' },
    { name: 'endAmount', type: 'uint256' },
    { name: 'recipient', type: 'address' },
  ],
} as const

/** Seaport's item types and the order type Immutable's seaport fills. */
const NATIVE = 0
const ERC721 = 2
const FULL_RESTRICTED = 2

/** The platform API's clients, as a dApp configures them. */
const config = createConfig({ basePath: info.passport.apiUrl })
const orders = new mr.OrdersApi(config)
const chains = new mr.ChainsApi(config)
// Mint requests take the platform's secret key.
const nfts = new mr.NftsApi(
  createConfig({
    basePath: info.passport.apiUrl,
    headers: { 'x-immutable-api-key': info.passport.apiKey },
  }),
)

let player: Connected
let windows: ReturnType<typeof trackWindows>

beforeEach(async () => {
  localStorage.clear()
  windows = trackWindows()
  player = await connectPlayer({ label: 'order' })
})
afterEach(async () => {
  vi.restoreAllMocks()
  await setGuardianRules(player.wallet, null)
  await noConfirmationWindowLeft(windows)
})

/** The platform's name of the emulator's chain, as the chains route lists it. */
async function chainName(): Promise<string> {
  const { data } = await chains.listChains()
  const found = data.result.find(
    (candidate) => candidate.id === `eip155:${info.chainId}`,
  )
  if (!found) throw new Error(`No chain eip155:${info.chainId} listed.`)
  return found.name
}

/** Mints `tokenId` of the platform's ERC-721 to `owner` through a mint request. */
async function mintTo(name: string, owner: Address, tokenId: bigint) {
  const referenceId = crypto.randomUUID()
  const accepted = await nfts.createMintRequest({
    chainName: name,
    contractAddress: erc721,
    createMintRequestRequest: {
      assets: [
        {
          reference_id: referenceId,
          owner_address: owner,
          token_id: String(tokenId),
          metadata: {
            name: 'Sword',
            attributes: [{ trait_type: 'Attack', value: 9 }],
          },
        },
      ],
    },
  })
  expect(accepted.status).toBe(202)
  const read = async () =>
    (
      await nfts.getMintRequest({
        chainName: name,
        contractAddress: erc721,
        referenceId,
      })
    ).data.result[0]
  await expect.poll(async () => (await read())?.status).toBe('succeeded')
  const record = await read()
  expect(record).toMatchObject({
    token_id: String(tokenId),
    owner_address: owner.toLowerCase(),
    error: null,
  })
  const receipt = await chain.waitForTransactionReceipt({
    hash: record?.transaction_hash as Hex,
  })
  expect(receipt.status).toBe('success')
}

/** `eth_sendTransaction` of a contract call from the wallet, once mined. */
async function call(provider: ZkEvmProvider, to: Address, data: Hex) {
  const hash = (await provider.request({
    method: 'eth_sendTransaction',
    params: [{ to, data } as never],
  })) as Hex
  const receipt = await chain.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return receipt
}

describe('a listing signed by the game wallet, through our generated clients', () => {
  test.each([
    [
      'before its wallet is deployed (ERC-6492): the book takes it INACTIVE, ACTIVE once the wallet approves the seaport',
      'sign first',
    ],
    [
      'after the wallet approved the seaport (deployed, ERC-1271): the book takes it ACTIVE',
      'approve first',
    ],
  ] as const)(
    'behavior: a Seaport listing signed %s; another account buys it with the fulfilment data: FILLED, a trade, the NFT moved on chain',
    async (_title, steps) => {
      const { provider, wallet } = player
      const name = await chainName()
      await fund(wallet, parseEther('1'))
      // The player confirms every contract call and every typed message.
      await setGuardianRules(player.wallet, {
        confirmUnknownContracts: true,
        confirmTypedData: true,
      })
      const tokenId = BigInt(
        `0x${Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) =>
          byte.toString(16).padStart(2, '0'),
        ).join('')}`,
      )
      await mintTo(name, wallet, tokenId)
      const ownerOf = () =>
        chain.readContract({
          address: erc721,
          abi: erc721Abi,
          functionName: 'ownerOf',
          args: [tokenId],
        })
      expect(await ownerOf()).toBe(wallet)
      expect(await chain.getCode({ address: wallet })).toBeUndefined()

      // The order, as Seaport 1.5 defines it: the NFT for 1 IMX to the
      // wallet; the fees are left to the fulfiller, who adds them as tips.
      const price = parseEther('1')
      const now = Math.floor(Date.now() / 1000)
      const startTime = BigInt(now - 1)
      const endTime = BigInt(now + 3600)
      const counter = await chain.readContract({
        address: seaport,
        abi: seaportAbi,
        functionName: 'getCounter',
        args: [wallet],
      })
      expect(counter).toBe(0n)
      const components = {
        offerer: wallet,
        zone: signedZone,
        offer: [
          {
            itemType: ERC721,
            token: erc721,
            identifierOrCriteria: tokenId,
            startAmount: 1n,
            endAmount: 1n,
          },
        ],
        consideration: [
          {
            itemType: NATIVE,
            token: zeroAddress,
            identifierOrCriteria: 0n,
            startAmount: price,
            endAmount: price,
            recipient: wallet,
          },
        ],
        orderType: FULL_RESTRICTED,
        startTime,
        endTime,
        zoneHash: zeroHash,
        salt: BigInt(toHex(crypto.getRandomValues(new Uint8Array(16)))),
        conduitKey: zeroHash,
        counter,
      }
      const orderHash = hashStruct({
        types: orderTypes,
        primaryType: 'OrderComponents',
        data: components,
      })
      expect(
        await chain.readContract({
          address: seaport,
          abi: seaportAbi,
          functionName: 'getOrderHash',
          args: [components],
        }),
      ).toBe(orderHash)

      // The wallet signs it as typed data (the player confirms in the popup).
      const typed = {
        types: orderTypes,
        domain: {
          name: 'ImmutableSeaport',
          version: '1.5',
          chainId: info.chainId,
          verifyingContract: seaport,
        },
        primaryType: 'OrderComponents',
        message: components,
      } as const
      const typedData = JSON.stringify(typed, (_, value) =>
        typeof value === 'bigint' ? value.toString() : value,
      )
      const sign = async () => {
        const signing = provider.request({
          method: 'eth_signTypedData_v4',
          params: [wallet, typedData],
        }) as Promise<Hex>
        expect(
          await commands.popupText(messagePage, 'confirmation-typed-data'),
        ).toContain(String(tokenId))
        await commands.popupClick(messagePage, 'confirmation-approve')
        const signed = await signing
        await commands.popupsGone(passportDomain)
        return signed
      }

      // The wallet approves the seaport (its first transaction deploys it);
      // the player confirms the call in the popup.
      const approve = async () => {
        const approving = call(
          provider,
          erc721,
          encodeFunctionData({
            abi: erc721Abi,
            functionName: 'setApprovalForAll',
            args: [seaport, true],
          }),
        )
        await commands.popupClick(transactionPage, 'confirmation-approve')
        await approving
        await commands.popupsGone(passportDomain)
        expect(await chain.getCode({ address: wallet })).toMatch(
          /^0x[0-9a-f]+$/,
        )
        expect(
          await chain.readContract({
            address: erc721,
            abi: erc721Abi,
            functionName: 'isApprovedForAll',
            args: [wallet, seaport],
          }),
        ).toBe(true)
      }

      if (steps === 'approve first') await approve()
      const signature = await sign()
      // Not deployed yet, the wallet's signature is ERC-6492-wrapped; once
      // deployed, it is the wallet's own (ERC-1271).
      expect(signature.endsWith(erc6492Suffix)).toBe(steps === 'sign first')

      const protocolFee = {
        type: 'PROTOCOL',
        amount: String((price * 2n) / 100n),
        recipient_address: info.accounts.deployer.address.toLowerCase(),
      }
      const created = await orders.createListing({
        chainName: name,
        createListingRequestBody: {
          account_address: wallet,
          order_hash: orderHash,
          buy: [{ type: 'NATIVE', amount: String(price) }],
          sell: [
            {
              type: 'ERC721',
              contract_address: erc721,
              token_id: String(tokenId),
            },
          ],
          fees: [],
          start_at: new Date(Number(startTime) * 1000).toISOString(),
          end_at: new Date(Number(endTime) * 1000).toISOString(),
          salt: String(components.salt),
          signature,
          protocol_data: {
            order_type: 'FULL_RESTRICTED',
            counter: String(counter),
            zone_address: signedZone,
            seaport_address: seaport,
            seaport_version: '1.5',
          },
        },
      })
      expect(created.status).toBe(201)
      const listing = created.data.result
      expect(listing).toMatchObject({
        type: 'LISTING',
        account_address: wallet.toLowerCase(),
        order_hash: orderHash,
        signature,
        salt: String(components.salt),
        buy: [{ type: 'NATIVE', amount: String(price) }],
        sell: [
          {
            type: 'ERC721',
            contract_address: erc721.toLowerCase(),
            token_id: String(tokenId),
          },
        ],
        // The book's protocol fee, 2% of the price, which the buyer pays.
        fees: [protocolFee],
        chain: { id: `eip155:${info.chainId}`, name },
        protocol_data: {
          order_type: 'FULL_RESTRICTED',
          counter: '0',
          zone_address: signedZone.toLowerCase(),
          seaport_address: seaport.toLowerCase(),
          seaport_version: '1.5',
        },
        fill_status: { numerator: '0', denominator: '0' },
      })
      const status = async () =>
        (await orders.getListing({ chainName: name, listingId: listing.id }))
          .data.result.status
      if (steps === 'sign first') {
        // The wallet holds the NFT but has not approved the seaport.
        expect(await status()).toEqual({
          name: 'INACTIVE',
          sufficient_approvals: false,
          sufficient_balances: true,
        })
        await approve()
      }
      expect(await status()).toEqual({ name: 'ACTIVE' })
      const { data: listed } = await orders.listListings({
        chainName: name,
        accountAddress: wallet,
      })
      expect(listed.result.map((entry) => entry.id)).toEqual([listing.id])

      // The buyer asks for fulfilment data and fills the order on chain,
      // paying the price and each fee as a tip.
      const fulfilment = (
        await orders.fulfillmentData({
          chainName: name,
          fulfillmentDataRequest: [
            { order_id: listing.id, taker_address: buyer.address, fees: [] },
          ],
        })
      ).data.result
      expect(fulfilment.unfulfillable_orders).toEqual([])
      expect(fulfilment.fulfillable_orders).toHaveLength(1)
      const [fillable] = fulfilment.fulfillable_orders
      expect(fillable?.order.fees).toEqual([protocolFee])
      const order = fillable?.order as NonNullable<typeof fillable>['order']
      // The seaport asks the deployed wallet through ERC-1271: the data
      // carries the wallet's own signature, without an ERC-6492 wrapper.
      expect(order.signature.endsWith(erc6492Suffix)).toBe(false)
      if (steps === 'approve first') expect(order.signature).toBe(signature)
      expect(
        await chain.verifyTypedData({
          address: wallet,
          signature: order.signature as Hex,
          ...typed,
        }),
      ).toBe(true)
      const tips = order.fees.map((fee) => ({
        itemType: NATIVE,
        token: zeroAddress,
        identifierOrCriteria: 0n,
        startAmount: BigInt(fee.amount),
        endAmount: BigInt(fee.amount),
        recipient: getAddress(fee.recipient_address),
      }))
      const { counter: _, ...parameters } = components
      const sellerBefore = await chain.getBalance({ address: wallet })
      const feeBefore = await chain.getBalance({
        address: info.accounts.deployer.address,
      })
      const buyerClient = createWalletClient({
        account: buyer,
        transport: http(info.rpcUrl),
      })
      const fill = await buyerClient.writeContract({
        chain: null,
        address: seaport,
        abi: seaportAbi,
        functionName: 'fulfillAdvancedOrder',
        args: [
          {
            parameters: {
              ...parameters,
              consideration: [...components.consideration, ...tips],
              totalOriginalConsiderationItems: BigInt(
                components.consideration.length,
              ),
            },
            numerator: 1n,
            denominator: 1n,
            signature: order.signature as Hex,
            extraData: fillable?.extra_data as Hex,
          },
          [],
          zeroHash,
          zeroAddress,
        ],
        value: price + BigInt(protocolFee.amount),
        // Sent as is, not estimated: a fill the seaport refuses is mined as
        // a revert the test reads, not a viem error the page cannot report.
        gas: 1_000_000n,
      })
      const receipt = await chain.waitForTransactionReceipt({ hash: fill })
      expect(receipt.status).toBe('success')
      expect(await ownerOf()).toBe(buyer.address)
      expect((await chain.getBalance({ address: wallet })) - sellerBefore).toBe(
        price,
      )
      expect(
        (await chain.getBalance({ address: info.accounts.deployer.address })) -
          feeBefore,
      ).toBe(BigInt(protocolFee.amount))

      const filled = (
        await orders.getListing({ chainName: name, listingId: listing.id })
      ).data.result
      expect(filled.status).toEqual({ name: 'FILLED' })
      expect(filled.fill_status).toEqual({ numerator: '1', denominator: '1' })

      const { data: trades } = await orders.listTrades({
        chainName: name,
        accountAddress: wallet,
      })
      expect(trades.result).toHaveLength(1)
      const [trade] = trades.result
      expect(trade).toMatchObject({
        order_id: listing.id,
        maker_address: wallet.toLowerCase(),
        seller_address: wallet.toLowerCase(),
        taker_address: buyer.address.toLowerCase(),
        buyer_address: buyer.address.toLowerCase(),
        sell: listing.sell,
        buy: [{ type: 'NATIVE', amount: String(price) }],
        fees: order.fees,
        chain: { id: `eip155:${info.chainId}`, name },
        blockchain_metadata: {
          transaction_hash: fill,
          block_number: String(receipt.blockNumber),
        },
      })
      expect(
        (
          await orders.getTrade({
            chainName: name,
            tradeId: trade?.id as string,
          })
        ).data.result,
      ).toEqual(trade)
    },
  )
})
