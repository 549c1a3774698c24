/**
 * The order book's contracts as the emulator deploys them, and a listing
 * made, signed and fulfilled on chain with viem alone: the reference the
 * emulated order book builds on.
 *
 * This file runs its own Anvil: it sends from the dApp accounts 1 and 2
 * and from the emulator's minter, which no other test file may share.
 */
import {
  type Abi,
  type Address,
  BaseError,
  type Chain,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  hashDomain,
  http,
  type LocalAccount,
  parseEther,
  parseEventLogs,
  zeroAddress,
  zeroHash,
} from 'viem'
import { anvil as anvilChain } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  anvilAccounts,
  deployer,
  minter,
  zoneSigner,
} from '../../src/emulator/chain/accounts.js'
import { startAnvil } from '../../src/emulator/chain/anvil.js'
import {
  type Contracts,
  collections,
  deployContracts,
} from '../../src/emulator/chain/deploy.js'
import {
  ImmutableERC721V2,
  ImmutableERC1155,
  ImmutableSeaport,
  ImmutableSignedZoneV2,
  OperatorAllowlistUpgradeable,
} from '../../src/emulator/chain/platformArtifacts.generated.js'
import * as Seaport from '../../src/emulator/chain/seaport.js'
import { findFreePort } from '../../src/emulator/net.js'

const seller = anvilAccounts[1]!
const buyer = anvilAccounts[2]!
const stranger = anvilAccounts[3]!

let node: Awaited<ReturnType<typeof startAnvil>>
let contracts: Contracts
let chain: Chain

beforeAll(async () => {
  node = await startAnvil({ port: await findFreePort() })
  contracts = await deployContracts({ rpcUrl: node.rpcUrl })
  chain = defineChain({
    ...anvilChain,
    id: node.chainId,
    rpcUrls: { default: { http: [node.rpcUrl] } },
  })
})

afterAll(async () => {
  await node?.stop()
})

const publicClient = () =>
  createPublicClient({
    chain,
    transport: http(node.rpcUrl),
    pollingInterval: 50,
  })

/** Sends a contract call from `account` and waits for its success. */
async function send(
  account: LocalAccount,
  call: {
    address: Address
    abi: Abi
    functionName: string
    args: readonly unknown[]
    value?: bigint
  },
) {
  const wallet = createWalletClient({
    account,
    chain,
    transport: http(node.rpcUrl),
  })
  const hash = await wallet.writeContract(call as never)
  const receipt = await publicClient().waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  return receipt
}

/** The seaport's ABI with the zone's errors, which it passes on. */
const seaportAbi = [
  ...ImmutableSeaport.abi,
  ...ImmutableSignedZoneV2.abi.filter((item) => item.type === 'error'),
] as const

/** The revert of a simulated fulfilment, decoded. */
async function revertOf(
  account: LocalAccount,
  advanced: Seaport.AdvancedOrder,
  value: bigint,
): Promise<{ errorName: string | undefined; args: readonly unknown[] }> {
  const error = await publicClient()
    .simulateContract({
      account,
      address: contracts.seaport,
      abi: seaportAbi,
      functionName: 'fulfillAdvancedOrder',
      args: [advanced, [], zeroHash, zeroAddress],
      value,
    })
    .then(
      () => undefined,
      (error: unknown) => error,
    )
  expect(error).toBeInstanceOf(BaseError)
  const reverted = (error as BaseError).walk(
    (cause) => cause instanceof ContractFunctionRevertedError,
  ) as ContractFunctionRevertedError | null
  expect(reverted, String(error)).not.toBeNull()
  return {
    errorName: reverted?.data?.errorName,
    args: reverted?.data?.args ?? [],
  }
}

/** The latest block's time, in seconds. */
const now = async () =>
  (await publicClient().getBlock({ blockTag: 'latest' })).timestamp

describe('the deployed order book', () => {
  test('behavior: the seaport is ImmutableSeaport 1.5 with the domain @imtbl/orderbook signs for', async () => {
    const [version, domainSeparator, conduitController] =
      await publicClient().readContract({
        address: contracts.seaport,
        abi: ImmutableSeaport.abi,
        functionName: 'information',
      })
    expect(version).toBe('1.5')
    expect(domainSeparator).toBe(
      hashDomain({
        domain: {
          name: 'ImmutableSeaport',
          version: '1.5',
          chainId: BigInt(node.chainId),
          verifyingContract: contracts.seaport,
        },
        types: {
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'version', type: 'string' },
            { name: 'chainId', type: 'uint256' },
            { name: 'verifyingContract', type: 'address' },
          ],
        },
      }),
    )
    expect(conduitController).toBe(contracts.conduitController)
    expect(
      await publicClient().readContract({
        address: contracts.seaport,
        abi: ImmutableSeaport.abi,
        functionName: 'name',
      }),
    ).toBe('ImmutableSeaport')
    expect(
      await publicClient().readContract({
        address: contracts.seaport,
        abi: ImmutableSeaport.abi,
        functionName: 'owner',
      }),
    ).toBe(deployer.address)
  })

  test('behavior: the signed zone is allowed on the seaport and its one signer is the zone signer', async () => {
    const client = publicClient()
    expect(
      await client.readContract({
        address: contracts.seaport,
        abi: ImmutableSeaport.abi,
        functionName: 'allowedZones',
        args: [contracts.signedZone],
      }),
    ).toBe(true)
    expect(
      await client.readContract({
        address: contracts.seaport,
        abi: ImmutableSeaport.abi,
        functionName: 'allowedZones',
        args: [contracts.erc721],
      }),
    ).toBe(false)
    const [domainSeparator] = await client.readContract({
      address: contracts.signedZone,
      abi: ImmutableSignedZoneV2.abi,
      functionName: 'sip7Information',
    })
    expect(domainSeparator).toBe(
      hashDomain({
        domain: {
          ...Seaport.signedZoneDomain({
            chainId: node.chainId,
            zone: contracts.signedZone,
          }),
          chainId: BigInt(node.chainId),
        },
        types: {
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'version', type: 'string' },
            { name: 'chainId', type: 'uint256' },
            { name: 'verifyingContract', type: 'address' },
          ],
        },
      }),
    )
    const [name] = await client.readContract({
      address: contracts.signedZone,
      abi: ImmutableSignedZoneV2.abi,
      functionName: 'getSeaportMetadata',
    })
    expect(name).toBe('ImmutableSignedZoneV2')
  })

  test('behavior: the collections belong to the deployer, the minter mints, the allowlist lets the seaport move tokens', async () => {
    const client = publicClient()
    for (const [address, abi] of [
      [contracts.erc721, ImmutableERC721V2.abi],
      [contracts.erc1155, ImmutableERC1155.abi],
    ] as const) {
      const role = (functionName: 'DEFAULT_ADMIN_ROLE' | 'MINTER_ROLE') =>
        client.readContract({ address, abi, functionName })
      const has = async (
        name: 'DEFAULT_ADMIN_ROLE' | 'MINTER_ROLE',
        account: Address,
      ) =>
        client.readContract({
          address,
          abi,
          functionName: 'hasRole',
          args: [await role(name), account],
        })
      expect(await has('DEFAULT_ADMIN_ROLE', deployer.address)).toBe(true)
      expect(await has('MINTER_ROLE', minter.address)).toBe(true)
      expect(await has('MINTER_ROLE', deployer.address)).toBe(false)
      expect(
        await client.readContract({
          address,
          abi,
          functionName: 'operatorAllowlist',
        }),
      ).toBe(contracts.operatorAllowlist)
    }
    expect(
      await client.readContract({
        address: contracts.erc721,
        abi: ImmutableERC721V2.abi,
        functionName: 'name',
      }),
    ).toBe(collections.erc721.name)
    const allowlist = {
      address: contracts.operatorAllowlist,
      abi: OperatorAllowlistUpgradeable.abi,
    } as const
    expect(
      await client.readContract({
        ...allowlist,
        functionName: 'isAllowlisted',
        args: [contracts.seaport],
      }),
    ).toBe(true)
    expect(
      await client.readContract({
        ...allowlist,
        functionName: 'hasRole',
        args: [
          await client.readContract({
            ...allowlist,
            functionName: 'REGISTRAR_ROLE',
          }),
          minter.address,
        ],
      }),
    ).toBe(true)

    // The minter mints on the ERC-1155; a dApp account cannot.
    await send(minter, {
      address: contracts.erc1155,
      abi: ImmutableERC1155.abi,
      functionName: 'safeMint',
      args: [seller.address, 5n, 3n, '0x'],
    })
    expect(
      await client.readContract({
        address: contracts.erc1155,
        abi: ImmutableERC1155.abi,
        functionName: 'balanceOf',
        args: [seller.address, 5n],
      }),
    ).toBe(3n)
    await expect(
      client.simulateContract({
        account: seller,
        address: contracts.erc1155,
        abi: ImmutableERC1155.abi,
        functionName: 'safeMint',
        args: [seller.address, 5n, 1n, '0x'],
      }),
    ).rejects.toThrow(/AccessControl: account .* is missing role/)
  })
})

describe('a listing on chain, with viem alone', () => {
  const price = parseEther('1')

  /**
   * Mints `tokenId` to the seller, lets the seaport move the seller's
   * tokens, and returns the seller's signed listing of it for `price`.
   */
  async function listing(tokenId: bigint) {
    await send(minter, {
      address: contracts.erc721,
      abi: ImmutableERC721V2.abi,
      functionName: 'safeMint',
      args: [seller.address, tokenId],
    })
    await send(seller, {
      address: contracts.erc721,
      abi: ImmutableERC721V2.abi,
      functionName: 'setApprovalForAll',
      args: [contracts.seaport, true],
    })
    const counter = await publicClient().readContract({
      address: contracts.seaport,
      abi: ImmutableSeaport.abi,
      functionName: 'getCounter',
      args: [seller.address],
    })
    const start = await now()
    const order: Seaport.OrderComponents = {
      offerer: seller.address,
      zone: contracts.signedZone,
      offer: [
        {
          itemType: Seaport.ItemType.ERC721,
          token: contracts.erc721,
          identifierOrCriteria: tokenId,
          startAmount: 1n,
          endAmount: 1n,
        },
      ],
      consideration: [
        {
          itemType: Seaport.ItemType.NATIVE,
          token: zeroAddress,
          identifierOrCriteria: 0n,
          startAmount: price,
          endAmount: price,
          recipient: seller.address,
        },
      ],
      orderType: Seaport.OrderType.FULL_RESTRICTED,
      startTime: start - 1n,
      endTime: start + 3600n,
      zoneHash: zeroHash,
      salt: tokenId,
      conduitKey: zeroHash,
      counter,
    }
    const signature = await seller.signTypedData(
      Seaport.orderTypedData({
        chainId: node.chainId,
        seaport: contracts.seaport,
        order,
      }),
    )
    return { order, signature, orderHash: Seaport.orderHash(order) }
  }

  /** Extra data for the order, signed by `signer` for `fulfiller`. */
  async function extraData(
    listed: Awaited<ReturnType<typeof listing>>,
    options: {
      signer?: LocalAccount
      fulfiller?: Address
      expiration?: bigint
      context?: Hex
    } = {},
  ) {
    return Seaport.signExtraData({
      signer: options.signer ?? zoneSigner,
      chainId: node.chainId,
      zone: contracts.signedZone,
      fulfiller: options.fulfiller ?? buyer.address,
      expiration: options.expiration ?? (await now()) + 120n,
      orderHash: listed.orderHash,
      context:
        options.context ??
        Seaport.substandard3(Seaport.receivedItems(listed.order.consideration)),
    })
  }

  test("behavior: the buyer fulfils the seller's signed listing with zone-signed extra data; the NFT and the price change hands", async () => {
    const listed = await listing(101n)
    const client = publicClient()
    expect(
      await client.readContract({
        address: contracts.seaport,
        abi: ImmutableSeaport.abi,
        functionName: 'getOrderHash',
        args: [listed.order],
      }),
    ).toBe(listed.orderHash)

    const sellerBefore = await client.getBalance({ address: seller.address })
    const receipt = await send(buyer, {
      address: contracts.seaport,
      abi: ImmutableSeaport.abi,
      functionName: 'fulfillAdvancedOrder',
      args: [
        Seaport.toAdvancedOrder({
          order: listed.order,
          signature: listed.signature,
          extraData: await extraData(listed),
        }),
        [],
        zeroHash,
        zeroAddress,
      ],
      value: price,
    })

    expect(
      await client.readContract({
        address: contracts.erc721,
        abi: ImmutableERC721V2.abi,
        functionName: 'ownerOf',
        args: [101n],
      }),
    ).toBe(buyer.address)
    expect(await client.getBalance({ address: seller.address })).toBe(
      sellerBefore + price,
    )
    const [fulfilled] = parseEventLogs({
      abi: ImmutableSeaport.abi,
      eventName: 'OrderFulfilled',
      logs: receipt.logs,
    })
    expect(fulfilled?.args.orderHash).toBe(listed.orderHash)
    expect(fulfilled?.args.offerer).toBe(seller.address)
    expect(fulfilled?.args.zone).toBe(contracts.signedZone)
    expect(fulfilled?.args.recipient).toBe(buyer.address)
    // Validated, not cancelled, filled 1/1.
    expect(
      await client.readContract({
        address: contracts.seaport,
        abi: ImmutableSeaport.abi,
        functionName: 'getOrderStatus',
        args: [listed.orderHash],
      }),
    ).toEqual([true, false, 1n, 1n])
  })

  test("error: expired, foreign-signed, other-fulfiller or other-items extra data reverts with the zone's error, and the NFT stays", async () => {
    const listed = await listing(102n)
    const fulfil = async (data: Hex, account: LocalAccount = buyer) =>
      revertOf(
        account,
        Seaport.toAdvancedOrder({
          order: listed.order,
          signature: listed.signature,
          extraData: data,
        }),
        price,
      )

    const expired = (await now()) - 1n
    const late = await fulfil(await extraData(listed, { expiration: expired }))
    expect(late.errorName).toBe('SignatureExpired')
    expect(late.args[1]).toBe(expired)
    expect(late.args[2]).toBe(listed.orderHash)

    expect(await fulfil(await extraData(listed, { signer: stranger }))).toEqual(
      { errorName: 'SignerNotActive', args: [stranger.address] },
    )

    expect(
      await fulfil(await extraData(listed, { fulfiller: stranger.address })),
    ).toEqual({
      errorName: 'InvalidFulfiller',
      args: [stranger.address, buyer.address, listed.orderHash],
    })

    const cheaper = Seaport.substandard3(
      Seaport.receivedItems([
        { ...listed.order.consideration[0]!, startAmount: 1n, endAmount: 1n },
      ]),
    )
    expect(await fulfil(await extraData(listed, { context: cheaper }))).toEqual(
      { errorName: 'Substandard3Violation', args: [listed.orderHash] },
    )

    expect(await fulfil('0x')).toEqual({
      errorName: 'InvalidExtraData',
      args: ['extraData is empty', listed.orderHash],
    })

    expect(
      await publicClient().readContract({
        address: contracts.erc721,
        abi: ImmutableERC721V2.abi,
        functionName: 'ownerOf',
        args: [102n],
      }),
    ).toBe(seller.address)
  })

  test('error: an order the signed zone does not restrict is refused by the seaport', async () => {
    const listed = await listing(103n)
    const open = { ...listed.order, orderType: Seaport.OrderType.FULL_OPEN }
    expect(
      await revertOf(
        buyer,
        Seaport.toAdvancedOrder({
          order: open,
          signature: await seller.signTypedData(
            Seaport.orderTypedData({
              chainId: node.chainId,
              seaport: contracts.seaport,
              order: open,
            }),
          ),
          extraData: '0x',
        }),
        price,
      ),
    ).toEqual({ errorName: 'OrderNotRestricted', args: [] })
  })
})
