import {
  BaseError,
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  encodeErrorResult,
  HttpRequestError,
  InternalRpcError,
  InvalidInputRpcError,
  TransactionExecutionError,
  TransactionRejectedRpcError,
  UserRejectedRequestError,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { RpcErrors } from '../../../src/core/index.js'
import {
  dataInText,
  decodeRevert,
  explain,
  tokenErrorsAbi,
  valueText,
} from './explain.js'

const sender = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const operator = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

/** OpenZeppelin 5's revert of an ERC-20 transfer beyond the balance. */
const insufficient = encodeErrorResult({
  abi: tokenErrorsAbi,
  errorName: 'ERC20InsufficientBalance',
  args: [sender, 0n, 10n ** 18n],
})

/** An error as the game wallet's provider throws it (core error with a published type). */
function typed<error extends Error>(error: error, type: string): error {
  return Object.assign(error, { type })
}

describe('decodeRevert', () => {
  test('behavior: an OpenZeppelin ERC-20 error reads as its name and named arguments', () => {
    expect(insufficient.slice(0, 10)).toBe('0xe450d38c')
    expect(decodeRevert(insufficient)).toEqual({
      name: 'ERC20InsufficientBalance',
      args: [
        { name: 'sender', value: sender },
        { name: 'balance', value: 0n },
        { name: 'needed', value: 10n ** 18n },
      ],
      text: `ERC20InsufficientBalance(sender ${sender}, balance 0, needed 1000000000000000000)`,
    })
  })

  test('behavior: ERC-721 and ERC-1155 errors decode too', () => {
    expect(
      decodeRevert(
        encodeErrorResult({
          abi: tokenErrorsAbi,
          errorName: 'ERC721InsufficientApproval',
          args: [operator, 7n],
        }),
      )?.text,
    ).toBe(`ERC721InsufficientApproval(operator ${operator}, tokenId 7)`)
    expect(
      decodeRevert(
        encodeErrorResult({
          abi: tokenErrorsAbi,
          errorName: 'ERC1155MissingApprovalForAll',
          args: [operator, sender],
        }),
      )?.text,
    ).toBe(
      `ERC1155MissingApprovalForAll(operator ${operator}, owner ${sender})`,
    )
  })

  test("behavior: Solidity's Error(string) and Panic(uint256)", () => {
    expect(
      decodeRevert(
        encodeErrorResult({
          abi: [
            {
              type: 'error',
              name: 'Error',
              inputs: [{ name: 'message', type: 'string' }],
            },
          ],
          errorName: 'Error',
          args: ['Not enough stock'],
        }),
      )?.text,
    ).toBe('Error: Not enough stock')
    expect(
      decodeRevert(
        '0x4e487b710000000000000000000000000000000000000000000000000000000000000011',
      )?.text,
    ).toBe('Panic(0x11): arithmetic underflow or overflow')
  })

  test('error: data of an unknown error, or too short, decodes to nothing', () => {
    expect(decodeRevert('0x12345678')).toBeUndefined()
    expect(decodeRevert('0xe450d38c00')).toBeUndefined()
  })
})

describe('dataInText', () => {
  test("behavior: finds the data in Anvil's message, which the iframe wallet passes on as text", () => {
    const args = insufficient.slice(10)
    expect(
      dataInText(
        `eth_sendTransaction: Execution reverted with reason: custom error 0xe450d38c: ${args}.`,
      ),
    ).toBe(insufficient)
    expect(dataInText('execution reverted: 0x4e487b71')).toBe('0x4e487b71')
    expect(dataInText('Insufficient funds for gas * price + value')).toBe(
      undefined,
    )
  })
})

describe('explain', () => {
  test('behavior: a revert inside viem’s error chain reads as the decoded error', () => {
    const raw = new ContractFunctionRevertedError({
      abi: [],
      data: insufficient,
      functionName: 'transfer',
    })
    const error = new ContractFunctionExecutionError(raw, {
      abi: [],
      functionName: 'transfer',
      args: [operator, 10n ** 18n],
      contractAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    })
    // viem alone cannot name it: the ABI it was given has no errors.
    expect(error.shortMessage).toContain('reverted')
    expect(explain(error)).toMatchObject({
      kind: 'revert',
      title: 'The contract refused the transaction',
      message: `ERC20InsufficientBalance(sender ${sender}, balance 0, needed 1000000000000000000)`,
      next: 'Send at most the token balance, or get more test tokens first.',
    })
  })

  test('behavior: a revert the wallet only spells out in its message is decoded from the text', () => {
    const wallet = new RpcErrors.InvalidParamsError({
      message: `eth_sendTransaction: Execution reverted with reason: custom error 0xe450d38c: ${insufficient.slice(10)}.`,
    })
    const error = new TransactionExecutionError(
      new InternalRpcError(wallet as unknown as Error),
      { account: { address: sender, type: 'json-rpc' }, chain: undefined },
    )
    expect(explain(error).message).toBe(
      `ERC20InsufficientBalance(sender ${sender}, balance 0, needed 1000000000000000000)`,
    )
  })

  test('behavior: revert data on a wire error (`data`) is decoded', () => {
    const error = new RpcErrors.RpcError(3, 'execution reverted', {
      data: insufficient,
    })
    expect(explain(error).kind).toBe('revert')
  })

  test('behavior: a rejection by the user (4001), however wrapped', () => {
    const wallet = new RpcErrors.UserRejectedRequestError({
      message: 'User rejected the request.',
    })
    const error = new TransactionExecutionError(
      new UserRejectedRequestError(wallet as unknown as Error),
      { account: { address: sender, type: 'json-rpc' }, chain: undefined },
    )
    expect(explain(error)).toMatchObject({
      kind: 'rejected',
      title: 'You rejected the request',
      message: 'User rejected the request.',
      next: 'Nothing was sent or signed; try again when you are ready.',
    })
  })

  test("behavior: the game wallet's Reject in its confirmation popup (-32003, as published) is a rejection too", () => {
    const wallet = new RpcErrors.TransactionRejectedError({
      message: 'Transaction rejected by user',
    })
    const error = new TransactionExecutionError(
      new TransactionRejectedRpcError(wallet as unknown as Error),
      { account: { address: sender, type: 'json-rpc' }, chain: undefined },
    )
    expect(explain(error)).toMatchObject({
      kind: 'rejected',
      message: 'Transaction rejected by user',
    })
    // The same code from a node that refused the transaction is not.
    expect(
      explain(
        new RpcErrors.TransactionRejectedError({ message: 'Nonce too low' }),
      ).kind,
    ).toBe('unknown')
  })

  test("behavior: the game wallet's unavailable guardian reads as unavailable, with its published type and text", () => {
    // As the provider throws it, and as wagmi's sendTransaction passes it
    // on: inside viem's wrappers, the guardian's words as its cause.
    const wallet = typed(
      new RpcErrors.InvalidInputError({
        message: 'Service unavailable',
        cause: new Error('The guardian is unavailable.'),
      }),
      'SERVICE_UNAVAILABLE_ERROR',
    )
    const error = new TransactionExecutionError(
      new InvalidInputRpcError(wallet as unknown as Error),
      { account: { address: sender, type: 'json-rpc' }, chain: undefined },
    )
    expect(explain(error)).toMatchObject({
      kind: 'unavailable',
      title: 'The wallet’s service is unavailable',
      message:
        'SERVICE_UNAVAILABLE_ERROR: Service unavailable. The guardian is unavailable.',
      next: 'Wait a moment and try again; the wallet’s backend is not answering right now.',
    })
  })

  test.each([
    [4100, 'unauthorized', 'The wallet is not signed in'],
    [4200, 'unsupported', 'The wallet does not support this request'],
    [4900, 'disconnected', 'The wallet is disconnected'],
    [4901, 'disconnected', 'The wallet is disconnected'],
  ] as const)('behavior: EIP-1193 code %i is %s', (code, kind, title) => {
    const error = RpcErrors.fromCode(code, { message: 'From the wallet.' })
    expect(explain(error)).toMatchObject({
      kind,
      title,
      message: 'From the wallet.',
    })
  })

  test("behavior: the game wallet's logged-out error is unauthorised", () => {
    const error = typed(
      new RpcErrors.UnauthorizedError({ message: 'User has been logged out' }),
      'NOT_LOGGED_IN_ERROR',
    )
    expect(explain(error)).toMatchObject({
      kind: 'unauthorized',
      message: 'NOT_LOGGED_IN_ERROR: User has been logged out',
      next: 'Sign in to the wallet again (Connect), then retry.',
    })
  })

  test('behavior: a node that does not answer is a network error', () => {
    const error = new HttpRequestError({
      url: 'http://127.0.0.1:1',
      details: 'Failed to fetch',
    })
    expect(explain(error)).toMatchObject({
      kind: 'network',
      title: 'The network did not answer',
      message: 'HTTP request failed.',
    })
  })

  test("behavior: not enough ETH, in the iframe wallet's words", () => {
    const error = new RpcErrors.InternalError({
      message: 'Insufficient funds for gas * price + value',
    })
    expect(explain(error)).toMatchObject({
      kind: 'funds',
      title: 'Not enough ETH',
      message: 'Insufficient funds for gas * price + value',
    })
  })

  test('behavior: anything else falls back, keeping its message and every cause in the detail', () => {
    const error = new BaseError('Outer.', {
      cause: Object.assign(new Error('Inner.'), { data: { why: 1n } }),
    })
    const explained = explain(error)
    expect(explained).toMatchObject({
      kind: 'unknown',
      title: 'Something went wrong',
      message: 'Inner.',
    })
    expect(explained.detail).toContain('BaseError: Outer.')
    expect(explained.detail).toContain('Error: Inner.\ndata: {"why":"1"}')
    expect(explain('a string').message).toBe('a string')
    expect(explain(undefined).message).toBe('Unknown error')
  })

  test('behavior: a cycle of causes ends', () => {
    const a = new Error('A')
    const b = new Error('B', { cause: a })
    Object.assign(a, { cause: b })
    expect(explain(a).message).toBe('B')
  })
})

describe('valueText', () => {
  test('behavior: numbers in decimal, addresses and hex as they are, text quoted', () => {
    expect(valueText(10n ** 18n)).toBe('1000000000000000000')
    expect(valueText(sender)).toBe(sender)
    expect(valueText('hi')).toBe('"hi"')
    expect(valueText([1n, 2n])).toBe('["1","2"]')
  })
})
