/**
 * What the page is and what to try first, for someone who just ran
 * `npm start`.
 */
export function Intro() {
  return (
    <header className="intro" data-testid="intro">
      <h1>embedded-wallets playground</h1>
      <p className="lead">
        A small dApp, built on wagmi, that uses the two embedded wallets of this
        package. Everything runs on your machine: a local chain (Anvil), the
        emulated backends of an iframe wallet (the <code>magic-sdk</code>{' '}
        protocol) and of a game wallet’s sign-in (the{' '}
        <code>@imtbl/passport</code> protocol), and a dev mailbox that receives
        the codes they would email. No real network, no real money.
      </p>
      <section className="try" aria-labelledby="try-title">
        <h2 id="try-title">Try this first</h2>
        <ol>
          <li>
            Press <strong>Connect</strong> (top right): it lists both wallets
            and every wallet announced on the page. For the iframe wallet, type
            any email address and press <strong>Email me a code</strong>. The
            code arrives in the dev mailbox below; type it in.
          </li>
          <li>
            Your new wallet holds 100 test ETH. Press{' '}
            <strong>Get test tokens</strong> to mint 100 TEST and a test NFT.
          </li>
          <li>
            Send ETH or TEST, then click a transaction’s hash to read its
            receipt.
          </li>
          <li>
            Sign a message and typed data: each form shows what is signed and
            checks who signed it.
          </li>
          <li>
            Open this page in a second tab and disconnect there: this tab
            notices within a few seconds.
          </li>
        </ol>
        <p>
          The game wallet connects from the same button; further down, its panel
          signs in with a popup, a redirect, a device code or PKCE. Anything
          that fails shows in a red banner at the top, with the wallet’s own
          message.
        </p>
      </section>
    </header>
  )
}
