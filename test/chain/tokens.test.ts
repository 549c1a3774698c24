import { type Address, parseEther, parseEventLogs } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { expect, inject, test } from 'vitest'
import {
  TestERC20,
  TestERC721,
  TestERC1155,
} from '../../src/emulator/chain/artifacts.generated.js'
import { getClients } from './clients.js'

const contracts = inject('contracts')
const { publicClient, walletClient, fundedAccount } = getClients()
const randomAddress = (): Address =>
  privateKeyToAccount(generatePrivateKey()).address

/** Decodes a `data:application/json;base64,` URI. */
const decodeDataUri = (uri: string): unknown => {
  const prefix = 'data:application/json;base64,'
  expect(uri.startsWith(prefix)).toBe(true)
  return JSON.parse(Buffer.from(uri.slice(prefix.length), 'base64').toString())
}

test('anyone mints the ERC-20 and transfers it', async () => {
  const alice = await fundedAccount()
  const bob = randomAddress()
  const client = walletClient(alice)
  const token = { address: contracts.erc20, abi: TestERC20.abi } as const
  const balanceOf = (account: Address) =>
    publicClient.readContract({
      ...token,
      functionName: 'balanceOf',
      args: [account],
    })

  await publicClient.waitForTransactionReceipt({
    hash: await client.writeContract({
      ...token,
      functionName: 'mint',
      args: [alice.address, parseEther('50')],
    }),
  })
  expect(await balanceOf(alice.address)).toBe(parseEther('50'))

  await publicClient.waitForTransactionReceipt({
    hash: await client.writeContract({
      ...token,
      functionName: 'transfer',
      args: [bob, parseEther('12.5')],
    }),
  })
  expect(await balanceOf(alice.address)).toBe(parseEther('37.5'))
  expect(await balanceOf(bob)).toBe(parseEther('12.5'))
})

test('anyone mints an ERC-721, which has a data-URI tokenURI and transfers', async () => {
  const alice = await fundedAccount()
  const bob = randomAddress()
  const client = walletClient(alice)
  const nft = { address: contracts.testErc721, abi: TestERC721.abi } as const

  const receipt = await publicClient.waitForTransactionReceipt({
    hash: await client.writeContract({
      ...nft,
      functionName: 'mint',
      args: [alice.address],
    }),
  })
  // Other test files mint too, so read the id from the Transfer event.
  const [minted] = parseEventLogs({
    abi: TestERC721.abi,
    eventName: 'Transfer',
    logs: receipt.logs,
  })
  const tokenId = minted!.args.tokenId
  expect(tokenId).toBeGreaterThan(0n)
  expect(minted!.args.to).toBe(alice.address)
  expect(
    decodeDataUri(
      await publicClient.readContract({
        ...nft,
        functionName: 'tokenURI',
        args: [tokenId],
      }),
    ),
  ).toEqual({
    name: `Test NFT ${tokenId}`,
    description: `Local test NFT ${tokenId}`,
  })

  await publicClient.waitForTransactionReceipt({
    hash: await client.writeContract({
      ...nft,
      functionName: 'safeTransferFrom',
      args: [alice.address, bob, tokenId],
    }),
  })
  expect(
    await publicClient.readContract({
      ...nft,
      functionName: 'ownerOf',
      args: [tokenId],
    }),
  ).toBe(bob)
})

test('anyone mints an ERC-1155 balance and transfers part of it', async () => {
  const alice = await fundedAccount()
  const bob = randomAddress()
  const client = walletClient(alice)
  const items = {
    address: contracts.testErc1155,
    abi: TestERC1155.abi,
  } as const
  const balanceOf = (account: Address) =>
    publicClient.readContract({
      ...items,
      functionName: 'balanceOf',
      args: [account, 7n],
    })

  await publicClient.waitForTransactionReceipt({
    hash: await client.writeContract({
      ...items,
      functionName: 'mint',
      args: [alice.address, 7n, 10n, '0x'],
    }),
  })
  await publicClient.waitForTransactionReceipt({
    hash: await client.writeContract({
      ...items,
      functionName: 'safeTransferFrom',
      args: [alice.address, bob, 7n, 4n, '0x'],
    }),
  })
  expect(await balanceOf(alice.address)).toBe(6n)
  expect(await balanceOf(bob)).toBe(4n)
  expect(
    decodeDataUri(
      await publicClient.readContract({
        ...items,
        functionName: 'uri',
        args: [7n],
      }),
    ),
  ).toEqual({ name: 'Test Item 7', description: 'Local test item 7' })
})
