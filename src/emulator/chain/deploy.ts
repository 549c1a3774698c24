import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  type Hash,
  type Hex,
  http,
  numberToHex,
  type PublicClient,
  parseGwei,
  stringToHex,
  type TransactionReceipt,
} from 'viem'
import { BaseError } from '../../core/Errors.js'
import { coSignerKey, deployer, minter, zoneSigner } from './accounts.js'
import * as Artifacts from './artifacts.generated.js'
import * as Platform from './platformArtifacts.generated.js'
import { signedZoneName } from './seaport.js'

/** Checksummed addresses of the contracts {@link deployContracts} deploys. */
export type Contracts = {
  /** Sequence v1 `Factory`. */
  factory: Address
  /** Sequence v1 `MainModule` (built for {@link Contracts.factory}). */
  mainModule: Address
  /** Sequence v1 `MainModuleUpgradable`. */
  mainModuleUpgradable: Address
  /** Sequence v1 `GuestModule`. */
  guestModule: Address
  /** Sequence v1 `SequenceUtils` (for the factory and main module). */
  sequenceUtils: Address
  /** Our faucet `TestERC20`: anyone mints. */
  erc20: Address
  /** Our `TestERC721`: anyone mints. */
  testErc721: Address
  /** Our `TestERC1155`: anyone mints. */
  testErc1155: Address
  /**
   * Our `SponsoredCallDelegate`: the EIP-7702 delegate that gasless
   * transactions run through (the account signs, a sponsor pays the gas).
   */
  sponsoredCallDelegate: Address
  /**
   * Our `CoSigner`: the game wallet's second signer, an ERC-1271 contract
   * accepting signatures of {@link coSignerKey}.
   */
  coSigner: Address
  /** Seaport's `ConduitController`, which the seaport reads at deployment. */
  conduitController: Address
  /**
   * Immutable's `ImmutableSeaport` (EIP-712 domain `ImmutableSeaport`,
   * version `1.5`), owned by the deployer, with {@link Contracts.signedZone}
   * allowed.
   */
  seaport: Address
  /**
   * Immutable's `ImmutableSignedZoneV2` (EIP-712 domain
   * {@link signedZoneName}, version `2.0`), owned by the deployer, whose one
   * signer is {@link zoneSigner}.
   */
  signedZone: Address
  /**
   * Immutable's `OperatorAllowlistUpgradeable` behind an ERC-1967 proxy:
   * the collections ask it which contracts may hold or move their tokens.
   * It allows the seaport; the deployer administers it, and the deployer
   * and the {@link minter} are its registrars.
   */
  operatorAllowlist: Address
  /**
   * Immutable's `ImmutableERC721V2` collection ({@link collections}),
   * owned by the deployer, minted by the {@link minter}.
   */
  erc721: Address
  /**
   * Immutable's `ImmutableERC1155` collection ({@link collections}), owned
   * by the deployer, minted by the {@link minter}.
   */
  erc1155: Address
}

/** The names of the collections the emulator deploys for the minting API. */
export const collections = {
  erc721: { name: 'Emulator ERC-721', symbol: 'EMU721' },
  erc1155: { name: 'Emulator ERC-1155' },
} as const

/** `bytes32("ZONE_MANAGER")`: the signed zone's role that adds signers. */
const zoneManagerRole = stringToHex('ZONE_MANAGER', { size: 32 })

/** `bytes32("REGISTRAR_ROLE")`: the allowlist's role that adds entries. */
const registrarRole = stringToHex('REGISTRAR_ROLE', { size: 32 })

/** A contract creation of the deployment. */
type Creation = {
  kind: 'create'
  /** The contract's key in {@link Contracts}, or a name of its own. */
  name: keyof Contracts | 'operatorAllowlistImplementation'
  artifact: { abi: Abi; bytecode: Hex }
  args: (addresses: Record<string, Address>) => readonly unknown[]
}

/** A call of the deployment, to a contract created before it. */
type Call = {
  kind: 'call'
  /** `<contract>.<function>`, for errors. */
  name: string
  to: keyof Contracts
  abi: Abi
  functionName: string
  args: (addresses: Record<string, Address>) => readonly unknown[]
}

/**
 * Every transaction of the deployment, in nonce order from the deployer
 * (Anvil account 0). Never reorder or insert before the end: the
 * addresses on a fresh chain follow from the nonces.
 */
const steps: readonly (Creation | Call)[] = [
  create('factory', Artifacts.Factory),
  create('mainModule', Artifacts.MainModule, (a) => [a.factory]),
  create('mainModuleUpgradable', Artifacts.MainModuleUpgradable),
  create('guestModule', Artifacts.GuestModule),
  create('sequenceUtils', Artifacts.SequenceUtils, (a) => [
    a.factory,
    a.mainModule,
  ]),
  create('erc20', Artifacts.TestERC20),
  create('testErc721', Artifacts.TestERC721),
  create('testErc1155', Artifacts.TestERC1155),
  create('sponsoredCallDelegate', Artifacts.SponsoredCallDelegate),
  create('coSigner', Artifacts.CoSigner, () => [coSignerKey.address]),
  // The order book: Immutable's seaport and signed zone, as Immutable
  // deploys them (owner set in the constructor, signer added by a zone
  // manager, zone allowed on the seaport).
  create('conduitController', Platform.ConduitController),
  create('seaport', Platform.ImmutableSeaport, (a) => [
    a.conduitController,
    deployer.address,
  ]),
  create('signedZone', Platform.ImmutableSignedZoneV2, () => [
    signedZoneName,
    '',
    '',
    deployer.address,
  ]),
  call('signedZone', Platform.ImmutableSignedZoneV2, 'grantRole', () => [
    zoneManagerRole,
    deployer.address,
  ]),
  call('signedZone', Platform.ImmutableSignedZoneV2, 'addSigner', () => [
    zoneSigner.address,
  ]),
  call('seaport', Platform.ImmutableSeaport, 'setAllowedZone', (a) => [
    a.signedZone,
    true,
  ]),
  // The operator allowlist the presets require, behind its UUPS proxy,
  // allowing the seaport to move the collections' tokens.
  create('operatorAllowlistImplementation', {
    abi: Platform.OperatorAllowlistUpgradeable.abi,
    bytecode: Platform.OperatorAllowlistUpgradeable.bytecode,
  }),
  create('operatorAllowlist', Platform.ERC1967Proxy, (a) => [
    a.operatorAllowlistImplementation,
    encodeFunctionData({
      abi: Platform.OperatorAllowlistUpgradeable.abi,
      functionName: 'initialize',
      args: [deployer.address, deployer.address, deployer.address],
    }),
  ]),
  call(
    'operatorAllowlist',
    Platform.OperatorAllowlistUpgradeable,
    'addAddressesToAllowlist',
    (a) => [[a.seaport]],
  ),
  call(
    'operatorAllowlist',
    Platform.OperatorAllowlistUpgradeable,
    'grantRole',
    () => [registrarRole, minter.address],
  ),
  // The collections the minting API mints on.
  create('erc721', Platform.ImmutableERC721V2, (a) => [
    deployer.address,
    collections.erc721.name,
    collections.erc721.symbol,
    '',
    '',
    a.operatorAllowlist,
    deployer.address,
    0n,
  ]),
  call('erc721', Platform.ImmutableERC721V2, 'grantMinterRole', () => [
    minter.address,
  ]),
  create('erc1155', Platform.ImmutableERC1155, (a) => [
    deployer.address,
    collections.erc1155.name,
    '',
    '',
    a.operatorAllowlist,
    deployer.address,
    0n,
  ]),
  call('erc1155', Platform.ImmutableERC1155, 'grantMinterRole', () => [
    minter.address,
  ]),
]

/** The keys of {@link Contracts}, in the order they are deployed. */
export const deployOrder = steps.flatMap((step) =>
  step.kind === 'create' && step.name !== 'operatorAllowlistImplementation'
    ? [step.name]
    : [],
) as readonly (keyof Contracts)[]

/**
 * Gas of each creation: above the most any of them uses (the seaport's
 * 24 KiB of runtime code), below the per-transaction cap of EIP-7825.
 * Limits are set rather than estimated because a step's estimate would
 * need the contracts of the steps before it on chain.
 */
const creationGas = 16_000_000n

/** Gas of each call: the role and allowlist calls use well under it. */
const callGas = 500_000n

/**
 * The addresses {@link deployContracts} gives on a chain where `from` has
 * sent no transaction yet (CREATE addresses of its nonces).
 *
 * @example
 * predictContracts().factory // the factory on a fresh Anvil
 */
export function predictContracts(from: Address = deployer.address): Contracts {
  return predictAll(from, 0n).contracts
}

/** Every created address, by step name, for nonces from `base`. */
function predictAll(
  from: Address,
  base: bigint,
): { contracts: Contracts; all: Record<string, Address> } {
  const all: Record<string, Address> = {}
  steps.forEach((step, index) => {
    if (step.kind === 'create')
      all[step.name] = getContractAddress({ from, nonce: base + BigInt(index) })
  })
  const contracts = {} as Contracts
  for (const name of deployOrder) contracts[name] = all[name] as Address
  return { contracts, all }
}

/**
 * Deploys the Sequence v1 wallet contracts, our test tokens, the
 * sponsored-call delegate, the game wallet's co-signer, and the platform's
 * contracts (Immutable's seaport and signed zone, its operator allowlist
 * and the two collections) from the deployer account (Anvil account 0),
 * and sets their roles. Every transaction goes with its nonce, without
 * waiting for the one before to be mined; then every receipt is checked. On a fresh chain the addresses are
 * always {@link predictContracts}`()`.
 *
 * @throws {DeployError} naming the first step that failed.
 *
 * @example
 * const anvil = await startAnvil({ port: await findFreePort() })
 * const contracts = await deployContracts({ rpcUrl: anvil.rpcUrl })
 */
export async function deployContracts(
  options: deployContracts.Options,
): Promise<deployContracts.ReturnType> {
  const { rpcUrl } = options
  const transport = http(rpcUrl, { batch: true })
  const client: PublicClient = createPublicClient({ transport })
  const node = createWalletClient({ transport })
  let nonce: number
  let block: { baseFeePerGas: bigint | null }
  try {
    ;[nonce, block] = await Promise.all([
      client.getTransactionCount({
        address: deployer.address,
        blockTag: 'pending',
      }),
      client.getBlock({ blockTag: 'latest' }),
    ])
  } catch (error) {
    throw new DeployError(`Cannot reach ${rpcUrl}.`, error)
  }
  // Anvil's base fee only falls while the deployment's blocks are less
  // than half full, so twice today's covers every block.
  const maxPriorityFeePerGas = parseGwei('1')
  const maxFeePerGas = (block.baseFeePerGas ?? 0n) * 2n + maxPriorityFeePerGas
  const { contracts, all } = predictAll(deployer.address, BigInt(nonce))

  // Anvil signs: the deployer is its first dev account (the keys of
  // accounts.ts), and signing the deployment's init code in
  // JavaScript would take longer than the rest of the deployment. Sent one
  // after the other: Anvil handles the requests of a batch concurrently,
  // and a transaction that reached its pool ahead of its nonce was seen to
  // get lost.
  const hashes: Hash[] = []
  for (const [index, step] of steps.entries()) {
    const common = {
      from: deployer.address,
      nonce: numberToHex(nonce + index),
      maxFeePerGas: numberToHex(maxFeePerGas),
      maxPriorityFeePerGas: numberToHex(maxPriorityFeePerGas),
      ...(options.chainId === undefined
        ? {}
        : { chainId: numberToHex(options.chainId) }),
    }
    const request =
      step.kind === 'create'
        ? {
            ...common,
            gas: numberToHex(creationGas),
            data: encodeDeployData({
              abi: step.artifact.abi,
              bytecode: step.artifact.bytecode,
              args: step.args(all),
            }),
          }
        : {
            ...common,
            gas: numberToHex(callGas),
            to: all[step.to] as Address,
            data: encodeFunctionData({
              abi: step.abi,
              functionName: step.functionName,
              args: step.args(all),
            }),
          }
    try {
      hashes.push(
        await node.request({
          method: 'eth_sendTransaction',
          params: [request],
        }),
      )
    } catch (error) {
      throw new DeployError(`Cannot send ${step.name} to ${rpcUrl}.`, error)
    }
  }
  const receipts = await receiptsOf(client, hashes, rpcUrl)
  steps.forEach((step, index) => {
    const receipt = receipts[index]
    const what = step.name
    if (receipt?.status !== 'success')
      throw new DeployError(
        `Cannot deploy ${what} to ${rpcUrl}.`,
        new Error(`Transaction ${hashes[index]} reverted.`),
      )
    if (
      step.kind === 'create' &&
      (!receipt.contractAddress ||
        getAddress(receipt.contractAddress) !== all[step.name])
    )
      throw new DeployError(
        `Cannot deploy ${what} to ${rpcUrl}.`,
        new Error(
          `Created ${receipt.contractAddress}, expected ${all[step.name]}.`,
        ),
      )
  })
  return contracts
}

/**
 * The receipts of `hashes`, mining a block while some are missing. Anvil
 * mines a block when a transaction arrives, with what of its pool fits
 * the block's gas limit: what did not fit when the last one arrived waits
 * for a block that only `evm_mine` brings.
 */
async function receiptsOf(
  client: PublicClient,
  hashes: readonly Hash[],
  rpcUrl: string,
): Promise<TransactionReceipt[]> {
  for (let round = 0; ; round++) {
    const receipts = await Promise.all(
      hashes.map((hash) =>
        client.getTransactionReceipt({ hash }).catch(() => undefined),
      ),
    )
    const missing = hashes.filter((_, index) => !receipts[index])
    if (missing.length === 0) return receipts as TransactionReceipt[]
    if (round >= hashes.length)
      throw new DeployError(
        `Cannot deploy to ${rpcUrl}.`,
        new Error(`Transactions ${missing.join(', ')} were not mined.`),
      )
    try {
      await client.request({ method: 'evm_mine' } as never)
    } catch (error) {
      throw new DeployError(`Cannot mine a block on ${rpcUrl}.`, error)
    }
  }
}

export declare namespace deployContracts {
  type Options = {
    /** JSON-RPC endpoint of the chain (an Anvil node). */
    rpcUrl: string
    /** The chain's id: the node refuses the deployment on another chain. */
    chainId?: number | undefined
  }
  type ReturnType = Contracts
}

/** A deployment transaction failed, or the node could not be reached. */
export class DeployError extends BaseError<Error | undefined> {
  override readonly name = 'Deploy.DeployError'
  constructor(shortMessage: string, cause: unknown) {
    super(shortMessage, {
      cause: cause instanceof Error ? cause : undefined,
      details: cause instanceof Error ? undefined : String(cause),
    })
  }
}

function create(
  name: Creation['name'],
  artifact: { abi: Abi; bytecode: Hex },
  args: Creation['args'] = () => [],
): Creation {
  return { kind: 'create', name, artifact, args }
}

function call(
  to: keyof Contracts,
  artifact: { abi: Abi },
  functionName: string,
  args: Call['args'],
): Call {
  return {
    kind: 'call',
    name: `${to}.${functionName}`,
    to,
    abi: artifact.abi,
    functionName,
    args,
  }
}
