import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  custom,
  encodeErrorResult,
  InvalidInputRpcError,
  InvalidParamsRpcError,
  parseEther,
  TransactionRejectedRpcError,
  UnauthorizedProviderError,
  UnsupportedProviderMethodError,
} from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { commands } from 'vitest/browser'
import { JsonRpcError } from '../../src/passport/index.js'
import type { ZkEvmProvider } from '../../src/passport/zkevm/provider.js'
import {
  chain,
  connectPlayer,
  createWallet,
  fund,
  info,
  noConfirmationWindowLeft,
  randomAddress,
  readNonce,
  rejection,
  relayerNext,
  sendValue,
  setGuardianRules,
  trackWindows,
} from './passportWallet.js'

/*
 * The game wallet's provider errors as viem sees them. The provider throws
 * the core RPC errors (the class of each code, with a numeric `code`, the
 * published SDK's exact `message`, `data`, all of them the published
 * `JsonRpcError`); viem's `custom` transport recognises an EIP-1193 or
 * EIP-1474 error by its `code` alone and wraps it in its own class
 * (buildRequest), so a dapp catching viem's classes, or wagmi's, gets them
 * with our code and our text underneath. These tests go through viem's
 * clients on the real provider against the emulator, so a change on either
 * side that breaks the mapping fails here.
 */

const { passportDomain } = info.passport
const transactionPage = `${passportDomain}/transaction-confirmation/zkevm/transaction?transactionID=`

let windows: ReturnType<typeof trackWindows>
const rulesSet: Address[] = []

beforeEach(() => {
  localStorage.clear()
  windows = trackWindows()
})
afterEach(async () => {
  vi.restoreAllMocks()
  for (const wallet of rulesSet.splice(0)) await setGuardianRules(wallet, null)
  await noConfirmationWindowLeft(windows)
})

/** viem's clients on our provider, as a dapp makes them. */
function viemClients(provider: ZkEvmProvider) {
  const transport = custom(provider)
  return {
    wallet: createWalletClient({ transport }),
    public: createPublicClient({ transport }),
  }
}

/** The viem error a promise rejects with (fails the test when it resolves). */
async function viemError(promise: Promise<unknown>): Promise<BaseError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(BaseError)
    return error as BaseError
  }
  throw new Error('Expected a rejection.')
}

/**
 * The viem class `type` found in `error`'s chain, with its code, the text
 * it carries from below (`details`), and our provider error it wraps.
 */
function mapped(
  error: BaseError,
  type: abstract new (...args: never[]) => BaseError,
) {
  const found = error.walk((inner) => inner instanceof type) as
    | (BaseError & { code: number })
    | null
  expect(found, `${type.name} in ${error.name}'s chain`).not.toBeNull()
  const ours = found?.cause as { name: string; code: unknown; message: string }
  // The published class name holds for every error of the provider.
  expect(ours).toBeInstanceOf(JsonRpcError)
  return {
    name: found?.name,
    code: found?.code,
    details: found?.details,
    cause: { name: ours.name, code: ours.code, message: ours.message },
  }
}

describe('viem recognises the provider errors by code', () => {
  test('error: an account method before eth_requestAccounts is UnauthorizedProviderError (4100)', async () => {
    const provider = await createWallet().connectEvm({
      announceProvider: false,
    })
    const { wallet } = viemClients(provider)
    const error = await viemError(
      wallet.signMessage({ account: randomAddress(), message: 'hi' }),
    )
    expect(mapped(error, UnauthorizedProviderError)).toEqual({
      name: 'UnauthorizedProviderError',
      code: 4100,
      details: 'Unauthorised - call eth_requestAccounts first',
      cause: {
        name: 'RpcErrors.UnauthorizedError',
        code: 4100,
        message: 'Unauthorised - call eth_requestAccounts first',
      },
    })
  })

  test('error: a method the wallet does not offer (eth_sign) is UnsupportedProviderMethodError (4200)', async () => {
    const { provider, wallet: address } = await connectPlayer({
      label: 'errors-4200',
    })
    const { wallet } = viemClients(provider)
    const error = await viemError(
      wallet.request({ method: 'eth_sign', params: [address, '0x68690a'] }),
    )
    expect(mapped(error, UnsupportedProviderMethodError)).toEqual({
      name: 'UnsupportedProviderMethodError',
      code: 4200,
      details: 'Method not supported',
      cause: {
        name: 'RpcErrors.UnsupportedMethodError',
        code: 4200,
        message: 'Method not supported',
      },
    })
  })

  test('error: personal_sign for another address and typed data for another chain are InvalidParamsRpcError (-32602)', async () => {
    const { provider, wallet: address } = await connectPlayer({
      label: 'errors-32602',
    })
    const { wallet } = viemClients(provider)
    const foreign = await viemError(
      wallet.signMessage({ account: randomAddress(), message: 'hi' }),
    )
    expect(mapped(foreign, InvalidParamsRpcError)).toEqual({
      name: 'InvalidParamsRpcError',
      code: -32602,
      details: 'personal_sign requires the signer to be the from address',
      cause: {
        name: 'RpcErrors.InvalidParamsError',
        code: -32602,
        message: 'personal_sign requires the signer to be the from address',
      },
    })

    const otherChain = await viemError(
      wallet.signTypedData({
        account: address,
        domain: { name: 'Game', chainId: 1 },
        types: { Mail: [{ name: 'contents', type: 'string' }] },
        primaryType: 'Mail',
        message: { contents: 'trade my sword' },
      }),
    )
    expect(mapped(otherChain, InvalidParamsRpcError)).toEqual({
      name: 'InvalidParamsRpcError',
      code: -32602,
      details: `Invalid chainId, expected ${info.chainId}`,
      cause: {
        name: 'RpcErrors.InvalidParamsError',
        code: -32602,
        message: `Invalid chainId, expected ${info.chainId}`,
      },
    })
  })

  test('error: Reject in the real confirmation popup is TransactionRejectedRpcError (-32003)', async () => {
    const { provider, wallet: address } = await connectPlayer({
      label: 'errors-32003',
    })
    await fund(address, parseEther('10'))
    rulesSet.push(address)
    await setGuardianRules(address, {
      confirmAboveValue: parseEther('1').toString(),
    })
    const { wallet } = viemClients(provider)
    const pending = viemError(
      wallet.sendTransaction({
        account: address,
        chain: null,
        to: randomAddress(),
        value: parseEther('2'),
      }),
    )
    await commands.popupClick(transactionPage, 'confirmation-reject')
    const error = await pending
    expect(error.name).toBe('TransactionExecutionError')
    expect(mapped(error, TransactionRejectedRpcError)).toEqual({
      name: 'TransactionRejectedRpcError',
      code: -32003,
      details: 'Transaction rejected by user',
      cause: {
        name: 'RpcErrors.TransactionRejectedError',
        code: -32003,
        message: 'Transaction rejected by user',
      },
    })
  })

  test("error: a send the relayer FAILED is InvalidInputRpcError (-32000) with the published text, also through viem's sendTransaction", async () => {
    const { provider, wallet: address } = await connectPlayer({
      label: 'errors-32000',
    })
    await fund(address, parseEther('1'))
    const { wallet } = viemClients(provider)
    await relayerNext(address, 'fail', 'Out of gas.')
    const text =
      'Transaction failed to submit with status FAILED. Error message: Out of gas.'
    const error = await viemError(
      wallet.request({
        method: 'eth_sendTransaction',
        params: [{ from: address, to: randomAddress(), value: '0x1' }],
      }),
    )
    expect(mapped(error, InvalidInputRpcError)).toEqual({
      name: 'InvalidInputRpcError',
      code: -32000,
      details: text,
      cause: {
        name: 'RpcErrors.InvalidInputError',
        code: -32000,
        message: text,
      },
    })

    // viem's sendTransaction (wagmi's sendTransaction and writeContract)
    // retries a -32000 as wallet_sendTransaction; the provider's -32004
    // there makes it throw the relayer's error, not the retry's.
    for (const attempt of [1, 2]) {
      await relayerNext(address, 'fail', `Out of gas (${attempt}).`)
      const failed = await viemError(
        wallet.sendTransaction({
          account: address,
          chain: null,
          to: randomAddress(),
          value: 1n,
        }),
      )
      const sentText = `Transaction failed to submit with status FAILED. Error message: Out of gas (${attempt}).`
      expect(failed.name).toBe('TransactionExecutionError')
      expect(failed.details).toBe(sentText)
      expect(mapped(failed, InvalidInputRpcError)).toEqual({
        name: 'InvalidInputRpcError',
        code: -32000,
        details: sentText,
        cause: {
          name: 'RpcErrors.InvalidInputError',
          code: -32000,
          message: sentText,
        },
      })
    }
  })

  test('behavior: a reverting eth_call keeps the node code and revert data, so viem decodes the custom error', async () => {
    const provider = await createWallet().connectEvm({
      announceProvider: false,
    })
    const { public: client } = viemClients(provider)
    const holder = randomAddress()
    const error = await viemError(
      client.simulateContract({
        address: info.contracts.erc20,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [randomAddress(), 5n],
        account: holder,
      }),
    )
    expect(error.name).toBe('ContractFunctionExecutionError')
    const reverted = error.walk(
      (inner) => inner instanceof ContractFunctionRevertedError,
    ) as ContractFunctionRevertedError | null
    expect(reverted?.data).toEqual({
      abiItem: erc20Abi[1],
      errorName: 'ERC20InsufficientBalance',
      args: [holder, 0n, 5n],
    })
    // Underneath, the provider's error is the node's: EIP-1474's execution
    // error (3) with the revert data as the node gave it.
    const ours = error.walk(
      (inner) => inner instanceof JsonRpcError,
    ) as JsonRpcError | null
    expect({ code: ours?.code, data: ours?.data }).toEqual({
      code: 3,
      data: encodeErrorResult({
        abi: erc20Abi,
        errorName: 'ERC20InsufficientBalance',
        args: [holder, 0n, 5n],
      }),
    })
  })
})

/** A status poll and 30 retries 1 s apart (the published SDK's, no shortcut), and more. */
const stallTimeout = 60_000

describe('relayer stall', () => {
  test('error: a send the relayer leaves PENDING rejects after one poll and 30 retries with -32000 "transaction hash not generated in time"; the next send reuses its nonce and is mined', {
    timeout: stallTimeout,
  }, async () => {
    const { provider, wallet } = await connectPlayer({
      label: 'errors-stall',
    })
    await fund(wallet, parseEther('1'))
    // The relayer takes the send and never submits it; the planned
    // outcome is used up by that one send.
    await relayerNext(wallet, 'stall')
    const stalledTo = randomAddress()
    expect(await rejection(sendValue(provider, stalledTo, 1n))).toEqual({
      code: -32000,
      message: 'transaction hash not generated in time',
    })

    const to = randomAddress()
    const hash = await sendValue(provider, to, 2n)
    expect((await chain.waitForTransactionReceipt({ hash })).status).toBe(
      'success',
    )
    // Signed for nonce 0, the stalled send's: the wallet (deployed by
    // this send) is now at 1, and only this send ran.
    expect(await readNonce(wallet)).toBe(1n)
    expect(await chain.getBalance({ address: to })).toBe(2n)
    expect(await chain.getBalance({ address: stalledTo })).toBe(0n)
  })
})

/** The token's `transfer` and the OpenZeppelin error it reverts with. */
const erc20Abi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
  {
    type: 'error',
    name: 'ERC20InsufficientBalance',
    inputs: [
      { name: 'sender', type: 'address' },
      { name: 'balance', type: 'uint256' },
      { name: 'needed', type: 'uint256' },
    ],
  },
] as const
