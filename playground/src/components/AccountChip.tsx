import { useConnection, useDisconnect } from 'wagmi'
import { useFailures } from '../ui/errors.js'
import { LongValue } from '../ui/LongValue.js'

/**
 * The connected account in one line, whichever wallet it is: the wallet's
 * icon and name, the short address with a copy button, the chain, and a
 * disconnect. Renders nothing while no account is connected.
 */
export function AccountChip() {
  const { address, connector, chain, chainId } = useConnection()
  const disconnect = useDisconnect()
  const failures = useFailures('wallet')
  if (!address || !connector) return null

  const leave = async () => {
    failures.clear()
    try {
      await disconnect.mutateAsync({})
    } catch (error) {
      failures.report('Disconnecting', error)
    }
  }

  return (
    <div className="account-chip" data-testid="account-chip">
      {connector.icon && /^(data:image\/|https?:\/\/)/.test(connector.icon) && (
        <img src={connector.icon} alt="" width={24} height={24} />
      )}
      <span
        className="chip-wallet"
        data-testid="chip-wallet"
        data-rdns={typeof connector.rdns === 'string' ? connector.rdns : ''}
      >
        {connector.name}
      </span>
      <LongValue
        value={address}
        testId="chip-address"
        copyTestId="chip-copy"
        expandable={false}
      />
      <span className="chip-chain" data-testid="chip-chain">
        {chain ? `${chain.name} · ${chain.id}` : `Chain ${chainId}`}
      </span>
      <button
        type="button"
        data-testid="chip-disconnect"
        disabled={disconnect.isPending}
        onClick={leave}
      >
        Disconnect
      </button>
    </div>
  )
}
