import { expect, inject, test } from 'vitest'
import { coSignerKey, deployer } from '../../src/emulator/chain/accounts.js'
import {
  CoSigner,
  MainModule,
  TestERC20,
} from '../../src/emulator/chain/artifacts.generated.js'
import {
  deployOrder,
  predictContracts,
} from '../../src/emulator/chain/deploy.js'
import { getClients } from './clients.js'

const contracts = inject('contracts')
const { publicClient } = getClients()

test('every contract has code on the chain', async () => {
  expect(Object.keys(contracts).sort()).toEqual([...deployOrder].sort())
  for (const name of deployOrder) {
    const code = await publicClient.getCode({ address: contracts[name] })
    expect(code, name).toMatch(/^0x[0-9a-f]{20,}$/)
  }
})

test('a fresh chain gets the addresses predicted from the deployer nonces', () => {
  expect(contracts).toEqual(predictContracts())
  expect(contracts.factory).toBe('0x5FbDB2315678afecb367f032d93F642f64180aa3')
})

test('the main module is bound to the factory', async () => {
  expect(
    await publicClient.readContract({
      address: contracts.mainModule,
      abi: MainModule.abi,
      functionName: 'FACTORY',
    }),
  ).toBe(contracts.factory)
})

test('the ERC-20 is the 18-decimal faucet token', async () => {
  const read = (functionName: 'decimals' | 'symbol') =>
    publicClient.readContract({
      address: contracts.erc20,
      abi: TestERC20.abi,
      functionName,
    })
  expect(await read('decimals')).toBe(18)
  expect(await read('symbol')).toBe('TEST')
})

test('the co-signer trusts the co-signer key and is owned by the deployer', async () => {
  const read = (functionName: 'signer' | 'owner' | 'rolloverSigner') =>
    publicClient.readContract({
      address: contracts.coSigner,
      abi: CoSigner.abi,
      functionName,
    })
  expect(await read('signer')).toBe(coSignerKey.address)
  expect(await read('owner')).toBe(deployer.address)
  expect(await read('rolloverSigner')).toBe(
    '0x0000000000000000000000000000000000000000',
  )
})
