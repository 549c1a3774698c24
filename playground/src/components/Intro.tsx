/**
 * What the page is, in two lines, and the first steps folded away in a
 * help box a visitor opens when they want it.
 */
export function Intro() {
  return (
    <header className="intro" data-testid="intro">
      <p className="lead">
        A dApp on wagmi using this package’s two embedded wallets, the iframe
        wallet and the game wallet, against a local chain and emulated backends:
        no real network, no real money.
      </p>
      <details className="try" data-testid="intro-help">
        <summary>
          <h2 id="try-title" className="try-title">
            Try this first
          </h2>
        </summary>
        <ol>
          <li>
            Press <strong>Connect</strong>: it lists both wallets and every
            wallet announced on the page. For the iframe wallet, type any email
            address and press <strong>Email me a code</strong>; the code shows
            under the form, from the dev mailbox (also in the{' '}
            <strong>Dev</strong> drawer, top right).
          </li>
          <li>
            A new iframe wallet holds 100 test ETH. Press{' '}
            <strong>Get test tokens</strong> to mint 100 TEST and a test NFT.
          </li>
          <li>
            Send ETH or TEST, sign a message or typed data, then open a
            transaction’s receipt from the recent transactions.
          </li>
          <li>
            The game wallet connects from the same button; its own sign-in
            methods, guardian and relayer are in the Game wallet section, the
            iframe wallet’s screens in the Iframe wallet section.
          </li>
        </ol>
      </details>
    </header>
  )
}
