/**
 * The published `@imtbl/generated-clients` 2.24.8, unchanged but for its
 * base path and API key, against the passport, guardian and crafting
 * routes the emulated platform serves beyond the wallet's own flows.
 */
import {
  createConfig,
  MultiRollupApiClients,
  mr,
} from '@imtbl/generated-clients'
import {
  type Address,
  encodeFunctionData,
  getAddress,
  hashMessage,
  parseAbi,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { linkWalletTypedData } from '../../../passport/wire/api.js'
import { platformApiKey } from '../../constants.js'
import { type Backends, type Player, startBackends } from '../testkit.js'
import { craftingSigner } from './crafting.js'
import { seaportListing } from './testkit.js'

let b: Backends
let player: Player
let clients: MultiRollupApiClients
let keyed: mr.Configuration
let auth: { headers: { Authorization: string } }

const bob = getAddress('0x000000000000000000000000000000000000b0b0')

beforeAll(async () => {
  b = await startBackends()
  player = await b.player()
  await b.register(player)
  const config = createConfig({ basePath: b.api.url })
  clients = new MultiRollupApiClients({
    indexer: config,
    orderBook: config,
    passport: config,
  })
  keyed = new mr.Configuration({ basePath: b.api.url, apiKey: platformApiKey })
  auth = { headers: { Authorization: `Bearer ${player.accessToken}` } }
}, 120_000)
afterAll(() => b?.stop())

describe('the published generated client', () => {
  test('behavior: passportApi reads the linked addresses (both routes) and, with the API key, the user metadata', async () => {
    const external = privateKeyToAccount(generatePrivateKey())
    const nonce = crypto.randomUUID()
    await clients.passportProfileApi.linkWalletV2(
      {
        linkWalletV2Request: {
          type: 'External',
          wallet_address: external.address,
          nonce,
          signature: await external.signTypedData({
            domain: linkWalletTypedData.domain,
            types: { LinkWallet: linkWalletTypedData.types.LinkWallet },
            primaryType: linkWalletTypedData.primaryType,
            message: {
              walletAddress: external.address.toLowerCase() as Address,
              immutablePassportAddress: player.wallet.toLowerCase() as Address,
              condition: linkWalletTypedData.condition,
              nonce,
            },
          }),
        },
      },
      auth,
    )
    const linked = await clients.passportApi.getLinkedAddresses(
      { chainName: b.chainName, userId: player.sub },
      auth,
    )
    expect(linked.data).toEqual({ linked_addresses: [external.address] })
    const deprecated = await clients.passportApi.getLinkedAddressesDeprecated(
      { userId: player.sub },
      auth,
    )
    expect(deprecated.data).toEqual({ linkedAddresses: [external.address] })
    const metadata = await new mr.PassportApi(keyed).getUserMetadata({
      userId: player.sub,
    })
    expect(metadata.data).toEqual({
      passport_metadata: [
        {
          chain_id: `eip155:${b.chainId}`,
          chain_key: b.chainName,
          user_admin_key: player.custody.address,
          counterfactual_address: player.wallet,
        },
      ],
    })
    // Without the key, the client rejects with the API's 401.
    await expect(
      clients.passportApi.getUserMetadata({ userId: player.sub }),
    ).rejects.toMatchObject({
      response: { status: 401, data: { code: 'UNAUTHORISED_REQUEST' } },
    })
  })

  test('behavior: passportApi describes a transaction and typed data from the chain', async () => {
    const data = encodeFunctionData({
      abi: parseAbi(['function transfer(address to, uint256 amount)']),
      args: [bob, 3n],
    })
    const transaction = await clients.passportApi.getTransactionMetadata(
      {
        chainName: b.chainName,
        getTransactionMetadataRequest: {
          contract_address: b.contracts.erc20,
          method_id: data.slice(0, 10),
          transaction_id: 'tx-1',
          transaction_data: data,
        },
      },
      auth,
    )
    expect(transaction.data).toEqual({
      transaction_type: 'ERC20_TRANSFER',
      to_address: bob,
      amount: '3',
      decimals: 18,
      symbol: 'TEST',
      immutable_verification_status: 'unverified',
      image_url: '',
    })
    const typed = await clients.passportApi.getTypedDataMetadata(
      {
        chainName: b.chainName,
        getTypedDataMetadataRequest: {
          payload: seaportListing({
            chainId: b.chainId,
            offerer: player.wallet,
            token: b.contracts.testErc721,
            tokenId: '5',
            seaport: bob,
            feeRecipient: bob,
          }) as never,
        },
      },
      auth,
    )
    expect(typed.data).toMatchObject({
      typed_data_type: 'SEAPORT_CREATE_LISTING_METADATA',
      sell: { type: 'ERC721', token_id: '5', contract_name: 'Test NFT' },
      buy: { type: 'NATIVE', amount: '10000000000000000', decimals: 18 },
    })
  })

  test('behavior: guardianApi reads a pending transaction with its simulation and approves it by payload hash (as a program on this machine)', async () => {
    await fetch(`${b.api.url}/dev/guardian/rules?wallet=${player.wallet}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ confirmAboveValue: '0' }),
    })
    const evaluated = await clients.guardianApi.evaluateTransaction(
      {
        id: 'evm',
        transactionEvaluationRequest: {
          chainType: 'evm',
          chainId: `eip155:${b.chainId}`,
          transactionData: {
            nonce: '0',
            userAddress: player.wallet,
            metaTransactions: [
              {
                delegateCall: false,
                revertOnError: true,
                gasLimit: '0',
                target: bob,
                value: '1',
                data: '0x',
              },
            ],
          },
        } as never,
      },
      auth,
    )
    const id = evaluated.data.transactionId as string
    expect(evaluated.data.confirmationRequired).toBe(true)
    const read = await clients.guardianApi.getTransactionByID(
      { transactionID: id, chainType: 'evm', chainID: `eip155:${b.chainId}` },
      { ...auth, params: { includeSimulation: true } },
    )
    // The wallet holds nothing: sending 1 wei reverts the batch.
    expect(read.data).toMatchObject({
      id,
      eth_address: player.wallet,
      status: 'pending',
      transaction_type: 'evm',
      validation: { status: 'error' },
    })
    const digest = b.guardian.get(id)?.digest as string
    const approved = await clients.guardianApi.approvePendingTransaction(
      {
        payloadHash: digest,
        transactionApprovalRequest: {
          chainType: 'evm',
          chainID: `eip155:${b.chainId}`,
        },
      },
      auth,
    )
    expect(approved.status).toBe(204)
    expect(b.guardian.get(id)?.state).toBe('allowed')
  })

  test('behavior: guardianApi reads and approves typed-data and ERC-191 messages', async () => {
    await fetch(`${b.api.url}/dev/guardian/rules?wallet=${player.wallet}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ confirmTypedData: true, confirmErc191: true }),
    })
    const payload = {
      types: {
        EIP712Domain: [{ name: 'chainId', type: 'uint256' }],
        Mail: [{ name: 'contents', type: 'string' }],
      },
      domain: { chainId: b.chainId },
      primaryType: 'Mail',
      message: { contents: 'hi' },
    }
    const typed = await clients.guardianApi.evaluateMessage(
      {
        messageEvaluationRequest: {
          chainID: String(b.chainId),
          payload: payload as never,
        },
      },
      auth,
    )
    const typedId = typed.data.messageId
    const message = await clients.guardianApi.getMessageByID(
      { messageID: typedId },
      { ...auth, params: { includeSimulation: true } },
    )
    expect(message.data).toEqual({
      id: typedId,
      eth_address: player.wallet,
      status: 'pending',
      version: '1',
      data: payload,
      validation: {
        status: 'success',
        highestSeverity: {
          severity: 'benign',
          description: 'Signing it moves nothing by itself.',
        },
        analysis: [],
      },
    })
    expect(
      (
        await clients.guardianApi.approvePendingMessage(
          { messageID: typedId },
          auth,
        )
      ).status,
    ).toBe(204)
    const text = await clients.guardianApi.evaluateErc191Message(
      {
        eRC191MessageEvaluationRequest: {
          chainID: `eip155:${b.chainId}`,
          payload: 'sign me',
        },
      },
      auth,
    )
    const byHash = await clients.guardianApi.getErc191MessageByID(
      { messageID: hashMessage('sign me') },
      auth,
    )
    expect(byHash.data).toEqual({
      id: text.data.messageId,
      eth_address: player.wallet,
      status: 'pending',
      version: '1',
      data: 'sign me',
    })
    expect(
      (
        await clients.guardianApi.approvePendingERC191Message(
          { messageID: text.data.messageId },
          auth,
        )
      ).status,
    ).toBe(204)
    expect(b.guardian.get(text.data.messageId)?.state).toBe('allowed')
  })

  test("behavior: CraftingApi gets the emulator crafting signer's signature with the API key", async () => {
    const signed = await new mr.CraftingApi(keyed).signCraftingPayload({
      chainName: b.chainName,
      signCraftingRequest: {
        multi_caller: { address: bob, name: 'Multicaller', version: '1' },
        reference_id: '67f7d464b8f04f6a9a3b8d3cb4a21af0',
        calls: [
          {
            target_address: b.contracts.erc20,
            function_signature: 'mint(address,uint256)',
            function_args: [bob, '1'],
          },
        ],
        expires_at: new Date(Date.now() + 60_000).toISOString(),
      },
    })
    expect(signed.data).toEqual({
      signer_address: craftingSigner.address,
      signature: expect.stringMatching(/^0x[0-9a-f]{130}$/),
    })
  })
})
