import {
  type Address,
  encodeFunctionData,
  type Hex,
  pad,
  parseEther,
} from 'viem'
import { describe, expect, inject, test } from 'vitest'
import {
  Factory,
  GuestModule,
  MainModule,
  TestERC20,
} from '../../src/emulator/chain/artifacts.generated.js'
import { signExecute } from '../../src/emulator/chain/sequence.js'
import {
  counterfactualAddress,
  imageHash,
  metaTransaction,
} from '../../src/passport/wire/sequence.js'
import { getClients } from './clients.js'
import {
  deployWallet,
  execute,
  fundedWallet,
  proxyRuntime,
  randomAccount,
} from './wallets.js'

const contracts = inject('contracts')
const chainId = inject('chainId')
const { publicClient, walletClient, fundedAccount } = getClients()

describe('counterfactual address', () => {
  test('threshold 1, one signer: Factory.deploy creates the wallet at the computed address', async () => {
    const signer = randomAccount()
    const wallet = await deployWallet({
      threshold: 1,
      signers: [{ weight: 1, address: signer.address }],
    })
    expect(await publicClient.getCode({ address: wallet })).toBe(proxyRuntime)
    // The proxy keeps its implementation in the slot named by its address.
    expect(
      await publicClient.getStorageAt({
        address: wallet,
        slot: pad(wallet.toLowerCase() as Hex),
      }),
    ).toBe(pad(contracts.mainModule.toLowerCase() as Hex))
  })

  test('threshold 2, two signers given out of order: same address as in order', async () => {
    const [a, b] = [randomAccount(), randomAccount()]
    const signers = [
      { weight: 1, address: a.address },
      { weight: 1, address: b.address },
    ]
    const config = { threshold: 2, signers: [...signers].reverse() }
    const inOrder = counterfactualAddress({
      factory: contracts.factory,
      mainModule: contracts.mainModule,
      imageHash: imageHash({ threshold: 2, signers }),
    })
    const wallet = await deployWallet(config)
    expect(wallet).toBe(inOrder)
    expect(await publicClient.getCode({ address: wallet })).toBe(proxyRuntime)
  })
})

describe('deployed wallet', () => {
  const readNonce = (wallet: Address) =>
    publicClient.readContract({
      address: wallet,
      abi: MainModule.abi,
      functionName: 'readNonce',
      args: [0n],
    })
  const erc20Balance = (address: Address) =>
    publicClient.readContract({
      address: contracts.erc20,
      abi: TestERC20.abi,
      functionName: 'balanceOf',
      args: [address],
    })

  test('executes a batch signed by its one signer, sent by a relayer', async () => {
    const signer = randomAccount()
    const config = {
      threshold: 1,
      signers: [{ weight: 1, address: signer.address }],
    }
    const { wallet, recipient, txs } = await fundedWallet(config)
    expect(await readNonce(wallet)).toBe(0n)

    const signature = await signExecute({
      chainId,
      wallet,
      nonce: 0n,
      transactions: txs,
      threshold: 1,
      signers: [{ weight: 1, address: signer.address, account: signer }],
    })
    expect(signature.length).toBe(2 + 2 * (2 + 2 + 66))
    const receipt = await execute(wallet, txs, signature)
    expect(receipt.status).toBe('success')

    expect(await erc20Balance(recipient)).toBe(parseEther('30'))
    expect(await erc20Balance(wallet)).toBe(parseEther('70'))
    expect(await publicClient.getBalance({ address: recipient })).toBe(
      parseEther('1.5'),
    )
    expect(await publicClient.getBalance({ address: wallet })).toBe(
      parseEther('3.5'),
    )
    expect(await readNonce(wallet)).toBe(1n)
  })

  test('rejects a batch signed by someone else', async () => {
    const signer = randomAccount()
    const intruder = randomAccount()
    const { wallet, recipient, txs } = await fundedWallet({
      threshold: 1,
      signers: [{ weight: 1, address: signer.address }],
    })
    // The intruder signs with the weight the real signer has.
    const signature = await signExecute({
      chainId,
      wallet,
      nonce: 0n,
      transactions: txs,
      threshold: 1,
      signers: [{ weight: 1, address: intruder.address, account: intruder }],
    })
    await expect(execute(wallet, txs, signature)).rejects.toThrow(
      'ModuleCalls#execute: INVALID_SIGNATURE',
    )
    expect(await erc20Balance(recipient)).toBe(0n)
    expect(await readNonce(wallet)).toBe(0n)
  })

  test('threshold 2: executes with both signatures, rejects one', async () => {
    const [a, b] = [randomAccount(), randomAccount()]
    const config = {
      threshold: 2,
      signers: [
        { weight: 1, address: b.address },
        { weight: 1, address: a.address },
      ],
    }
    const { wallet, recipient, txs } = await fundedWallet(config)
    const sign = (accounts: { a?: typeof a; b?: typeof b }) =>
      signExecute({
        chainId,
        wallet,
        nonce: 0n,
        transactions: txs,
        threshold: 2,
        signers: [
          { weight: 1, address: a.address, ...(accounts.a && { account: a }) },
          { weight: 1, address: b.address, ...(accounts.b && { account: b }) },
        ],
      })

    await expect(execute(wallet, txs, await sign({ a }))).rejects.toThrow(
      'ModuleCalls#execute: INVALID_SIGNATURE',
    )
    const receipt = await execute(wallet, txs, await sign({ a, b }))
    expect(receipt.status).toBe('success')
    expect(await erc20Balance(recipient)).toBe(parseEther('30'))
    expect(await readNonce(wallet)).toBe(1n)
  })

  test('a relayer deploys and executes in one transaction through the guest module', async () => {
    const signer = randomAccount()
    const config = {
      threshold: 1,
      signers: [{ weight: 1, address: signer.address }],
    }
    const salt = imageHash(config)
    const wallet = counterfactualAddress({
      factory: contracts.factory,
      mainModule: contracts.mainModule,
      imageHash: salt,
    })
    // Fund the wallet before it exists: its address is known.
    const funder = await fundedAccount()
    await publicClient.waitForTransactionReceipt({
      hash: await walletClient(funder).sendTransaction({
        to: wallet,
        value: parseEther('2'),
      }),
    })
    const recipient = randomAccount().address
    const txs = [metaTransaction({ to: recipient, value: parseEther('0.25') })]
    const signature = await signExecute({
      chainId,
      wallet,
      nonce: 0n,
      transactions: txs,
      threshold: 1,
      signers: [{ weight: 1, address: signer.address, account: signer }],
    })
    const batch = [
      metaTransaction({
        to: contracts.factory,
        data: encodeFunctionData({
          abi: Factory.abi,
          functionName: 'deploy',
          args: [contracts.mainModule, salt],
        }),
      }),
      metaTransaction({
        to: wallet,
        data: encodeFunctionData({
          abi: MainModule.abi,
          functionName: 'execute',
          args: [txs, 0n, signature],
        }),
      }),
    ]
    const relayer = await fundedAccount()
    const hash = await walletClient(relayer).writeContract({
      address: contracts.guestModule,
      abi: GuestModule.abi,
      functionName: 'execute',
      args: [batch, 0n, '0x'],
      gas: 1_000_000n, // see deployWallet: estimates miss a silent CREATE2 failure
    })
    const receipt = await publicClient.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(await publicClient.getCode({ address: wallet })).toBe(proxyRuntime)
    expect(await publicClient.getBalance({ address: recipient })).toBe(
      parseEther('0.25'),
    )
    expect(await publicClient.getBalance({ address: wallet })).toBe(
      parseEther('1.75'),
    )
  })
})
