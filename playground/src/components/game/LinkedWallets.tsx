import { linkWalletTypedData, type Passport } from 'embedded-wallets/passport'
import { useCallback, useEffect, useState } from 'react'
import { type Address, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { useFailures } from '../../ui/errors.js'
import { LongValue } from '../../ui/LongValue.js'

/**
 * The external wallets linked to the player (`getLinkedAddresses`), and a
 * button that links a new one: a key made in this page signs the link
 * message (EIP-712 `LinkWallet`, as the published SDK's dApps have the
 * external wallet sign it) and `linkExternalWallet` sends it.
 */
export function LinkedWallets(props: { passport: Passport; wallet: Address }) {
  const { passport, wallet } = props
  const [linked, setLinked] = useState<readonly string[]>()
  const [busy, setBusy] = useState(false)
  const [last, setLast] = useState<string>()
  const { report, clear } = useFailures('passport')

  const read = useCallback(async () => {
    try {
      setLinked(await passport.getLinkedAddresses())
    } catch (error) {
      report('Reading the linked wallets', error)
    }
  }, [passport, report])

  useEffect(() => {
    void read()
  }, [read])

  const link = async () => {
    setBusy(true)
    clear()
    try {
      const account = privateKeyToAccount(generatePrivateKey())
      const nonce = toHex(crypto.getRandomValues(new Uint8Array(16)))
      const { domain, types, primaryType, condition } = linkWalletTypedData
      // Both addresses lowercased, as the published SDK's dApps sign them
      // and the platform API rebuilds the message.
      const signature = await account.signTypedData({
        domain,
        types: { LinkWallet: types.LinkWallet },
        primaryType,
        message: {
          walletAddress: account.address.toLowerCase() as Address,
          immutablePassportAddress: wallet.toLowerCase() as Address,
          condition,
          nonce,
        },
      })
      await passport.linkExternalWallet({
        type: 'External',
        walletAddress: account.address.toLowerCase(),
        signature,
        nonce,
      })
      setLast(account.address)
      await read()
    } catch (error) {
      report('Linking a wallet', error)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="stack">
      {linked === undefined ? (
        <p className="muted">Reading…</p>
      ) : linked.length === 0 ? (
        <p className="muted" data-testid="game-linked-empty">
          No linked wallets.
        </p>
      ) : (
        <ul data-testid="game-linked-list">
          {linked.map((address) => (
            <li key={address}>
              <LongValue value={address} testId="game-linked-address" />
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <button
          type="button"
          disabled={busy}
          data-testid="game-link-new"
          onClick={() => void link()}
        >
          {busy ? 'Linking…' : 'Link a new test wallet'}
        </button>
        <button
          type="button"
          data-testid="game-linked-refresh"
          onClick={() => void read()}
        >
          Refresh
        </button>
      </div>
      {last && (
        <p className="ok" data-testid="game-link-result">
          Linked <LongValue value={last} testId="game-link-address" />.
        </p>
      )}
    </div>
  )
}
