import { toHex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { expect, test } from 'vitest'
import {
  anvilAccounts,
  anvilMnemonic,
  anvilPrivateKeys,
  deployer,
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
