/** Shown when the playground was started without the emulator's info. */
export function MissingInfo(props: { reason: string }) {
  return (
    <main className="page">
      <h1>embedded-wallets playground</h1>
      <section className="panel notice" role="alert" data-testid="missing-info">
        <h2>No emulator</h2>
        <p>{props.reason}</p>
        <p>
          Start the playground with <code>npm start</code>: it starts the
          emulator and hands its info to this page. To serve the playground by
          hand, run <code>npm run emulator</code> and set{' '}
          <code>VITE_EMULATOR_INFO</code> to the JSON line it prints.
        </p>
      </section>
    </main>
  )
}
