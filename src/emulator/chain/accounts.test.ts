import { toHex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { expect, test } from 'vitest'
import {
  anvilAccounts,
  anvilMnemonic,
  anvilPrivateKeys,
  coSignerKey,
  dappAccountIndexes,
  deployer,
  emulatorAccounts,
  gasSponsor,
  minter,
  relayerSubmitter,
  zoneSigner,
} from './accounts.js'

test('the deployer is Anvil account 0', () => {
  expect(deployer.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
  expect(anvilPrivateKeys[0]).toBe(
    '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  )
  expect(anvilAccounts[0]?.address).toBe(deployer.address)
})

test('the listed keys are the first ten accounts of the Anvil mnemonic', () => {
  expect(anvilPrivateKeys).toHaveLength(10)
  anvilPrivateKeys.forEach((key, addressIndex) => {
    const derived = mnemonicToAccount(anvilMnemonic, { addressIndex })
    expect(toHex(derived.getHdKey().privateKey!)).toBe(key)
    expect(anvilAccounts[addressIndex]?.address).toBe(derived.address)
  })
})

test('the co-signer, relayer and gas sponsor keys are distinct Anvil accounts 5, 8 and 9', () => {
  expect(coSignerKey.address).toBe('0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc')
  expect(relayerSubmitter.address).toBe(
    '0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f',
  )
  expect(gasSponsor.address).toBe('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720')
  expect(anvilAccounts[5]?.address).toBe(coSignerKey.address)
  expect(anvilAccounts[8]?.address).toBe(relayerSubmitter.address)
})

test('the minter and the zone signer are Anvil accounts 6 and 7', () => {
  expect(minter.address).toBe('0x976EA74026E726554dB657fA54763abd0C3a0aa9')
  expect(zoneSigner.address).toBe('0x14dC79964da2C08b23698B3D3cc7Ca32193d9955')
  expect(anvilAccounts[6]?.address).toBe(minter.address)
  expect(anvilAccounts[7]?.address).toBe(zoneSigner.address)
})

test('behavior: the emulator names every account it uses, and none of the dApp accounts 1 to 4', () => {
  const roles = Object.values(emulatorAccounts)
  for (const { index, address } of roles)
    expect(anvilAccounts[index]?.address).toBe(address)
  expect(roles.map(({ index }) => index)).toEqual([0, 5, 6, 7, 8, 9])
  expect(new Set(roles.map(({ address }) => address)).size).toBe(roles.length)
  expect(dappAccountIndexes).toEqual([1, 2, 3, 4])
  const used: readonly number[] = roles.map(({ index }) => index)
  for (const index of dappAccountIndexes) expect(used).not.toContain(index)
})
