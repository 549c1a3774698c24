import {
  type Address,
  encodeFunctionData,
  type Hex,
  hashMessage,
  hashTypedData,
  parseEther,
  type TypedDataDefinition,
} from 'viem'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { methods } from '../../../passport/wire/relayer.js'
import {
  decodeExecute,
  decodeSignature,
  encodeSignature,
  type MetaTransaction,
  metaTransaction,
  type SignaturePart,
  subDigest,
  typedDataDigest,
} from '../../../passport/wire/sequence.js'
import { relayerSubmitter } from '../../chain/accounts.js'
import { MainModule, TestERC20 } from '../../chain/artifacts.generated.js'
import { signEthSign } from '../../chain/sequence.js'
import { erc191Digest } from '../../guardian.js'
import {
  accessToken,
  clientSend,
  newPlayer,
  type Player,
  type Running,
  rpc,
  settled,
  startRelayer,
} from './testkit.js'

let relayer: Running
/** A registered player, for the requests about no wallet of their own. */
let player: Player

beforeAll(async () => {
  relayer = await startRelayer({ holdMs: 3_000 })
  player = await newPlayer(relayer)
}, 120_000)
afterAll(() => relayer.stop())
beforeEach(async () => {
  await dev('/dev/reset', {})
})

/** POSTs a JSON body to a control route, from a loopback page. */
async function dev(route: string, body: unknown, origin?: string) {
  const response = await fetch(`${relayer.url}${route}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(origin ? { origin } : {}),
    },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: await response.json() }
}

const mint = (to: Address, amount: bigint) =>
  metaTransaction({
    to: relayer.contracts.erc20,
    data: encodeFunctionData({
      abi: TestERC20.abi,
      functionName: 'mint',
      args: [to, amount],
    }),
  })

const balanceOf = (address: Address) =>
  relayer.publicClient.readContract({
    address: relayer.contracts.erc20,
    abi: TestERC20.abi,
    functionName: 'balanceOf',
    args: [address],
  })

const readNonce = (wallet: Address) =>
  relayer.publicClient.readContract({
    address: wallet,
    abi: MainModule.abi,
    functionName: 'readNonce',
    args: [0n],
  })

/** Builds, allows (guardian verdict) and sends a transaction; the relayer id. */
async function send(
  player: Player,
  nonce: bigint,
  transactions = [mint(player.wallet, 1n)],
  options: { allow?: boolean } = {},
) {
  const { digest, params } = await clientSend({
    chainId: relayer.chainId,
    ...player,
    nonce,
    transactions,
  })
  if (options.allow !== false)
    relayer.guardian.record({
      kind: 'transaction',
      chainId: relayer.chainId,
      wallet: player.wallet,
      digest,
      state: 'allowed',
      payload: {},
    })
  return rpc(relayer.url, player.token, methods.sendTransaction, params)
}

async function sendOk(
  player: Player,
  nonce: bigint,
  transactions?: ReturnType<typeof mint>[],
) {
  const { status, body } = await send(player, nonce, transactions)
  expect(status).toBe(200)
  expect(typeof body.result).toBe('string')
  return body.result as string
}

describe('eth_sendTransaction', () => {
  test('the first transaction deploys the wallet through the guest module and executes', async () => {
    const player = await newPlayer(relayer)
    expect(
      await relayer.publicClient.getCode({ address: player.wallet }),
    ).toBeUndefined()
    const id = await sendOk(player, 0n, [mint(player.wallet, 42n)])
    const result = await settled(relayer.url, player.token, id)
    expect(result).toEqual({
      status: 'SUCCESSFUL',
      chainId: `eip155:${relayer.chainId}`,
      relayerId: id,
      hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    })
    const tx = await relayer.publicClient.getTransaction({
      hash: result.hash as Hex,
    })
    expect(tx.from).toBe(relayerSubmitter.address.toLowerCase())
    expect(tx.to).toBe(relayer.contracts.guestModule.toLowerCase())
    expect(
      await relayer.publicClient.getCode({ address: player.wallet }),
    ).toMatch(/^0x[0-9a-f]+$/)
    expect(await balanceOf(player.wallet)).toBe(42n)
    expect(await readNonce(player.wallet)).toBe(1n)
  })

  test('a second transaction calls execute on the deployed wallet, with the co-signed threshold-2 signature', async () => {
    const player = await newPlayer(relayer)
    await settled(relayer.url, player.token, await sendOk(player, 0n))
    const recipient = (await newPlayer(relayer)).wallet
    const id = await sendOk(player, 1n, [mint(recipient, 7n)])
    const result = await settled(relayer.url, player.token, id)
    expect(result.status).toBe('SUCCESSFUL')
    const tx = await relayer.publicClient.getTransaction({
      hash: result.hash as Hex,
    })
    expect(tx.to).toBe(player.wallet.toLowerCase())
    const { nonce, signature } = decodeExecute(tx.input)
    expect(nonce).toBe(1n)
    const decoded = decodeSignature(signature)
    expect(decoded.threshold).toBe(2)
    expect(decoded.parts.map((part) => part.type).sort()).toEqual([
      'dynamic',
      'eoa',
    ])
    expect(await balanceOf(recipient)).toBe(7n)
    expect(await readNonce(player.wallet)).toBe(2n)
  })

  test('refuses a player signature for another wallet', async () => {
    const player = await newPlayer(relayer)
    const other = await newPlayer(relayer)
    const { status, body } = await send(
      { ...player, custody: other.custody },
      0n,
    )
    expect(status).toBe(200)
    expect(body.error).toEqual({
      code: -32602,
      message: `The signature is not from the player of ${player.wallet} (it recovers ${other.custody.address}).`,
    })
  })

  test('refuses a digest the guardian did not allow, and never submits it', async () => {
    const player = await newPlayer(relayer)
    const { body } = await send(player, 0n, [mint(player.wallet, 1n)], {
      allow: false,
    })
    expect(body.error).toEqual({
      code: -32003,
      message: 'The guardian has not allowed this transaction.',
    })
    // A pending verdict is not an allowed one either.
    const { digest, params } = await clientSend({
      chainId: relayer.chainId,
      ...player,
      nonce: 0n,
      transactions: [mint(player.wallet, 2n)],
    })
    relayer.guardian.record({
      kind: 'transaction',
      chainId: relayer.chainId,
      wallet: player.wallet,
      digest,
      state: 'pending',
      payload: {},
    })
    expect(
      (await rpc(relayer.url, player.token, methods.sendTransaction, params))
        .body.error,
    ).toEqual({
      code: -32003,
      message: 'The guardian has not allowed this transaction.',
    })
    expect(
      await relayer.publicClient.getCode({ address: player.wallet }),
    ).toBeUndefined()
  })

  test('refuses malformed params with -32602', async () => {
    const player = await newPlayer(relayer)
    const { params } = await clientSend({
      chainId: relayer.chainId,
      ...player,
      nonce: 0n,
      transactions: [],
    })
    const [good] = params as [{ to: string; data: Hex; chainId: string }]
    const cases: [unknown, string][] = [
      [[], 'params must be [{ to, data, chainId }].'],
      [
        [{ ...good, chainId: 'eip155:1' }],
        `chainId must be one of eip155:${relayer.chainId}.`,
      ],
      [[{ ...good, to: 'nope' }], 'to must be an address.'],
      [[{ ...good, data: '0x1234' }], 'The calldata is not a call to execute.'],
      [
        [{ ...good, data: `${good.data.slice(0, 200)}` }],
        'The execute calldata does not decode.',
      ],
    ]
    for (const [bad, message] of cases)
      expect(
        (await rpc(relayer.url, player.token, methods.sendTransaction, bad))
          .body.error,
      ).toEqual({ code: -32602, message })
  })

  test('twenty parallel sends from one wallet are all mined, in order, with distinct nonces', async () => {
    const player = await newPlayer(relayer)
    const nonces = Array.from({ length: 20 }, (_, i) => BigInt(i))
    // The client reserves consecutive nonces and sends at once; shuffle so
    // that later nonces can arrive first.
    const order = [...nonces].sort(() => Math.random() - 0.5)
    const ids = await Promise.all(order.map((nonce) => sendOk(player, nonce)))
    const results = await Promise.all(
      ids.map((id) => settled(relayer.url, player.token, id)),
    )
    expect(results.map((r) => r.status)).toEqual(nonces.map(() => 'SUCCESSFUL'))
    const txs = await Promise.all(
      results.map((r) =>
        relayer.publicClient.getTransaction({ hash: r.hash as Hex }),
      ),
    )
    const walletNonces = txs.map((tx) =>
      tx.to === player.wallet.toLowerCase()
        ? decodeExecute(tx.input).nonce
        : decodeExecute(decodeExecute(tx.input).transactions[1]!.data).nonce,
    )
    expect(walletNonces).toEqual(order)
    expect(new Set(txs.map((tx) => tx.nonce)).size).toBe(20)
    expect(new Set(results.map((r) => r.hash)).size).toBe(20)
    expect(await readNonce(player.wallet)).toBe(20n)
    expect(await balanceOf(player.wallet)).toBe(20n)
  })

  test("sends of many wallets at once are all mined, each with the relayer key's next nonce", async () => {
    const players = await Promise.all(
      Array.from({ length: 6 }, () => newPlayer(relayer)),
    )
    // Each wallet's first send (its deployment) settles first, so that
    // every send below goes straight to a deployed wallet.
    await Promise.all(
      players.map(async (player) =>
        settled(relayer.url, player.token, await sendOk(player, 0n)),
      ),
    )
    const before = await relayer.publicClient.getTransactionCount({
      address: relayerSubmitter.address,
    })
    const ids = await Promise.all(
      players.flatMap((player) =>
        [1n, 2n, 3n].map(async (nonce) => ({
          player,
          id: await sendOk(player, nonce),
        })),
      ),
    )
    const results = await Promise.all(
      ids.map(({ player, id }) => settled(relayer.url, player.token, id)),
    )
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 'SUCCESSFUL'))
    const txs = await Promise.all(
      results.map((r) =>
        relayer.publicClient.getTransaction({ hash: r.hash as Hex }),
      ),
    )
    expect(txs.map((tx) => tx.nonce).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 18 }, (_, i) => before + i),
    )
    for (const player of players)
      expect(await readNonce(player.wallet)).toBe(4n)
  })

  test("after the chain is reverted to a snapshot, the next send takes the relayer key's nonce from the chain again", async () => {
    const player = await newPlayer(relayer)
    await settled(relayer.url, player.token, await sendOk(player, 0n))
    const snapshot = await relayer.testClient.snapshot()
    const undone = await settled(
      relayer.url,
      player.token,
      await sendOk(player, 1n),
    )
    expect(undone.status).toBe('SUCCESSFUL')
    const { nonce: undoneNonce } = await relayer.publicClient.getTransaction({
      hash: undone.hash as Hex,
    })
    await relayer.testClient.revert({ id: snapshot })
    expect(await readNonce(player.wallet)).toBe(1n)
    const again = await settled(
      relayer.url,
      player.token,
      await sendOk(player, 1n),
    )
    expect(again.status).toBe('SUCCESSFUL')
    const tx = await relayer.publicClient.getTransaction({
      hash: again.hash as Hex,
    })
    expect(tx.nonce).toBe(undoneNonce)
    expect(await readNonce(player.wallet)).toBe(2n)
  })

  test('a status request right after the send answers once the transaction is on chain: SUBMITTED or SUCCESSFUL with its hash, never PENDING', async () => {
    const player = await newPlayer(relayer)
    await settled(relayer.url, player.token, await sendOk(player, 0n))
    const id = await sendOk(player, 1n)
    const { body } = await rpc(
      relayer.url,
      player.token,
      methods.getTransactionByHash,
      [id],
    )
    const { status, hash } = body.result as { status: string; hash: Hex }
    expect(['SUBMITTED', 'SUCCESSFUL']).toContain(status)
    const receipt = await relayer.publicClient.waitForTransactionReceipt({
      hash,
    })
    expect(receipt.status).toBe('success')
  })

  test('a status request for a send held for its predecessor answers PENDING without waiting for it', async () => {
    const player = await newPlayer(relayer)
    await settled(relayer.url, player.token, await sendOk(player, 0n))
    const ahead = await sendOk(player, 2n)
    const { body } = await rpc(
      relayer.url,
      player.token,
      methods.getTransactionByHash,
      [ahead],
    )
    expect(body.result).toEqual({
      status: 'PENDING',
      chainId: `eip155:${relayer.chainId}`,
      relayerId: ahead,
    })
    // Its predecessor comes: both are mined in order.
    const next = await sendOk(player, 1n)
    expect((await settled(relayer.url, player.token, next)).status).toBe(
      'SUCCESSFUL',
    )
    expect((await settled(relayer.url, player.token, ahead)).status).toBe(
      'SUCCESSFUL',
    )
    expect(await readNonce(player.wallet)).toBe(3n)
  })

  test('a nonce ahead of the wallet fails once its predecessor never comes', async () => {
    const player = await newPlayer(relayer)
    await settled(relayer.url, player.token, await sendOk(player, 0n))
    const id = await sendOk(player, 2n)
    expect(await settled(relayer.url, player.token, id)).toEqual({
      status: 'FAILED',
      chainId: `eip155:${relayer.chainId}`,
      relayerId: id,
      statusMessage:
        "The wallet's nonce 2 is ahead of its next nonce 1, whose transaction never came.",
    })
    expect(await readNonce(player.wallet)).toBe(1n)
  })
})

describe('a send that reverts on chain', () => {
  /** Sends `transactions` (allowed), waits, and returns the final status. */
  async function reverted(transactions: MetaTransaction[]) {
    const player = await newPlayer(relayer)
    const id = await sendOk(player, 0n, transactions)
    const result = await settled(relayer.url, player.token, id)
    const receipt = await relayer.publicClient.getTransactionReceipt({
      hash: result.hash as Hex,
    })
    expect(receipt.status).toBe('reverted')
    return { player, id, result }
  }

  test("behavior: its status names a deployed contract's custom error, decoded by its ABI, and keeps the hash", async () => {
    // The wallet holds none of the token it transfers.
    const { player, id, result } = await reverted([
      metaTransaction({
        to: relayer.contracts.erc20,
        data: encodeFunctionData({
          abi: TestERC20.abi,
          functionName: 'transfer',
          args: [relayerSubmitter.address, 5n],
        }),
      }),
    ])
    expect(result).toEqual({
      status: 'REVERTED',
      chainId: `eip155:${relayer.chainId}`,
      relayerId: id,
      hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      statusMessage: `The transaction reverted on chain: ERC20InsufficientBalance(${player.wallet}, 0, 5).`,
    })
  })

  test('behavior: its status names a Panic by its code and meaning', async () => {
    const { result } = await reverted([
      mint(relayerSubmitter.address, 2n ** 256n - 1n),
      mint(relayerSubmitter.address, 1n),
    ])
    expect(result.statusMessage).toBe(
      'The transaction reverted on chain: Panic(0x11): arithmetic underflow or overflow.',
    )
  })
})

describe('test controls', () => {
  test('fail: the next send is FAILED with the given message, never submitted', async () => {
    expect(
      await dev('/dev/next', { outcome: 'fail', message: 'Out of funds.' }),
    ).toEqual({ status: 200, body: { planned: 1 } })
    const player = await newPlayer(relayer)
    const id = await sendOk(player, 0n)
    expect(await settled(relayer.url, player.token, id)).toEqual({
      status: 'FAILED',
      chainId: `eip155:${relayer.chainId}`,
      relayerId: id,
      statusMessage: 'Out of funds.',
    })
    expect(
      await relayer.publicClient.getCode({ address: player.wallet }),
    ).toBeUndefined()
    // Only the next one: the one after goes through.
    expect(
      (await settled(relayer.url, player.token, await sendOk(player, 0n)))
        .status,
    ).toBe('SUCCESSFUL')
  })

  test('cancel: CANCELLED with a message', async () => {
    await dev('/dev/next', { outcome: 'cancel' })
    const player = await newPlayer(relayer)
    const id = await sendOk(player, 0n)
    expect(await settled(relayer.url, player.token, id)).toEqual({
      status: 'CANCELLED',
      chainId: `eip155:${relayer.chainId}`,
      relayerId: id,
      statusMessage: 'The transaction was cancelled.',
    })
  })

  test('revert: submitted and REVERTED on chain, the wallet neither deployed nor advanced', async () => {
    await dev('/dev/next', { outcome: 'revert' })
    const player = await newPlayer(relayer)
    const id = await sendOk(player, 0n)
    const result = await settled(relayer.url, player.token, id)
    expect(result).toEqual({
      status: 'REVERTED',
      chainId: `eip155:${relayer.chainId}`,
      relayerId: id,
      hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      // The factory has no fallback: it reverts with no data.
      statusMessage: 'The transaction reverted on chain without a reason.',
    })
    const receipt = await relayer.publicClient.getTransactionReceipt({
      hash: result.hash as Hex,
    })
    expect(receipt.status).toBe('reverted')
    expect(
      await relayer.publicClient.getCode({ address: player.wallet }),
    ).toBeUndefined()
  })

  test("wallet: an outcome planned for one wallet is that wallet's next send only; other wallets' sends go through", async () => {
    const [mine, other] = [await newPlayer(relayer), await newPlayer(relayer)]
    expect(
      await dev('/dev/next', {
        outcome: 'fail',
        message: 'Only mine.',
        wallet: mine.wallet.toLowerCase(),
      }),
    ).toEqual({ status: 200, body: { planned: 1 } })
    expect(
      (await settled(relayer.url, other.token, await sendOk(other, 0n))).status,
    ).toBe('SUCCESSFUL')
    const id = await sendOk(mine, 0n)
    expect(await settled(relayer.url, mine.token, id)).toMatchObject({
      status: 'FAILED',
      statusMessage: 'Only mine.',
    })
    expect(
      (await settled(relayer.url, mine.token, await sendOk(mine, 0n))).status,
    ).toBe('SUCCESSFUL')
    expect(
      await dev('/dev/next', { outcome: 'fail', wallet: '0x1234' }),
    ).toEqual({ status: 400, body: { error: 'wallet must be an address.' } })
  })

  test('stall: stays PENDING while later sends complete', async () => {
    await dev('/dev/next', { outcome: 'stall', count: 1 })
    const player = await newPlayer(relayer)
    const stalled = await sendOk(player, 0n)
    const later = await newPlayer(relayer)
    await settled(relayer.url, later.token, await sendOk(later, 0n))
    expect(
      (
        await rpc(relayer.url, player.token, methods.getTransactionByHash, [
          stalled,
        ])
      ).body.result,
    ).toEqual({
      status: 'PENDING',
      chainId: `eip155:${relayer.chainId}`,
      relayerId: stalled,
    })
  })

  test('control bodies are validated; other origins are refused', async () => {
    expect(await dev('/dev/next', { outcome: 'explode' })).toEqual({
      status: 400,
      body: { error: 'outcome must be one of fail, revert, stall, cancel.' },
    })
    expect((await dev('/dev/next', { outcome: 'fail', count: 0 })).status).toBe(
      400,
    )
    expect((await dev('/dev/fee', { tokenPrice: '-1' })).status).toBe(400)
    expect(
      (await dev('/dev/fee', { tokenPrice: '1' }, 'https://evil.example'))
        .status,
    ).toBe(403)
  })
})

describe('im_getFeeOptions', () => {
  test('offers IMX at the price the test set, paid to the relayer', async () => {
    const player = await newPlayer(relayer)
    const params = [
      {
        userAddress: player.wallet,
        data: '0x',
        chainId: `eip155:${relayer.chainId}`,
      },
    ]
    const option = {
      tokenSymbol: 'IMX',
      tokenDecimals: 18,
      tokenAddress: '0x0000000000000000000000000000000000000000',
      recipientAddress: relayerSubmitter.address,
    }
    expect(
      (await rpc(relayer.url, player.token, methods.getFeeOptions, params)).body
        .result,
    ).toEqual([{ tokenPrice: '0', ...option }])
    expect(
      await dev('/dev/fee', { tokenPrice: parseEther('0.5').toString() }),
    ).toEqual({ status: 200, body: { tokenPrice: '500000000000000000' } })
    expect(
      (await rpc(relayer.url, player.token, methods.getFeeOptions, params)).body
        .result,
    ).toEqual([{ tokenPrice: '500000000000000000', ...option }])
  })
})

describe('the gas limit', () => {
  test("behavior: a deployed wallet's batch is sent with the gas one run of it used, and more: forty nested mints are mined with it, far under the fallback", async () => {
    const player = await newPlayer(relayer)
    await settled(relayer.url, player.token, await sendOk(player, 0n))
    const mints = Array.from({ length: 40 }, (_, i) =>
      metaTransaction({
        to: relayer.contracts.erc20,
        data: encodeFunctionData({
          abi: TestERC20.abi,
          functionName: 'mint',
          args: [`0x${(i + 1).toString(16).padStart(40, '0')}`, 1n],
        }),
      }),
    )
    const result = await settled(
      relayer.url,
      player.token,
      await sendOk(player, 1n, mints),
    )
    expect(result.status).toBe('SUCCESSFUL')
    const hash = result.hash as Hex
    const [tx, receipt] = await Promise.all([
      relayer.publicClient.getTransaction({ hash }),
      relayer.publicClient.getTransactionReceipt({ hash }),
    ])
    expect(receipt.gasUsed).toBeGreaterThan(1_000_000n)
    expect(tx.gas).toBeGreaterThan(receipt.gasUsed + 100_000n)
    expect(tx.gas).toBeLessThan((receipt.gasUsed * 3n) / 2n + 100_000n)
  })
})

describe('the fee', () => {
  test('with a price above zero, a batch that does not pay it is refused; one paying the recipient at least the price is relayed, and the relayer is paid', async () => {
    const price = parseEther('0.01')
    await dev('/dev/fee', { tokenPrice: price.toString() })
    const player = await newPlayer(relayer)
    await relayer.testClient.setBalance({
      address: player.wallet,
      value: parseEther('1'),
    })
    const refusal = `The transaction must pay the relayer's fee: a transfer of at least ${price} wei to ${relayerSubmitter.address}.`
    // No fee transfer; too little; the right value by delegate call.
    for (const transactions of [
      [mint(player.wallet, 1n)],
      [
        mint(player.wallet, 1n),
        metaTransaction({ to: relayerSubmitter.address, value: price - 1n }),
      ],
      [
        mint(player.wallet, 1n),
        {
          ...metaTransaction({ to: relayerSubmitter.address, value: price }),
          delegateCall: true,
        },
      ],
    ]) {
      const { body } = await send(player, 0n, transactions)
      expect(body.error).toEqual({ code: -32602, message: refusal })
    }
    const paid = [
      mint(player.wallet, 1n),
      metaTransaction({ to: relayerSubmitter.address, value: price }),
    ]
    const before = await relayer.publicClient.getBalance({
      address: relayerSubmitter.address,
    })
    const result = await settled(
      relayer.url,
      player.token,
      await sendOk(player, 0n, paid),
    )
    expect(result.status).toBe('SUCCESSFUL')
    expect(await balanceOf(player.wallet)).toBe(1n)
    expect(
      await relayer.publicClient.getBalance({ address: player.wallet }),
    ).toBe(parseEther('1') - price)
    const receipt = await relayer.publicClient.getTransactionReceipt({
      hash: result.hash as Hex,
    })
    // The relayer got the fee and paid the gas.
    expect(
      await relayer.publicClient.getBalance({
        address: relayerSubmitter.address,
      }),
    ).toBe(before + price - receipt.gasUsed * receipt.effectiveGasPrice)
  })
})

describe('im_sign and im_signTypedData', () => {
  /** A deployed game wallet. */
  async function deployedPlayer() {
    const player = await newPlayer(relayer)
    const result = await settled(
      relayer.url,
      player.token,
      await sendOk(player, 0n),
    )
    expect(result.status).toBe('SUCCESSFUL')
    return player
  }

  /** What the SDK does with the answer: `0x0000` prefix, decode, add its part, sort, threshold 2. */
  async function combine(player: Player, relayerPart: string, hash: Hex) {
    const { parts } = decodeSignature(`0x0000${relayerPart}`)
    const user: SignaturePart = {
      type: 'eoa',
      weight: 1,
      signature: await signEthSign(
        player.custody,
        subDigest({
          chainId: relayer.chainId,
          wallet: player.wallet,
          digest: hash,
        }),
      ),
    }
    const sorted = [
      { address: player.custody.address, part: user },
      ...parts.map((part) => ({
        address: (part as { address: Address }).address,
        part,
      })),
    ].sort((a, b) => (BigInt(a.address) < BigInt(b.address) ? -1 : 1))
    return encodeSignature({ threshold: 2, parts: sorted.map((p) => p.part) })
  }

  test("im_sign returns the co-signer's part, which with the player's verifies through ERC-1271", async () => {
    const player = await deployedPlayer()
    const message = 'Hello from the game'
    const params = [
      { chainId: `eip155:${relayer.chainId}`, address: player.wallet, message },
    ]
    expect(
      (await rpc(relayer.url, player.token, methods.sign, params)).body.error,
    ).toEqual({
      code: -32003,
      message: 'The guardian has not allowed this message.',
    })
    relayer.guardian.record({
      kind: 'erc191',
      chainId: relayer.chainId,
      wallet: player.wallet,
      digest: erc191Digest(message),
      state: 'allowed',
      payload: message,
    })
    const { body } = await rpc(relayer.url, player.token, methods.sign, params)
    const part = body.result as string
    expect(part).toMatch(
      new RegExp(
        `^0201${relayer.contracts.coSigner.slice(2).toLowerCase()}0043[0-9a-f]{128}(1b|1c)0203$`,
      ),
    )
    const signature = await combine(player, part, hashMessage(message))
    expect(
      await relayer.publicClient.verifyMessage({
        address: player.wallet,
        message,
        signature,
      }),
    ).toBe(true)
  })

  test("im_signTypedData returns the co-signer's part for an allowed EIP-712 hash", async () => {
    const player = await deployedPlayer()
    const typedData = {
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'chainId', type: 'uint256' },
        ],
        Ticket: [{ name: 'seat', type: 'uint256' }],
      },
      primaryType: 'Ticket',
      domain: { name: 'Game', chainId: relayer.chainId },
      message: { seat: 12 },
    }
    // As JSON carries it (a number chain id); viem's types want a bigint.
    const definition = typedData as unknown as TypedDataDefinition
    const params = [
      {
        chainId: `eip155:${relayer.chainId}`,
        address: player.wallet,
        eip712Payload: typedData,
      },
    ]
    expect(
      (await rpc(relayer.url, player.token, methods.signTypedData, params)).body
        .error,
    ).toEqual({
      code: -32003,
      message: 'The guardian has not allowed this message.',
    })
    relayer.guardian.record({
      kind: 'message',
      chainId: relayer.chainId,
      wallet: player.wallet,
      digest: typedDataDigest(definition),
      state: 'allowed',
      payload: typedData,
    })
    const { body } = await rpc(
      relayer.url,
      player.token,
      methods.signTypedData,
      params,
    )
    const signature = await combine(
      player,
      body.result as string,
      hashTypedData(definition),
    )
    expect(
      await relayer.publicClient.verifyTypedData({
        ...definition,
        address: player.wallet,
        signature,
      }),
    ).toBe(true)
    expect(
      (
        await rpc(relayer.url, player.token, methods.signTypedData, [
          { ...params[0], eip712Payload: { types: 'nope' } },
        ])
      ).body.error,
    ).toEqual({
      code: -32602,
      message: 'eip712Payload is not valid EIP-712 typed data.',
    })
  })
})

describe("a token acts for its own player's wallet only", () => {
  /** A's token on a request about B's wallet is refused, naming the field. */
  const notTheirs = (field: string, wallet: Address) => ({
    code: 4100,
    message: `${field} ${wallet} is not the wallet of the access token's player.`,
  })

  test("error: player A's token cannot relay player B's signed, guardian-allowed transaction; A's own goes through", async () => {
    const [a, b] = [await newPlayer(relayer), await newPlayer(relayer)]
    const { digest, params } = await clientSend({
      chainId: relayer.chainId,
      ...b,
      nonce: 0n,
      transactions: [mint(b.wallet, 1n)],
    })
    relayer.guardian.record({
      kind: 'transaction',
      chainId: relayer.chainId,
      wallet: b.wallet,
      digest,
      state: 'allowed',
      payload: {},
    })
    const { status, body } = await rpc(
      relayer.url,
      a.token,
      methods.sendTransaction,
      params,
    )
    expect(status).toBe(200)
    expect(body.error).toEqual(notTheirs('to', b.wallet))
    expect(
      await relayer.publicClient.getCode({ address: b.wallet }),
    ).toBeUndefined()
    // B's own token relays the very same request.
    const own = await rpc(relayer.url, b.token, methods.sendTransaction, params)
    expect(
      (await settled(relayer.url, b.token, own.body.result as string)).status,
    ).toBe('SUCCESSFUL')
    expect(
      (await settled(relayer.url, a.token, await sendOk(a, 0n))).status,
    ).toBe('SUCCESSFUL')
  })

  test("error: player A's token reads neither B's relayed transaction nor B's fee options", async () => {
    const [a, b] = [await newPlayer(relayer), await newPlayer(relayer)]
    const id = await sendOk(b, 0n)
    expect(
      (await rpc(relayer.url, a.token, methods.getTransactionByHash, [id])).body
        .error,
    ).toEqual({
      code: 4100,
      message: `The relayed transaction is for ${b.wallet}, not the wallet of the access token's player.`,
    })
    expect((await settled(relayer.url, b.token, id)).status).toBe('SUCCESSFUL')
    const fees = (userAddress: Address, token: string) =>
      rpc(relayer.url, token, methods.getFeeOptions, [
        { userAddress, data: '0x', chainId: `eip155:${relayer.chainId}` },
      ])
    expect((await fees(b.wallet, a.token)).body.error).toEqual(
      notTheirs('userAddress', b.wallet),
    )
    expect((await fees(a.wallet, a.token)).body.result).toHaveLength(1)
  })

  test("error: player A's token gets no co-signature for B's wallet, for a message or typed data the guardian allowed for B", async () => {
    const [a, b] = [await newPlayer(relayer), await newPlayer(relayer)]
    const message = 'Sign in to the game'
    const typedData = {
      types: { Ticket: [{ name: 'seat', type: 'uint256' }] },
      primaryType: 'Ticket',
      domain: { name: 'Game', chainId: relayer.chainId },
      message: { seat: 3 },
    }
    for (const wallet of [a.wallet, b.wallet]) {
      relayer.guardian.record({
        kind: 'erc191',
        chainId: relayer.chainId,
        wallet,
        digest: erc191Digest(message),
        state: 'allowed',
        payload: message,
      })
      relayer.guardian.record({
        kind: 'message',
        chainId: relayer.chainId,
        wallet,
        digest: typedDataDigest(typedData as unknown as TypedDataDefinition),
        state: 'allowed',
        payload: typedData,
      })
    }
    const sign = (address: Address) =>
      rpc(relayer.url, a.token, methods.sign, [
        { chainId: `eip155:${relayer.chainId}`, address, message },
      ])
    const signTyped = (address: Address) =>
      rpc(relayer.url, a.token, methods.signTypedData, [
        {
          chainId: `eip155:${relayer.chainId}`,
          address,
          eip712Payload: typedData,
        },
      ])
    expect((await sign(b.wallet)).body).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: notTheirs('address', b.wallet),
    })
    expect((await signTyped(b.wallet)).body.error).toEqual(
      notTheirs('address', b.wallet),
    )
    expect((await sign(a.wallet)).body.result).toMatch(/^02/)
    expect((await signTyped(a.wallet)).body.result).toMatch(/^02/)
  })

  test('error: the token of a player with no wallet registered yet is refused by every method', async () => {
    const token = await accessToken(
      relayer.identity,
      `unregistered-${Date.now()}@example.com`,
    )
    for (const method of Object.values(methods)) {
      const { body } = await rpc(relayer.url, token, method, [
        { chainId: `eip155:${relayer.chainId}`, address: player.wallet },
      ])
      expect({ method, error: body.error }).toEqual({
        method,
        error: {
          code: 4100,
          message:
            "The access token's player has no zkEVM wallet yet: register it first.",
        },
      })
    }
  })
})

describe('the endpoint', () => {
  test('answers 401 without a valid access token', async () => {
    const params = [relayer.contracts.factory]
    expect(
      await rpc(relayer.url, undefined, methods.getTransactionByHash, params),
    ).toEqual({
      status: 401,
      body: { error: 'A bearer token is required.' },
    })
    expect(
      await rpc(relayer.url, 'a.b.c', methods.getTransactionByHash, params),
    ).toEqual({
      status: 401,
      body: { error: 'The token is invalid or expired.' },
    })
  })

  test('lets any origin call it with the headers the SDK sends', async () => {
    const response = await fetch(`${relayer.url}/v1/transactions`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://game.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'authorization,content-type,x-sdk-version',
      },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'Authorization,Content-Type,x-sdk-version',
    )
  })

  test('answers unknown methods, unknown ids and non-JSON-RPC bodies with JSON-RPC errors', async () => {
    expect(
      (await rpc(relayer.url, player.token, 'eth_foo', [])).body.error,
    ).toEqual({
      code: -32601,
      message: 'The relayer has no method eth_foo.',
    })
    expect(
      (
        await rpc(relayer.url, player.token, methods.getTransactionByHash, [
          'nope',
        ])
      ).body.error,
    ).toEqual({ code: -32602, message: 'No relayed transaction has this id.' })
    const response = await fetch(`${relayer.url}/v1/transactions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${player.token}`,
        'content-type': 'application/json',
      },
      body: '[1,2]',
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: 'The body must be one JSON-RPC request.',
      },
    })
  })
})
