import {
  concat,
  encodeAbiParameters,
  getAddress,
  type Hex,
  keccak256,
  numberToHex,
  slice,
  toFunctionSelector,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { anvilPrivateKeys, coSignerKey } from './accounts.js'
import { counterfactualAddress, imageHash } from './counterfactual.js'
import { predictContracts } from './deploy.js'
import {
  call,
  coSignerPart,
  decodeExecute,
  decodeNonce,
  decodeSignature,
  encodeDeployAndExecute,
  encodeExecute,
  encodeNonce,
  encodeSignature,
  executeSelector,
  InvalidExecuteError,
  InvalidWalletSignatureError,
  playerWalletAddress,
  playerWalletConfig,
  playerWalletSignature,
  recoverSigner,
  signEthSign,
  signExecute,
  subDigest,
  transactionDigest,
} from './sequence.js'

const player = privateKeyToAccount(anvilPrivateKeys[3])
const contracts = predictContracts()
const target = getAddress('0x00000000000000000000000000000000000000aa')
const transactions = [
  call(target, { value: 5n, data: '0xdeadbeef' }),
  call(player.address),
]
/** secp256k1's group order. */
const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

describe('digests', () => {
  test('the transaction digest hashes abi.encode(nonce, txs)', () => {
    expect(transactionDigest(7n, transactions)).toBe(
      keccak256(
        encodeAbiParameters(
          [
            { type: 'uint256' },
            {
              type: 'tuple[]',
              components: [
                { type: 'bool' },
                { type: 'bool' },
                { type: 'uint256' },
                { type: 'address' },
                { type: 'uint256' },
                { type: 'bytes' },
              ],
            },
          ],
          [7n, transactions.map((tx) => Object.values(tx) as never)],
        ),
      ),
    )
  })

  test('the sub-digest is keccak256(0x1901 ‖ uint256 chainId ‖ wallet ‖ digest)', () => {
    const digest = keccak256('0x01')
    const wallet = '0x1111111111111111111111111111111111111111'
    expect(subDigest({ chainId: 13473, wallet, digest })).toBe(
      keccak256(
        concat(['0x1901', numberToHex(13473, { size: 32 }), wallet, digest]),
      ),
    )
  })

  test('a nonce is space · 2^96 + sequence number', () => {
    expect(encodeNonce(1n, 5n)).toBe(2n ** 96n + 5n)
    expect(decodeNonce(2n ** 96n * 3n + 9n)).toEqual({ space: 3n, nonce: 9n })
    expect(decodeNonce(4n)).toEqual({ space: 0n, nonce: 4n })
  })
})

describe('execute calldata', () => {
  test('starts with the published execute selector and round-trips', () => {
    expect(
      toFunctionSelector(
        'execute((bool,bool,uint256,address,uint256,bytes)[],uint256,bytes)',
      ),
    ).toBe(executeSelector)
    const data = encodeExecute({
      transactions,
      nonce: 3n,
      signature: '0x0001',
    })
    expect(slice(data, 0, 4)).toBe('0x7a9a1628')
    expect(decodeExecute(data)).toEqual({
      transactions,
      nonce: 3n,
      signature: '0x0001',
    })
  })

  test('refuses other calls, truncated calldata and non-hex', () => {
    const data = encodeExecute({ transactions, nonce: 0n, signature: '0x' })
    expect(() => decodeExecute(`0x12345678${data.slice(10)}`)).toThrow(
      InvalidExecuteError,
    )
    expect(() => decodeExecute(data.slice(0, 100) as Hex)).toThrow(
      'The execute calldata does not decode.',
    )
    expect(() => decodeExecute('0x7a9a16zz' as Hex)).toThrow(
      'The calldata is not a call to execute.',
    )
  })
})

describe('signatures', () => {
  const sig66 = `0x${'11'.repeat(32)}${'22'.repeat(32)}1b02` as Hex
  const address = '0x3333333333333333333333333333333333333333'

  test('encodes each part as flag ‖ weight ‖ body, after a uint16 threshold', () => {
    const encoded = encodeSignature({
      threshold: 2,
      parts: [
        { type: 'eoa', weight: 1, signature: sig66 },
        { type: 'address', weight: 3, address },
        { type: 'dynamic', weight: 1, address, signature: '0xabcdef' },
      ],
    })
    expect(encoded).toBe(
      `0x0002` +
        `0001${sig66.slice(2)}` +
        `0103${address.slice(2)}` +
        `0201${address.slice(2)}0003abcdef`,
    )
    expect(decodeSignature(encoded)).toEqual({
      threshold: 2,
      parts: [
        { type: 'eoa', weight: 1, signature: sig66 },
        { type: 'address', weight: 3, address },
        { type: 'dynamic', weight: 1, address, signature: '0xabcdef' },
      ],
    })
  })

  test('refuses truncated parts, unknown flags and odd hex', () => {
    expect(() => decodeSignature('0x00')).toThrow('no threshold')
    expect(() => decodeSignature(`0x00010001${'11'.repeat(65)}`)).toThrow(
      'ends inside a part',
    )
    expect(() => decodeSignature(`0x00020201${'33'.repeat(20)}0005ab`)).toThrow(
      InvalidWalletSignatureError,
    )
    expect(() => decodeSignature('0x00010401')).toThrow(
      'Unknown signature part flag 4.',
    )
    expect(() => decodeSignature('0x0001000')).toThrow('not hex bytes')
    expect(() =>
      encodeSignature({
        threshold: 1,
        parts: [{ type: 'eoa', weight: 1, signature: '0x1234' }],
      }),
    ).toThrow('66 bytes')
  })

  test('an eth_sign part recovers its signer; other keys, high s, bad v and type are refused', async () => {
    const hash = keccak256('0x1234')
    const signature = await signEthSign(player, hash)
    expect(signature).toMatch(/^0x[0-9a-f]{128}(1b|1c)02$/)
    expect(await recoverSigner(hash, signature)).toBe(player.address)
    expect(await recoverSigner(keccak256('0x99'), signature)).not.toBe(
      player.address,
    )
    // Type 1 recovers over the hash itself.
    const raw = await player.sign({ hash })
    expect(await recoverSigner(hash, concat([raw, '0x01']))).toBe(
      player.address,
    )

    const s = BigInt(slice(signature, 32, 64))
    const v = Number.parseInt(signature.slice(130, 132), 16)
    const twin = concat([
      slice(signature, 0, 32),
      numberToHex(n - s, { size: 32 }),
      numberToHex(v === 27 ? 28 : 27, { size: 1 }),
      '0x02',
    ])
    await expect(recoverSigner(hash, twin)).rejects.toThrow('s is high')
    await expect(
      recoverSigner(hash, concat([slice(signature, 0, 64), '0x0002'])),
    ).rejects.toThrow('v is 0')
    await expect(
      recoverSigner(hash, concat([slice(signature, 0, 65), '0x03'])),
    ).rejects.toThrow('Unknown signature type 3.')
    await expect(recoverSigner(hash, slice(signature, 0, 65))).rejects.toThrow(
      '66 bytes',
    )
  })
})

describe('the game wallet', () => {
  test('is {custody w1, co-signer w1} threshold 2 at its counterfactual address', () => {
    expect(
      playerWalletConfig({
        custody: player.address,
        coSigner: contracts.coSigner,
      }),
    ).toEqual({
      threshold: 2,
      signers: [
        { weight: 1, address: player.address },
        { weight: 1, address: contracts.coSigner },
      ],
    })
    const salt = imageHash({
      threshold: 2,
      signers: [
        { weight: 1, address: contracts.coSigner },
        { weight: 1, address: player.address },
      ],
    })
    expect(playerWalletAddress({ custody: player.address, contracts })).toBe(
      counterfactualAddress({
        factory: contracts.factory,
        mainModule: contracts.mainModule,
        imageHash: salt,
      }),
    )
  })

  test("the co-signer's part is flag 2, weight 1, the contract, length 0x43 and type 3", () => {
    const signature = `0x${'ab'.repeat(65)}02` as Hex
    const part = coSignerPart({ coSigner: contracts.coSigner, signature })
    expect(encodeSignature({ threshold: 0, parts: [part] })).toBe(
      `0x00000201${contracts.coSigner.slice(2)}0043${signature.slice(2)}03`,
    )
  })

  test('the full signature lists the lower address first', () => {
    const custodySignature = `0x${'aa'.repeat(65)}02` as Hex
    const coSignature = `0x${'bb'.repeat(65)}02` as Hex
    const user = `0001${custodySignature.slice(2)}`
    const co = `0201${contracts.coSigner.slice(2)}0043${coSignature.slice(2)}03`
    const low = '0x0000000000000000000000000000000000000001'
    const high = '0xffFfFFFfFfFfffFfFFFFfFfFFffFfFfFFfFfFfFF'
    expect(
      playerWalletSignature({
        custody: low,
        custodySignature,
        coSigner: contracts.coSigner,
        coSignature,
      }),
    ).toBe(`0x0002${user}${co}`)
    expect(
      playerWalletSignature({
        custody: high,
        custodySignature,
        coSigner: contracts.coSigner,
        coSignature,
      }),
    ).toBe(`0x0002${co}${user}`)
  })

  test('signExecute signs the sub-digest with each account, lists the others', async () => {
    const wallet = playerWalletAddress({ custody: player.address, contracts })
    const signature = await signExecute({
      chainId: 31337,
      wallet,
      nonce: 0n,
      transactions,
      threshold: 2,
      signers: [
        { weight: 1, address: player.address, account: player },
        { weight: 1, address: contracts.coSigner },
      ],
    })
    const { threshold, parts } = decodeSignature(signature)
    expect(threshold).toBe(2)
    const hash = subDigest({
      chainId: 31337,
      wallet,
      digest: transactionDigest(0n, transactions),
    })
    const eoa = parts.find((part) => part.type === 'eoa')
    expect(eoa && (await recoverSigner(hash, eoa.signature))).toBe(
      player.address,
    )
    expect(parts.find((part) => part.type === 'address')).toEqual({
      type: 'address',
      weight: 1,
      address: contracts.coSigner,
    })
    expect(coSignerKey.address).not.toBe(player.address)
  })

  test('deploy-and-execute calls the guest module with Factory.deploy then execute', () => {
    const config = playerWalletConfig({
      custody: player.address,
      coSigner: contracts.coSigner,
    })
    const data = encodeDeployAndExecute({
      contracts,
      config,
      execute: { transactions, nonce: 0n, signature: '0x0002' },
    })
    const guest = decodeExecute(data)
    expect(guest.nonce).toBe(0n)
    expect(guest.signature).toBe('0x')
    expect(guest.transactions.map((tx) => tx.target)).toEqual([
      contracts.factory,
      playerWalletAddress({ custody: player.address, contracts }),
    ])
    expect(guest.transactions[0]!.data).toBe(
      concat([
        toFunctionSelector('deploy(address,bytes32)'),
        encodeAbiParameters(
          [{ type: 'address' }, { type: 'bytes32' }],
          [contracts.mainModule, imageHash(config)],
        ),
      ]),
    )
    expect(decodeExecute(guest.transactions[1]!.data)).toEqual({
      transactions,
      nonce: 0n,
      signature: '0x0002',
    })
  })
})
