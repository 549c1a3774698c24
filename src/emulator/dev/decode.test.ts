import { encodeFunctionData, erc20Abi, erc721Abi } from 'viem'
import { describe, expect, test } from 'vitest'
import { encodeExecute, metaTransaction } from '../../passport/wire/sequence.js'
import { TestERC20 } from '../chain/artifacts.generated.js'
import { predictContracts } from '../chain/deploy.js'
import { decodeCall } from './decode.js'

const contracts = predictContracts()
const bob = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf'
const wallet = '0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF'

describe('decodeCall', () => {
  test("behavior: a test token's call reads by its ABI, the contract by its name", () => {
    const data = encodeFunctionData({
      abi: TestERC20.abi,
      functionName: 'mint',
      args: [bob, 5n],
    })
    expect(
      decodeCall({ to: contracts.erc20, data, value: 0n }, contracts),
    ).toEqual({
      to: contracts.erc20,
      contract: 'erc20',
      value: '0',
      function: 'mint',
      args: [bob, '5'],
    })
  })

  test("behavior: a wallet's execute opens into its batch, each call decoded", () => {
    const data = encodeExecute({
      transactions: [
        metaTransaction({ to: bob, value: 7n }),
        metaTransaction({
          to: contracts.testErc721,
          data: encodeFunctionData({
            abi: erc721Abi,
            functionName: 'transferFrom',
            args: [wallet, bob, 3n],
          }),
        }),
      ],
      nonce: 4n,
      signature: '0x',
    })
    expect(decodeCall({ to: wallet, data, value: 0n }, contracts)).toEqual({
      to: wallet,
      contract: undefined,
      value: '0',
      function: 'execute',
      args: ['nonce 4'],
      calls: [
        { to: bob, contract: undefined, value: '7', delegateCall: false },
        {
          to: contracts.testErc721,
          contract: 'testErc721',
          value: '0',
          function: 'transferFrom',
          args: [wallet, bob, '3'],
          delegateCall: false,
        },
      ],
    })
  })

  test('behavior: an unknown selector is shown as is, a creation as a creation', () => {
    expect(
      decodeCall({ to: bob, data: '0xdeadbeef00', value: 1n }, contracts),
    ).toEqual({
      to: bob,
      contract: undefined,
      value: '1',
      selector: '0xdeadbeef',
    })
    expect(
      decodeCall({ to: null, data: '0x6080604052', value: 0n }, contracts),
    ).toEqual({
      to: undefined,
      contract: undefined,
      value: '0',
      function: 'create',
    })
  })

  test('error: a malformed execute is shown by its selector, not thrown', () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [bob, 1n],
    })
    expect(
      decodeCall(
        { to: wallet, data: `0x7a9a1628${data.slice(10)}`, value: 0n },
        contracts,
      ),
    ).toEqual({
      to: wallet,
      contract: undefined,
      value: '0',
      selector: '0x7a9a1628',
    })
  })
})
