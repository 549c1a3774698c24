import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  generatedPath,
  type OwnContractName,
  ownArtifactPath,
  ownContracts,
  readSequenceArtifacts,
  readTokenArtifacts,
  renderArtifactsModule,
  repoRoot,
  type SequenceName,
  sequenceContracts,
  walletCreationCodeFromSource,
} from '../../../scripts/artifacts.js'
import * as Sequence from '../../passport/wire/sequence.js'
import {
  CoSigner,
  Factory,
  GuestModule,
  MainModule,
  MainModuleUpgradable,
  SequenceUtils,
  SponsoredCallDelegate,
  sequenceWalletContractsVersion,
  TestERC20,
  TestERC721,
  TestERC1155,
  walletCreationCode,
} from './artifacts.generated.js'

const generated = {
  CoSigner,
  Factory,
  GuestModule,
  MainModule,
  MainModuleUpgradable,
  SequenceUtils,
  SponsoredCallDelegate,
  TestERC20,
  TestERC721,
  TestERC1155,
}
const sequence = readSequenceArtifacts()
const sequenceNames = Object.keys(sequenceContracts) as SequenceName[]
const tokenNames = Object.keys(ownContracts) as OwnContractName[]
const tokensBuilt = tokenNames.every((name) =>
  existsSync(join(repoRoot, ownArtifactPath(name))),
)

describe('artifacts.generated.ts', () => {
  test('comes from @0xsequence/wallet-contracts 1.10.0', () => {
    expect(sequence.version).toBe('1.10.0')
    expect(sequenceWalletContractsVersion).toBe('1.10.0')
  })

  test.each(sequenceNames)(
    '%s matches the npm artifact (abi and bytecode)',
    (name) => {
      expect(generated[name].bytecode).toBe(sequence.artifacts[name].bytecode)
      expect(generated[name].abi).toEqual(sequence.artifacts[name].abi)
    },
  )

  test('walletCreationCode is the Wallet.sol constant', () => {
    expect(walletCreationCode).toBe(
      '0x603a600e3d39601a805130553df3363d3d373d3d3d363d30545af43d82803e903d91601857fd5bf3',
    )
    expect(walletCreationCode).toBe(sequence.walletCreationCode)
    // The codec's copy, which client and emulator compute addresses with.
    expect(Sequence.walletCreationCode).toBe(walletCreationCode)
    // The factory embeds the same creation code it deploys wallets with.
    expect(Factory.bytecode).toContain(walletCreationCode.slice(2))
  })

  test('the Wallet.sol parser reads the hex literal and rejects its absence', () => {
    expect(
      walletCreationCodeFromSource('bytes constant creationCode = hex"60AB";'),
    ).toBe('0x60ab')
    expect(() => walletCreationCodeFromSource('library Wallet {}')).toThrow(
      'no creationCode',
    )
  })

  test('our artifacts carry an ABI and creation bytecode: tokens mint, the delegate executes, the co-signer answers ERC-1271', () => {
    const entryPoint = (name: OwnContractName) =>
      name.startsWith('Test')
        ? 'mint'
        : name === 'CoSigner'
          ? 'isValidSignature'
          : 'execute'
    for (const name of tokenNames) {
      expect(generated[name].bytecode).toMatch(/^0x(?:[0-9a-f]{2})+$/)
      expect(
        generated[name].abi.some(
          (item) => item.type === 'function' && item.name === entryPoint(name),
        ),
      ).toBe(true)
    }
  })

  // contracts/out is not committed: it exists after `forge build`/`forge test`.
  test.skipIf(!tokensBuilt)(
    'matches contracts/out exactly (skipped when contracts/out has no token build: run `npx forge build`)',
    () => {
      const text = renderArtifactsModule({
        sequenceVersion: sequence.version,
        sequence: sequence.artifacts,
        tokens: readTokenArtifacts(),
        walletCreationCode: sequence.walletCreationCode,
      })
      expect(readFileSync(join(repoRoot, generatedPath), 'utf8')).toBe(text)
    },
  )
})
