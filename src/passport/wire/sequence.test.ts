import {
  concat,
  encodeFunctionData,
  encodeFunctionResult,
  getAddress,
  type Hex,
  hashMessage,
  hashTypedData,
  keccak256,
  numberToHex,
  parseErc6492Signature,
  recoverMessageAddress,
  slice,
  toFunctionSelector,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { vectors } from './_test/sequenceVectors.js'
import {
  coSignerPart,
  counterfactualAddress,
  custodyPart,
  decodeExecute,
  decodeNonce,
  decodeReadNonce,
  decodeSignature,
  encodeDeploy,
  encodeDeployAndExecute,
  encodeExecute,
  encodeMetaTransactions,
  encodeNonce,
  encodeReadNonce,
  encodeSignature,
  encodeSignaturePart,
  encodeSignedParts,
  eoaSignature,
  erc6492MagicBytes,
  factoryAbi,
  InvalidExecuteError,
  InvalidNonceError,
  InvalidWalletConfigError,
  InvalidWalletSignatureError,
  imageHash,
  metaTransaction,
  nonceSpaces,
  normalizeV,
  playerWalletAddress,
  playerWalletConfig,
  playerWalletSignature,
  type SignedPart,
  selectors,
  signatureTypes,
  signedDigest,
  sortSigners,
  splitEoaSignature,
  subDigest,
  transactionSignature,
  transactionsDigest,
  typedDataDigest,
  unwrapErc6492,
  walletAbi,
  walletCreationCode,
  walletInitCode,
  wrapErc6492,
} from './sequence.js'

// ABI words assembled by hand, independent of viem's encoders.
const word = (hex: string) =>
  hex.replace(/^0x/, '').toLowerCase().padStart(64, '0')
const wordOf = (n: number | bigint) => word(n.toString(16))

const low = '0x1111111111111111111111111111111111111111'
const high = getAddress('0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')
const target = getAddress('0x00000000000000000000000000000000000000aa')
const transactions = [
  metaTransaction({ to: target, value: 5n, data: '0xdeadbeef' }),
  metaTransaction({ to: low }),
]
const custody = privateKeyToAccount(vectors.custodyKey)
const coSigner = privateKeyToAccount(vectors.coSignerKey)

describe('the known vectors', () => {
  test('default: the wallet of the custody key and the co-signer', () => {
    const config = playerWalletConfig({
      custody: vectors.custody,
      coSigner: vectors.contracts.coSigner,
    })
    expect(custody.address).toBe(vectors.custody)
    expect(imageHash(config)).toBe(vectors.imageHash)
    expect(
      playerWalletAddress({
        custody: vectors.custody,
        contracts: vectors.contracts,
      }),
    ).toBe(vectors.wallet)
  })

  test('default: the digests of a batch in nonce space 1', () => {
    expect(encodeNonce(nonceSpaces.background, 0n)).toBe(vectors.nonce)
    expect(transactionsDigest(vectors.nonce, vectors.transactions)).toBe(
      vectors.transactionsDigest,
    )
    expect(
      subDigest({
        chainId: vectors.chainId,
        wallet: vectors.wallet,
        digest: vectors.transactionsDigest,
      }),
    ).toBe(vectors.subDigest)
  })

  test('default: the signatures and calldata of that batch', async () => {
    const raw = { raw: vectors.subDigest }
    const custodySignature = await custody.signMessage({ message: raw })
    const coSignature = await coSigner.signMessage({ message: raw })
    expect(transactionSignature(custodySignature)).toBe(
      vectors.transactionSignature,
    )
    const signature = playerWalletSignature({
      custody: vectors.custody,
      custodySignature: eoaSignature(custodySignature, signatureTypes.ethSign),
      coSigner: vectors.contracts.coSigner,
      coSignature: eoaSignature(coSignature, signatureTypes.ethSign),
    })
    expect(signature).toBe(vectors.executeSignature)
    const execute = {
      transactions: vectors.transactions,
      nonce: vectors.nonce,
      signature,
    }
    expect(keccak256(encodeExecute(execute))).toBe(vectors.executeCalldataHash)
    expect(
      keccak256(
        encodeDeployAndExecute({
          contracts: vectors.contracts,
          config: playerWalletConfig({
            custody: vectors.custody,
            coSigner: vectors.contracts.coSigner,
          }),
          execute,
        }),
      ),
    ).toBe(vectors.deployAndExecuteHash)
  })

  test('default: a message signature, plain and wrapped per ERC-6492', async () => {
    const raw = {
      raw: subDigest({
        chainId: vectors.chainId,
        wallet: vectors.wallet,
        digest: hashMessage(vectors.message),
      }),
    }
    const signature = encodeSignedParts(2, [
      {
        address: vectors.custody,
        part: custodyPart(await custody.signMessage({ message: raw })),
      },
      {
        address: vectors.contracts.coSigner,
        part: coSignerPart({
          coSigner: vectors.contracts.coSigner,
          signature: eoaSignature(
            await coSigner.signMessage({ message: raw }),
            signatureTypes.ethSign,
          ),
        }),
      },
    ])
    expect(signature).toBe(vectors.messageSignature)
    expect(
      wrapErc6492({
        ...vectors.contracts,
        imageHash: vectors.imageHash,
        signature,
      }),
    ).toBe(vectors.erc6492Signature)
  })
})

describe('calldata', () => {
  test('default: the selectors are those of the ABI', () => {
    expect(selectors).toEqual({
      execute: toFunctionSelector(walletAbi[0]),
      readNonce: toFunctionSelector(walletAbi[1]),
      deploy: toFunctionSelector(factoryAbi[0]),
    })
    expect(selectors.execute).toBe(
      toFunctionSelector(
        'execute((bool,bool,uint256,address,uint256,bytes)[],uint256,bytes)',
      ),
    )
  })

  test('behavior: a plain call as the published SDK builds it', () => {
    expect(metaTransaction({ to: low.toLowerCase() as Hex })).toEqual({
      delegateCall: false,
      revertOnError: true,
      gasLimit: 0n,
      target: getAddress(low),
      value: 0n,
      data: '0x',
    })
    expect(() => metaTransaction({ to: '0x1234' })).toThrow(
      'Address "0x1234" is invalid.',
    )
  })

  test('behavior: execute, readNonce and deploy calldata are the ABI encoding', () => {
    expect(
      encodeExecute({ transactions, nonce: 7n, signature: '0xabcdef' }),
    ).toBe(
      encodeFunctionData({
        abi: walletAbi,
        functionName: 'execute',
        args: [transactions, 7n, '0xabcdef'],
      }),
    )
    expect(encodeReadNonce(1n)).toBe(`0x8c3f5563${wordOf(1)}`)
    expect(encodeDeploy({ mainModule: high, imageHash: keccak256('0x') })).toBe(
      `0x32c02a14${word(high)}${word(keccak256('0x'))}`,
    )
    expect(encodeMetaTransactions([transactions[1]!])).toBe(
      `0x${wordOf(0x20)}${wordOf(1)}${wordOf(0x20)}${wordOf(0)}${wordOf(1)}${wordOf(0)}${word(low)}${wordOf(0)}${wordOf(0xc0)}${wordOf(0)}`,
    )
  })

  test('behavior: execute calldata round-trips with checksummed targets', () => {
    const data = encodeExecute({ transactions, nonce: 3n, signature: '0x0001' })
    expect(decodeExecute(data)).toEqual({
      transactions,
      nonce: 3n,
      signature: '0x0001',
    })
    expect(
      decodeExecute(data.toUpperCase().replace('0X', '0x') as Hex),
    ).toEqual(decodeExecute(data))
  })

  test('error: calldata that is not execute', () => {
    const data = encodeExecute({ transactions, nonce: 0n, signature: '0x' })
    expect(() => decodeExecute(`0x12345678${data.slice(10)}`)).toThrow(
      new InvalidExecuteError('The calldata is not a call to execute.'),
    )
    expect(() => decodeExecute(data.slice(0, 100) as Hex)).toThrow(
      new InvalidExecuteError('The execute calldata does not decode.'),
    )
    expect(() => decodeExecute('0x7a9a16zz' as Hex)).toThrow(
      InvalidExecuteError,
    )
    expect(() => decodeExecute(`${data}0` as Hex)).toThrow(InvalidExecuteError)
  })

  test('behavior: readNonce answers are read from their first word', () => {
    const answer = encodeFunctionResult({
      abi: walletAbi,
      functionName: 'readNonce',
      result: 2n ** 96n + 3n,
    })
    expect(decodeReadNonce(answer)).toBe(2n ** 96n + 3n)
    expect(() => decodeReadNonce('0x01')).toThrow(
      new InvalidNonceError(
        'Data size of 1 bytes is too small for given parameters.',
      ),
    )
  })
})

describe('nonces', () => {
  test('default: session activity has its own space', () => {
    expect(nonceSpaces).toEqual({ default: 0n, background: 1n })
  })

  test('behavior: a nonce is space · 2^96 + its counter, and back', () => {
    expect(encodeNonce(0n, 7n)).toBe(7n)
    expect(encodeNonce(1n, 5n)).toBe(0x1000000000000000000000005n)
    expect(decodeNonce(2n ** 96n * 3n + 9n)).toEqual({ space: 3n, nonce: 9n })
    expect(decodeNonce(4n)).toEqual({ space: 0n, nonce: 4n })
    const top = 2n ** 160n - 1n
    expect(decodeNonce(encodeNonce(top, 2n ** 96n - 1n))).toEqual({
      space: top,
      nonce: 2n ** 96n - 1n,
    })
  })

  test('error: a counter past 96 bits would change the space', () => {
    expect(() => encodeNonce(0n, 2n ** 96n)).toThrow(
      new InvalidNonceError(`The nonce ${2n ** 96n} is not a uint96.`),
    )
    expect(() => encodeNonce(0n, -1n)).toThrow(InvalidNonceError)
    expect(() => encodeNonce(2n ** 160n, 0n)).toThrow(
      new InvalidNonceError(`The nonce space ${2n ** 160n} is not a uint160.`),
    )
  })
})

describe('digests', () => {
  test('behavior: the batch digest is keccak256(abi.encode(nonce, txs))', () => {
    const tx = metaTransaction({ to: low, value: 3n, data: '0xabcd' })
    const encoded = [
      wordOf(9),
      wordOf(0x40),
      wordOf(1),
      wordOf(0x20),
      wordOf(0),
      wordOf(1),
      wordOf(0),
      word(low),
      wordOf(3),
      wordOf(0xc0),
      wordOf(2),
      `abcd${'0'.repeat(60)}`,
    ].join('')
    expect(transactionsDigest(9n, [tx])).toBe(keccak256(`0x${encoded}`))
  })

  test('behavior: the sub-digest is keccak256(0x1901 ‖ uint256 chainId ‖ wallet ‖ digest)', () => {
    const digest = keccak256('0x01')
    expect(subDigest({ chainId: 13473, wallet: low, digest })).toBe(
      keccak256(`0x1901${wordOf(13473)}${low.slice(2)}${digest.slice(2)}`),
    )
  })

  test("behavior: typed data is hashed with the domain type rebuilt from the domain's keys", () => {
    const typedData = {
      domain: { name: 'Game', chainId: 13473 },
      types: { Mail: [{ name: 'contents', type: 'string' }] },
      primaryType: 'Mail',
      message: { contents: 'hi' },
    } as const
    const expected = hashTypedData(typedData)
    expect(typedDataDigest(typedData)).toBe(expected)
    // A caller's EIP712Domain, here naming a field the domain lacks, is
    // not what the wallet signs.
    expect(
      typedDataDigest({
        ...typedData,
        types: {
          ...typedData.types,
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'version', type: 'string' },
          ],
        },
      }),
    ).toBe(expected)
  })
})

describe('signatures', () => {
  const sig66 = `0x${'11'.repeat(32)}${'22'.repeat(32)}1b02` as Hex
  const address = '0x3333333333333333333333333333333333333333'

  test('behavior: each part is flag ‖ weight ‖ body after a uint16 threshold, and decodes back', () => {
    const parts = [
      { type: 'eoa', weight: 1, signature: sig66 },
      { type: 'address', weight: 3, address },
      { type: 'dynamic', weight: 1, address, signature: '0xabcdef' },
    ] as const
    const encoded = encodeSignature({ threshold: 2, parts })
    expect(encoded).toBe(
      `0x0002` +
        `0001${sig66.slice(2)}` +
        `0103${address.slice(2)}` +
        `0201${address.slice(2)}0003abcdef`,
    )
    expect(decodeSignature(encoded)).toEqual({ threshold: 2, parts })
    expect(encodeSignaturePart(parts[1])).toBe(`0x0103${address.slice(2)}`)
  })

  test('behavior: addresses are written in lowercase hex', () => {
    expect(
      encodeSignaturePart({ type: 'address', weight: 1, address: high }),
    ).toBe(`0x0101${high.slice(2).toLowerCase()}`)
  })

  test('error: bytes that are not a signature', () => {
    const refused = (signature: Hex, message: string) =>
      expect(() => decodeSignature(signature)).toThrow(
        new InvalidWalletSignatureError(message),
      )
    refused('0x00', 'The signature has no threshold.')
    refused(
      `0x00010001${'11'.repeat(65)}`,
      'The signature ends inside a part (byte 4 of 69).',
    )
    refused(
      `0x00020201${'33'.repeat(20)}0005ab`,
      'The signature ends inside a part (byte 26 of 27).',
    )
    // The published SDK's text: a relayer answer with `0x` decodes as type 48.
    refused('0x00003000', 'Unknown signature part type: 48')
    refused('0x0001000', 'The signature is not hex bytes.')
    refused('0x00zz' as Hex, 'The signature is not hex bytes.')
  })

  test('error: parts and thresholds out of range', () => {
    const encode = (signature: Parameters<typeof encodeSignature>[0]) => () =>
      encodeSignature(signature)
    expect(
      encode({
        threshold: 1,
        parts: [{ type: 'eoa', weight: 1, signature: '0x1234' }],
      }),
    ).toThrow('An EOA part carries 66 bytes: r, s, v and a type.')
    expect(
      encode({
        threshold: 1,
        parts: [{ type: 'address', weight: 256, address }],
      }),
    ).toThrow('The weight 256 is not an integer from 0 to 255.')
    expect(encode({ threshold: 65_536, parts: [] })).toThrow(
      'The threshold 65536 is not an integer from 0 to 65535.',
    )
    expect(
      encode({
        threshold: 1,
        parts: [
          {
            type: 'dynamic',
            weight: 1,
            address,
            signature: `0x${'00'.repeat(65_536)}`,
          },
        ],
      }),
    ).toThrow(InvalidWalletSignatureError)
  })

  test('behavior: v 0/1 becomes 27/28; an EOA signature ends in its type', () => {
    const rs = `0x${'ab'.repeat(64)}` as const
    expect(normalizeV(concat([rs, '0x00']))).toBe(concat([rs, '0x1b']))
    expect(normalizeV(concat([rs, '0x1c']))).toBe(concat([rs, '0x1c']))
    expect(() => normalizeV(rs)).toThrow('Invalid signature length')
    expect(eoaSignature(concat([rs, '0x01']), signatureTypes.ethSign)).toBe(
      concat([rs, '0x1c', '0x02']),
    )
    expect(splitEoaSignature(concat([rs, '0x1b', '0x01']))).toEqual({
      signature: concat([rs, '0x1b']),
      type: 1,
    })
    expect(() => splitEoaSignature(concat([rs, '0x1b']))).toThrow(
      'A signature is 66 bytes.',
    )
  })

  test('behavior: type 1 signs the digest, type 2 its eth_sign form, type 3 is no EOA', () => {
    const digest = keccak256('0x02')
    expect(signedDigest(digest, signatureTypes.eip712)).toBe(digest)
    expect(signedDigest(digest, signatureTypes.ethSign)).toBe(
      keccak256(
        concat([
          `0x${Buffer.from('\x19Ethereum Signed Message:\n32').toString('hex')}`,
          digest,
        ]),
      ),
    )
    expect(() => signedDigest(digest, signatureTypes.erc1271)).toThrow(
      'Unknown signature type 3.',
    )
  })

  test("behavior: a transaction's signature is 0x0001 00 01 <r s v> 02 and recovers to the custody key", async () => {
    const digest = subDigest({
      chainId: 1,
      wallet: low,
      digest: keccak256('0x02'),
    })
    const signature = await custody.signMessage({ message: { raw: digest } })
    const encoded = transactionSignature(signature)
    expect(encoded).toBe(concat(['0x0001', '0x00', '0x01', signature, '0x02']))
    expect(
      await recoverMessageAddress({
        message: { raw: digest },
        signature: slice(encoded, 4, 69),
      }),
    ).toBe(custody.address)
  })

  test("behavior: the co-signer's part is flag 2, weight 1, the contract, length 0x43 and type 3", () => {
    const signature = `0x${'ab'.repeat(65)}02` as Hex
    const part = coSignerPart({ coSigner: high, signature })
    expect(encodeSignature({ threshold: 0, parts: [part] })).toBe(
      `0x00000201${high.slice(2).toLowerCase()}0043${signature.slice(2)}03`,
    )
  })

  test('behavior: parts go in ascending signer order, whatever order they come in', () => {
    const custodySignature = `0x${'aa'.repeat(65)}02` as Hex
    const coSignature = `0x${'bb'.repeat(65)}02` as Hex
    const user = `0001${custodySignature.slice(2)}`
    const co = `0201${high.slice(2).toLowerCase()}0043${coSignature.slice(2)}03`
    const sign = (custody: Hex) =>
      playerWalletSignature({
        custody,
        custodySignature,
        coSigner: high,
        coSignature,
      })
    expect(sign(low)).toBe(`0x0002${user}${co}`)
    expect(sign('0xffFfFFFfFfFfffFfFFFFfFfFFffFfFfFFfFfFfFF')).toBe(
      `0x0002${co}${user}`,
    )
    const a: SignedPart = {
      address: low,
      part: custodyPart(slice(custodySignature, 0, 65)),
    }
    const b: SignedPart = {
      address: high,
      part: { type: 'address', weight: 1, address: high },
    }
    expect(encodeSignedParts(2, [b, a])).toBe(encodeSignedParts(2, [a, b]))
  })
})

describe('wallet configurations', () => {
  test('behavior: the image hash is h = threshold, then keccak256(h ‖ weight ‖ address) per signer in ascending order', () => {
    const first = keccak256(`0x${wordOf(3)}${wordOf(2)}${word(low)}`)
    const expected = keccak256(`${first}${wordOf(1)}${word(high)}`)
    const signers = [
      { weight: 1, address: high },
      { weight: 2, address: low },
    ] as const
    expect(imageHash({ threshold: 3, signers })).toBe(expected)
    expect(imageHash({ threshold: 3, signers: [...signers].reverse() })).toBe(
      expected,
    )
    expect(imageHash({ threshold: 2, signers })).not.toBe(expected)
  })

  test('behavior: signers are checksummed and sorted by numeric address', () => {
    expect(
      sortSigners({
        threshold: 1,
        signers: [
          { weight: 1, address: high.toLowerCase() as Hex },
          { weight: 0, address: low },
        ],
      }),
    ).toEqual([
      { weight: 0, address: getAddress(low) },
      { weight: 1, address: getAddress(high) },
    ])
  })

  test('error: configurations the contracts could not use', () => {
    const refused = (
      config: Parameters<typeof imageHash>[0],
      message: string,
    ) =>
      expect(() => imageHash(config)).toThrow(
        new InvalidWalletConfigError(message),
      )
    const one = [{ weight: 1, address: low }] as const
    for (const threshold of [0, 65_536, 1.5, Number.NaN])
      refused(
        { threshold, signers: one },
        `The threshold ${threshold} is not an integer from 1 to 65535.`,
      )
    refused(
      { threshold: 1, signers: [] },
      'A wallet configuration needs at least one signer.',
    )
    refused(
      {
        threshold: 1,
        signers: [
          { weight: 1, address: high },
          { weight: 1, address: high.toLowerCase() as Hex },
        ],
      },
      `${getAddress(high)} is a signer twice.`,
    )
    for (const weight of [256, -1, 0.5])
      refused(
        { threshold: 1, signers: [{ weight, address: low }] },
        `The weight of ${low} is ${weight}, not an integer from 0 to 255.`,
      )
    refused(
      { threshold: 1, signers: [{ weight: 1, address: '0x1234' }] },
      '0x1234 is not an address.',
    )
    refused(
      {
        threshold: 4,
        signers: [
          { weight: 1, address: low },
          { weight: 2, address: high },
        ],
      },
      "The signers' weights add up to 3, below the threshold 4.",
    )
  })

  test('default: the game wallet is {custody w1, co-signer w1}, threshold 2', () => {
    expect(playerWalletConfig({ custody: low, coSigner: high })).toEqual({
      threshold: 2,
      signers: [
        { weight: 1, address: low },
        { weight: 1, address: high },
      ],
    })
  })
})

describe('counterfactual addresses', () => {
  const { factory, mainModule } = vectors.contracts

  test('default: init code is the Wallet.sol creation code then uint256(mainModule)', () => {
    expect(walletCreationCode).toBe(
      '0x603a600e3d39601a805130553df3363d3d373d3d3d363d30545af43d82803e903d91601857fd5bf3',
    )
    expect(walletInitCode(mainModule)).toBe(
      `${walletCreationCode}${word(mainModule)}`,
    )
  })

  test('behavior: the CREATE2 address from the factory, salt = image hash', () => {
    const salt = imageHash({
      threshold: 1,
      signers: [{ weight: 1, address: low }],
    })
    const codeHash = keccak256(walletInitCode(mainModule))
    const preimage = `0xff${factory.slice(2)}${salt.slice(2)}${codeHash.slice(2)}`
    expect(
      counterfactualAddress({ factory, mainModule, imageHash: salt }),
    ).toBe(getAddress(`0x${keccak256(preimage as Hex).slice(-40)}`))
    expect(
      counterfactualAddress({ factory, mainModule: factory, imageHash: salt }),
    ).not.toBe(counterfactualAddress({ factory, mainModule, imageHash: salt }))
  })

  test('behavior: deploy-and-execute is the guest module’s execute of [Factory.deploy, wallet.execute]', () => {
    const config = playerWalletConfig({ custody: low, coSigner: high })
    const execute = { transactions, nonce: 0n, signature: '0x0002' } as const
    const guest = decodeExecute(
      encodeDeployAndExecute({ contracts: vectors.contracts, config, execute }),
    )
    expect(guest.nonce).toBe(0n)
    expect(guest.signature).toBe('0x')
    expect(guest.transactions).toEqual([
      metaTransaction({
        to: factory,
        data: encodeDeploy({ mainModule, imageHash: imageHash(config) }),
      }),
      metaTransaction({
        to: playerWalletAddress({
          custody: low,
          contracts: { ...vectors.contracts, coSigner: high },
        }),
        data: encodeExecute(execute),
      }),
    ])
  })
})

describe('ERC-6492', () => {
  const { factory, mainModule } = vectors.contracts
  const salt = keccak256('0x06')
  const signature = '0x0002abcdef' as const

  test('behavior: wrapping as viem parses it, and back', () => {
    const wrapped = wrapErc6492({
      factory,
      mainModule,
      imageHash: salt,
      signature,
    })
    expect(slice(wrapped, -32)).toBe(`0x${'6492'.repeat(16)}`)
    expect(erc6492MagicBytes).toBe(`0x${'6492'.repeat(16)}`)
    const calldata = encodeFunctionData({
      abi: factoryAbi,
      functionName: 'deploy',
      args: [mainModule, salt],
    })
    expect(parseErc6492Signature(wrapped)).toEqual({
      address: factory,
      data: calldata,
      signature,
    })
    expect(unwrapErc6492(wrapped)).toEqual({ factory, calldata, signature })
  })

  test('behavior: a signature without the suffix is not wrapped', () => {
    expect(unwrapErc6492(signature)).toBeUndefined()
    expect(unwrapErc6492(vectors.messageSignature)).toBeUndefined()
    expect(unwrapErc6492(vectors.erc6492Signature)?.signature).toBe(
      vectors.messageSignature,
    )
  })

  test('error: the suffix on bytes that do not decode', () => {
    expect(() =>
      unwrapErc6492(concat([numberToHex(1, { size: 32 }), erc6492MagicBytes])),
    ).toThrow(
      new InvalidWalletSignatureError(
        'The ERC-6492 signature does not decode.',
      ),
    )
  })
})
