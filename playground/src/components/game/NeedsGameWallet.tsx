import { useOpenConnect } from '../ConnectPanel.js'

/** What a game-wallet panel says while the game wallet is not connected. */
export function NeedsGameWallet(props: {
  /** What connecting lets the panel do, e.g. "see its contract". */
  what: string
}) {
  const open = useOpenConnect()
  return (
    <p className="muted" data-testid="game-needs-wallet">
      Connect the game wallet to {props.what}:{' '}
      <button type="button" className="link" onClick={open}>
        Connect
      </button>
      .
    </p>
  )
}
