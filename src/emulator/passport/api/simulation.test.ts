import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  maxUint256,
  parseAbi,
  parseEther,
} from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { predictContracts } from '../../chain/deploy.js'
import { findFreePort } from '../../net.js'
import { type Backends, type Player, startBackends } from '../testkit.js'
import type { ValidationResult } from './schemas.js'
import { seaportListing, startApi } from './testkit.js'

let b: Backends
let player: Player

beforeAll(async () => {
  b = await startBackends()
  player = await b.player()
  await b.register(player)
}, 120_000)
afterAll(() => b?.stop())

const tokenAbi = parseAbi([
  'function mint(address to, uint256 amount)',
  'function transfer(address to, uint256 amount)',
  'function approve(address spender, uint256 amount)',
  'function setApprovalForAll(address operator, bool approved)',
])

const bob: Address = '0x000000000000000000000000000000000000b0b0'

type Meta = {
  target: Address
  data?: Hex
  value?: bigint
  delegateCall?: boolean
  revertOnError?: boolean
}

async function request(method: string, path: string, body?: unknown) {
  const response = await fetch(`${b.api.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${player.accessToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: await response.json() }
}

/** Evaluates a batch of the player's wallet and reads its simulation. */
async function simulate(
  metas: readonly Meta[],
  who: Player = player,
): Promise<ValidationResult> {
  const evaluated = await fetch(
    `${b.api.url}/guardian/v1/transactions/evm/evaluate`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${who.accessToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        chainType: 'evm',
        chainId: `eip155:${b.chainId}`,
        transactionData: {
          nonce: '0',
          userAddress: who.wallet,
          metaTransactions: metas.map((meta) => ({
            delegateCall: meta.delegateCall ?? false,
            revertOnError: meta.revertOnError ?? true,
            gasLimit: '0',
            target: meta.target,
            value: String(meta.value ?? 0n),
            data: meta.data ?? '0x',
          })),
        },
      }),
    },
  )
  const { transactionId } = (await evaluated.json()) as {
    transactionId: string
  }
  const response = await fetch(
    `${b.api.url}/guardian/v1/transactions/${transactionId}?chainType=evm&includeSimulation=true`,
    { headers: { authorization: `Bearer ${who.accessToken}` } },
  )
  expect(response.status).toBe(200)
  return ((await response.json()) as { validation: ValidationResult })
    .validation
}

const call = (
  target: Address,
  functionName: 'mint' | 'transfer' | 'approve' | 'setApprovalForAll',
  args: readonly unknown[],
): Meta => ({
  target,
  data: encodeFunctionData({
    abi: tokenAbi,
    functionName,
    args: args as never,
  }),
})

describe('GET /guardian/v1/transactions/{id}?includeSimulation=true', () => {
  test("behavior: a batch of a wallet not deployed yet runs as the wallet would: what it mints, sends and approves, from the chain's own logs", async () => {
    const { erc20 } = b.contracts
    const validation = await simulate([
      call(erc20, 'mint', [player.wallet, parseEther('5')]),
      call(erc20, 'transfer', [bob, parseEther('2')]),
      call(erc20, 'approve', [bob, parseEther('1.5')]),
    ])
    expect(validation).toEqual({
      status: 'success',
      highestSeverity: {
        severity: 'info',
        description: `Mints 5 TEST to ${player.wallet}.`,
      },
      analysis: [
        {
          severity: 'info',
          description: `Mints 5 TEST to ${player.wallet}.`,
        },
        {
          severity: 'info',
          description: `Sends 2 TEST to ${bob}.`,
          address: bob,
        },
        {
          severity: 'info',
          description: `Lets ${bob} spend 1.5 TEST.`,
          address: bob,
        },
      ],
    })
    // A simulation changes nothing on chain.
    expect(await b.publicClient.getCode({ address: player.wallet })).toBe(
      undefined,
    )
  })

  test('behavior: an unlimited allowance, an approval of every NFT and a delegateCall are warnings; the first warning leads', async () => {
    const { erc20, testErc721: erc721 } = b.contracts
    const validation = await simulate([
      call(erc20, 'approve', [bob, maxUint256]),
      call(erc721, 'setApprovalForAll', [bob, true]),
      // A delegateCall to an account without code does nothing, and passes.
      { target: bob, delegateCall: true, data: '0x' },
    ])
    const delegate = `Runs the code of ${bob} as the wallet itself (a delegateCall): it may move anything the wallet holds.`
    expect(validation).toEqual({
      status: 'success',
      highestSeverity: { severity: 'warning', description: delegate },
      analysis: [
        { severity: 'warning', description: delegate, address: bob },
        {
          severity: 'warning',
          description: `Lets ${bob} spend all the TEST the wallet holds, now and later.`,
          address: bob,
        },
        {
          severity: 'warning',
          description: `Lets ${bob} move every Test NFT token of the wallet.`,
          address: bob,
        },
      ],
    })
  })

  test('behavior: native value the wallet sends shows as sent (traced transfers)', async () => {
    const funded = await b.player()
    await b.register(funded)
    await b.fund(funded.wallet, parseEther('1'))
    const validation = await simulate(
      [{ target: bob, value: parseEther('0.25') }],
      funded,
    )
    expect(validation).toMatchObject({
      status: 'success',
      analysis: [
        {
          severity: 'info',
          description: `Sends 0.25 of the native token to ${bob}.`,
          address: bob,
        },
      ],
    })
  })

  test('error: a batch that reverts is status error, with the revert data the token gave', async () => {
    const validation = await simulate([
      call(b.contracts.erc20, 'transfer', [bob, 1n]),
    ])
    // OpenZeppelin 5's ERC20InsufficientBalance(wallet, 0, 1).
    expect(validation).toEqual({
      status: 'error',
      error: `The call reverted with data 0xe450d38c${player.wallet.slice(2).toLowerCase().padStart(64, '0')}${'0'.repeat(64)}${'0'.repeat(63)}1.`,
    })
  })

  test('behavior: a call that may fail without reverting the batch is a warning when it fails', async () => {
    const validation = await simulate([
      {
        ...call(b.contracts.erc20, 'transfer', [bob, 1n]),
        revertOnError: false,
      },
    ])
    expect(validation).toMatchObject({
      status: 'success',
      highestSeverity: { severity: 'warning' },
    })
    expect(
      (validation as { analysis: { description: string }[] }).analysis[0]
        ?.description,
    ).toMatch(
      /^A call of the batch failed and was skipped\. The call reverted with data 0xe450d38c/,
    )
  })

  test('behavior: a deployed wallet runs its own code; a batch that touches nothing of it is benign', async () => {
    const deployed = await b.player()
    await b.register(deployed)
    await b.deploy(deployed)
    const validation = await simulate(
      [call(b.contracts.erc20, 'mint', [bob, 1n]), { target: bob, data: '0x' }],
      deployed,
    )
    expect(validation).toEqual({
      status: 'success',
      highestSeverity: {
        severity: 'benign',
        description:
          'Nothing leaves or reaches the wallet, and it approves no one.',
      },
      analysis: [],
    })
  })

  test('default: without includeSimulation there is no validation; a malformed one is 400', async () => {
    const evaluated = await request(
      'POST',
      '/guardian/v1/transactions/evm/evaluate',
      {
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
              value: '0',
              data: '0x',
            },
          ],
        },
      },
    )
    const id = (evaluated.body as { transactionId: string }).transactionId
    const plain = await request(
      'GET',
      `/guardian/v1/transactions/${id}?chainType=evm`,
    )
    expect(plain.body).not.toHaveProperty('validation')
    const off = await request(
      'GET',
      `/guardian/v1/transactions/${id}?chainType=evm&includeSimulation=false`,
    )
    expect(off.body).not.toHaveProperty('validation')
    const bad = await request(
      'GET',
      `/guardian/v1/transactions/${id}?chainType=evm&includeSimulation=1`,
    )
    expect(bad).toEqual({
      status: 400,
      body: {
        code: 'VALIDATION_ERROR',
        message: "includeSimulation must be 'true' or 'false'.",
        details: null,
      },
    })
  })
})

describe('GET /guardian/v1/messages/{id}?includeSimulation=true', () => {
  async function simulateMessage(payload: unknown) {
    const evaluated = await request('POST', '/guardian/v1/messages/evaluate', {
      chainID: String(b.chainId),
      payload,
    })
    const id = (evaluated.body as { messageId: string }).messageId
    const response = await request(
      'GET',
      `/guardian/v1/messages/${id}?includeSimulation=true`,
    )
    expect(response.status).toBe(200)
    return (response.body as { validation: ValidationResult }).validation
  }

  test('behavior: a Seaport listing: what it offers for what, and whether the wallet is its offerer and owns what it offers, from the chain', async () => {
    const { testErc721: erc721 } = b.contracts
    // Token 1 is not minted: nobody owns it.
    const other = getAddress('0x00000000000000000000000000000000000000aa')
    const validation = await simulateMessage(
      seaportListing({
        chainId: b.chainId,
        offerer: other,
        token: erc721,
        tokenId: '1',
        seaport: bob,
        feeRecipient: bob,
      }),
    )
    expect(validation).toEqual({
      status: 'success',
      highestSeverity: {
        severity: 'warning',
        description: `The verifying contract ${bob} has no code on this chain.`,
      },
      analysis: [
        {
          severity: 'warning',
          description: `The verifying contract ${bob} has no code on this chain.`,
          address: bob,
        },
        {
          severity: 'info',
          description:
            'Offers Test NFT #1 for 0.01 of the native token, with 1 fee.',
        },
        {
          severity: 'warning',
          description: `The order's offerer is ${other}, not the wallet.`,
          address: other,
        },
        {
          severity: 'warning',
          description: `The offerer does not own token 1 of ${erc721}.`,
          address: erc721,
        },
      ],
    })
  })

  test('behavior: typed data for a contract with code and a name is info', async () => {
    const validation = await simulateMessage({
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        Mail: [{ name: 'contents', type: 'string' }],
      },
      domain: {
        name: 'Game',
        chainId: b.chainId,
        verifyingContract: b.contracts.erc20,
      },
      primaryType: 'Mail',
      message: { contents: 'hi' },
    })
    expect(validation).toEqual({
      status: 'success',
      highestSeverity: {
        severity: 'info',
        description: `Signs for Test Token at ${b.contracts.erc20}.`,
      },
      analysis: [
        {
          severity: 'info',
          description: `Signs for Test Token at ${b.contracts.erc20}.`,
          address: b.contracts.erc20,
        },
      ],
    })
  })
})

describe('a chain whose node does not answer', () => {
  test('error: a simulation is simulation_failed, never an error answer', async () => {
    const dead = `http://127.0.0.1:${await findFreePort()}`
    const api = await startApi({
      chains: [
        {
          chainId: 31337,
          rpcUrl: dead,
          nodeUrl: dead,
          contracts: predictContracts(),
        },
      ],
    })
    try {
      const someone = await api.player()
      const wallet = await api.register(someone)
      const evaluated = await api.post(
        '/guardian/v1/transactions/evm/evaluate',
        {
          chainType: 'evm',
          chainId: 'eip155:31337',
          transactionData: {
            nonce: '0',
            userAddress: wallet,
            metaTransactions: [
              {
                delegateCall: false,
                revertOnError: true,
                gasLimit: '0',
                target: bob,
                value: '0',
                data: '0x',
              },
            ],
          },
        },
        someone.accessToken,
      )
      const id = (evaluated.body as { transactionId: string }).transactionId
      const response = await api.get(
        `/guardian/v1/transactions/${id}?chainType=evm&includeSimulation=true`,
        someone.accessToken,
      )
      expect(response.status).toBe(200)
      expect(response.body).toMatchObject({
        id,
        validation: {
          status: 'simulation_failed',
          error: 'The node of chain 31337 did not answer.',
        },
      })
    } finally {
      await api.stop()
    }
  })
})
