import {
  type Abi,
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  getContractAddress,
  type Hex,
  http,
} from 'viem'
import { anvil } from 'viem/chains'
import { BaseError } from '../../core/Errors.js'
import { coSignerKey, deployer } from './accounts.js'
import * as Artifacts from './artifacts.generated.js'

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
  /** Our faucet `TestERC20`. */
  erc20: Address
  /** Our `TestERC721`. */
  erc721: Address
  /** Our `TestERC1155`. */
  erc1155: Address
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
}

/**
 * The order {@link deployContracts} deploys in, one transaction each from
 * the deployer (Anvil account 0). Never reorder: the addresses on a fresh
 * chain follow from it.
 */
export const deployOrder = [
  'factory',
  'mainModule',
  'mainModuleUpgradable',
  'guestModule',
  'sequenceUtils',
  'erc20',
  'erc721',
  'erc1155',
  'sponsoredCallDelegate',
  'coSigner',
] as const satisfies readonly (keyof Contracts)[]

/**
 * The addresses {@link deployContracts} gives on a chain where `from` has
 * sent no transaction yet (CREATE addresses of nonces 0 to 9).
 *
 * @example
 * predictContracts().factory // the factory on a fresh Anvil
 */
export function predictContracts(from: Address = deployer.address): Contracts {
  const contracts = {} as Contracts
  deployOrder.forEach((name, nonce) => {
    contracts[name] = getContractAddress({ from, nonce: BigInt(nonce) })
  })
  return contracts
}

/**
 * Deploys the Sequence v1 wallet contracts, our test tokens, the
 * sponsored-call delegate and the game wallet's co-signer from the
 * deployer account (Anvil account 0), in {@link deployOrder}, waiting for
 * each receipt. On a fresh chain the addresses are always
 * {@link predictContracts}`()`.
 *
 * @throws {DeployError} naming the contract whose deployment failed.
 *
 * @example
 * const anvil = await startAnvil({ port: await findFreePort() })
 * const contracts = await deployContracts({ rpcUrl: anvil.rpcUrl })
 */
export async function deployContracts(
  options: deployContracts.Options,
): Promise<deployContracts.ReturnType> {
  const { rpcUrl } = options
  const transport = http(rpcUrl)
  const chainId =
    options.chainId ??
    (await createPublicClient({ transport })
      .getChainId()
      .catch((error: unknown) => {
        throw new DeployError(`Cannot reach ${rpcUrl}.`, error)
      }))
  const chain: Chain = defineChain({
    ...anvil,
    id: chainId,
    rpcUrls: { default: { http: [rpcUrl] } },
  })
  const client = createWalletClient({
    account: deployer,
    chain,
    transport,
    pollingInterval: 50,
  })
  const publicClient = createPublicClient({
    chain,
    transport,
    pollingInterval: 50,
  })

  const deploy = async (
    name: keyof Contracts,
    artifact: { abi: Abi; bytecode: Hex },
    args: readonly unknown[] = [],
  ): Promise<Address> => {
    try {
      const hash = await client.deployContract({
        abi: artifact.abi,
        bytecode: artifact.bytecode,
        args,
      })
      const receipt = await publicClient.waitForTransactionReceipt({ hash })
      if (receipt.status !== 'success' || !receipt.contractAddress)
        throw new Error(`Transaction ${hash} reverted.`)
      const code = await publicClient.getCode({
        address: receipt.contractAddress,
      })
      if (!code || code === '0x')
        throw new Error(`No code at ${receipt.contractAddress}.`)
      return getAddress(receipt.contractAddress)
    } catch (error) {
      throw new DeployError(`Cannot deploy ${name} to ${rpcUrl}.`, error)
    }
  }

  const factory = await deploy('factory', Artifacts.Factory)
  const mainModule = await deploy('mainModule', Artifacts.MainModule, [factory])
  const mainModuleUpgradable = await deploy(
    'mainModuleUpgradable',
    Artifacts.MainModuleUpgradable,
  )
  const guestModule = await deploy('guestModule', Artifacts.GuestModule)
  const sequenceUtils = await deploy('sequenceUtils', Artifacts.SequenceUtils, [
    factory,
    mainModule,
  ])
  const erc20 = await deploy('erc20', Artifacts.TestERC20)
  const erc721 = await deploy('erc721', Artifacts.TestERC721)
  const erc1155 = await deploy('erc1155', Artifacts.TestERC1155)
  const sponsoredCallDelegate = await deploy(
    'sponsoredCallDelegate',
    Artifacts.SponsoredCallDelegate,
  )
  const coSigner = await deploy('coSigner', Artifacts.CoSigner, [
    coSignerKey.address,
  ])
  return {
    factory,
    mainModule,
    mainModuleUpgradable,
    guestModule,
    sequenceUtils,
    erc20,
    erc721,
    erc1155,
    sponsoredCallDelegate,
    coSigner,
  }
}

export declare namespace deployContracts {
  type Options = {
    /** JSON-RPC endpoint of the chain (an Anvil node). */
    rpcUrl: string
    /** The chain's id; asked from the node when left out. */
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
