import { createPublicClient, type Hex, http, parseEther } from 'viem'
import { recoverAuthorizationAddress } from 'viem/utils'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type ChainService, call, startChainService } from './testkit.js'

let service: ChainService

beforeAll(async () => {
  service = await startChainService()
}, 60_000)

afterAll(() => service?.stop())

const chain = () =>
  createPublicClient({ transport: http(service.anvil.rpcUrl) })

describe('EIP-7702 methods', { timeout: 30_000 }, () => {
  test("behavior: sign_7702_authorization signs for the user; send7702Transaction delegates the account at the user's expense", async () => {
    const { device, address } = await service.loggedIn()
    const delegate = service.contracts.sponsoredCallDelegate
    const unsigned = await call(
      service.app,
      'magic_wallet_sign_7702_authorization',
      [{ contractAddress: delegate, chainId: 31337 }],
      { device },
    )
    expect(unsigned.result).toMatchObject({ nonce: 0, chainId: 31337 })
    const { result } = await call(
      service.app,
      'magic_wallet_sign_7702_authorization',
      [{ contractAddress: delegate, chainId: 31337, nonce: 1 }],
      { device },
    )
    const auth = result as { v: number; r: Hex; s: Hex; signature: Hex }
    expect(result).toEqual({
      contractAddress: delegate,
      chainId: 31337,
      nonce: 1,
      v: auth.v,
      r: auth.r,
      s: auth.s,
      signature: `${auth.r}${auth.s.slice(2)}${auth.v === 0 ? '1b' : '1c'}`,
    })
    expect([0, 1]).toContain(auth.v)
    expect(
      await recoverAuthorizationAddress({
        authorization: {
          address: delegate,
          chainId: 31337,
          nonce: 1,
          r: auth.r,
          s: auth.s,
          yParity: auth.v,
        },
      }),
    ).toBe(address)

    const sent = await call(
      service.app,
      'eth_send7702Transaction',
      [{ to: address, data: '0x', authorizationList: [result] }],
      { device },
    )
    const { transactionHash } = sent.result as { transactionHash: Hex }
    const receipt = await chain().waitForTransactionReceipt({
      hash: transactionHash,
    })
    expect([receipt.status, receipt.from, receipt.type]).toEqual([
      'success',
      address.toLowerCase(),
      'eip7702',
    ])
    expect(await chain().getCode({ address })).toBe(
      `0xef0100${delegate.slice(2).toLowerCase()}`,
    )
    expect(await chain().getBalance({ address })).toBe(
      parseEther('100') - receipt.gasUsed * receipt.effectiveGasPrice,
    )
  })

  test('error: a self-sent authorization with the account nonce (which the chain would skip) or none at all is -32602', async () => {
    const { device, address } = await service.loggedIn()
    const { result } = await call(
      service.app,
      'magic_wallet_sign_7702_authorization',
      [
        {
          contractAddress: service.contracts.sponsoredCallDelegate,
          chainId: 31337,
        },
      ],
      { device },
    )
    const send = (authorizationList: unknown) =>
      call(
        service.app,
        'eth_send7702Transaction',
        [{ to: address, authorizationList }],
        { device },
      )
    expect((await send([result])).error).toEqual({
      code: -32602,
      message:
        "eth_send7702Transaction: authorizationList[0] is the sender's own with nonce 0; the sender's transaction uses nonce 0, so its authorization needs 1.",
    })
    expect((await send([])).error).toEqual({
      code: -32602,
      message:
        'eth_send7702Transaction: authorizationList must be a non-empty array.',
    })
  })
})
