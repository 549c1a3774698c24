import { useConnectors } from 'wagmi'

/** The wallets wagmi knows, including those that announced via EIP-6963. */
export function ProvidersPanel() {
  const connectors = useConnectors()
  if (connectors.length === 0)
    return (
      <p className="muted" data-testid="providers-empty">
        None announced yet.
      </p>
    )
  return (
    <ul className="providers">
      {connectors.map((connector) => (
        <li
          key={connector.uid}
          className="provider"
          data-testid="provider"
          data-rdns={rdnsOf(connector.rdns)}
        >
          {isImage(connector.icon) ? (
            <img src={connector.icon} alt="" width={32} height={32} />
          ) : (
            <span className="icon-placeholder" aria-hidden="true" />
          )}
          <span className="provider-name" data-testid="provider-name">
            {connector.name}
          </span>
          <code data-testid="provider-rdns">{rdnsOf(connector.rdns)}</code>
        </li>
      ))}
    </ul>
  )
}

function rdnsOf(rdns: string | readonly string[] | undefined): string {
  if (rdns === undefined) return '—'
  return typeof rdns === 'string' ? rdns : rdns.join(', ')
}

/** Only data-URI images (as EIP-6963 requires) or http(s) URLs are shown. */
function isImage(icon: string | undefined): icon is string {
  return icon !== undefined && /^(data:image\/|https?:\/\/)/.test(icon)
}
