/**
 * The codec's known vectors (`src/passport/wire/_test/sequenceVectors.ts`)
 * against the deployed Sequence v1 contracts: the factory deploys the
 * wallet at the computed address, the contracts rebuild the same image hash
 * and sub-digest, and the wallet accepts the encoded signatures, wrapped
 * per ERC-6492 before it exists and through ERC-1271 after. Everything runs
 * as a call or a simulation, so the vectors' wallet is never deployed and
 * the file runs again on the same chain.
 */
import {
  decodeEventLog,
  type Hex,
  hashMessage,
  keccak256,
  parseAbi,
  parseEventLogs,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, inject, test } from 'vitest'
import { coSignerKey } from '../../src/emulator/chain/accounts.js'
import {
  MainModule,
  SequenceUtils,
} from '../../src/emulator/chain/artifacts.generated.js'
import { vectors } from '../../src/passport/wire/_test/sequenceVectors.js'
import {
  encodeDeployAndExecute,
  factoryAbi,
  playerWalletConfig,
  sortSigners,
  walletAbi,
  walletInitCode,
} from '../../src/passport/wire/sequence.js'
import { getClients } from './clients.js'
import { randomAccount } from './wallets.js'

const contracts = inject('contracts')
const chainId = inject('chainId')
const { publicClient } = getClients()
const { factory, mainModule, guestModule, sequenceUtils, coSigner } =
  vectors.contracts
const config = playerWalletConfig({ custody: vectors.custody, coSigner })
const erc1271 = parseAbi([
  'function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)',
])
/** ERC-1271's answer for a valid signature. */
const magicValue = '0x1626ba7e'

describe('the codec on the Sequence v1 contracts', () => {
  test('default: the chain is the one the vectors were made for', async () => {
    expect(chainId).toBe(vectors.chainId)
    expect({
      factory: contracts.factory,
      mainModule: contracts.mainModule,
      guestModule: contracts.guestModule,
      sequenceUtils: contracts.sequenceUtils,
      coSigner: contracts.coSigner,
    }).toEqual(vectors.contracts)
    expect(privateKeyToAccount(vectors.coSignerKey).address).toBe(
      coSignerKey.address,
    )
    expect(await publicClient.getCode({ address: vectors.wallet })).toBe(
      undefined,
    )
  })

  test('behavior: the factory creates the wallet at its counterfactual address', async () => {
    const { result } = await publicClient.simulateContract({
      account: randomAccount(),
      address: factory,
      abi: factoryAbi,
      functionName: 'deploy',
      args: [mainModule, vectors.imageHash],
    })
    expect(result).toBe(vectors.wallet)
    const read = (functionName: 'INIT_CODE_HASH' | 'FACTORY') =>
      publicClient.readContract({
        address: mainModule,
        abi: MainModule.abi,
        functionName,
      })
    // The main module checks signatures against this same CREATE2.
    expect(await read('FACTORY')).toBe(factory)
    expect(await read('INIT_CODE_HASH')).toBe(
      keccak256(walletInitCode(mainModule)),
    )
  })

  test('behavior: the contracts rebuild the image hash from the signers', async () => {
    const publish = (threshold: bigint, weights: readonly bigint[]) =>
      publicClient.simulateCalls({
        account: randomAccount().address,
        calls: [
          {
            to: sequenceUtils,
            abi: SequenceUtils.abi,
            functionName: 'publishConfig',
            args: [
              vectors.wallet,
              threshold,
              sortSigners(config).map(({ address }, i) => ({
                weight: weights[i]!,
                signer: address,
              })),
              false,
            ],
          },
        ],
      })
    const { results } = await publish(2n, [1n, 1n])
    expect(results[0]!.status).toBe('success')
    const [published] = parseEventLogs({
      abi: SequenceUtils.abi,
      eventName: 'RequiredConfig',
      logs: results[0]!.logs ?? [],
    })
    expect(published?.args._imageHash).toBe(vectors.imageHash)
    // Another configuration is not this wallet's.
    const other = await publish(2n, [1n, 2n])
    expect(other.results[0]!.status).toBe('failure')
  })

  test('behavior: an ERC-6492 signature verifies before the wallet exists', async () => {
    const verify = (message: string, signature: Hex) =>
      publicClient.verifyHash({
        address: vectors.wallet,
        hash: hashMessage(message),
        signature,
      })
    expect(await verify(vectors.message, vectors.erc6492Signature)).toBe(true)
    expect(await verify('another message', vectors.erc6492Signature)).toBe(
      false,
    )
  })

  test('behavior: deployed and run by the guest module, the wallet signs over the same sub-digest and accepts the 2-of-2 signature', async () => {
    const isValid = (signature: Hex) =>
      ({
        to: vectors.wallet,
        abi: erc1271,
        functionName: 'isValidSignature',
        args: [hashMessage(vectors.message), signature],
      }) as const
    const readNonce = (space: bigint) =>
      ({
        to: vectors.wallet,
        abi: walletAbi,
        functionName: 'readNonce',
        args: [space],
      }) as const
    const { results } = await publicClient.simulateCalls({
      account: randomAccount().address,
      calls: [
        {
          to: guestModule,
          data: encodeDeployAndExecute({
            contracts: vectors.contracts,
            config,
            execute: {
              transactions: vectors.transactions,
              nonce: vectors.nonce,
              signature: vectors.executeSignature,
            },
          }),
        },
        readNonce(1n),
        readNonce(0n),
        isValid(vectors.messageSignature),
        // The player's part alone, as a client sends it, is not the wallet's.
        isValid(vectors.transactionSignature),
      ],
    })
    const [run, space1, space0, full, userOnly] = results
    expect(run!.status).toBe('success')
    const walletLogs = (run!.logs ?? []).filter(
      (log) => log.address.toLowerCase() === vectors.wallet.toLowerCase(),
    )
    expect(walletLogs).toHaveLength(2)
    const [nonceChange, executed] = walletLogs
    expect(decodeEventLog({ abi: MainModule.abi, ...nonceChange! })).toEqual({
      eventName: 'NonceChange',
      args: { _space: 1n, _newNonce: 1n },
    })
    // `TxExecuted(bytes32 _tx)` is anonymous: no topic, the hash as data.
    expect(executed!.topics).toEqual([])
    expect(executed!.data).toBe(vectors.subDigest)
    expect(space1!.result).toBe(1n)
    expect(space0!.result).toBe(0n)
    expect(full!.result).toBe(magicValue)
    expect(userOnly!.result).not.toBe(magicValue)
  })
})
