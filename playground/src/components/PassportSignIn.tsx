/** The sign-in actions the game-wallet panel offers while signed out. */
export type SignInActions = {
  /** `login()`: the provider's sign-in in a popup. */
  popup: () => void
  /** `login({ useRedirectFlow: true })`: this page goes to the provider. */
  redirect: () => void
  /** `loginWithDeviceFlow()`, then `loginWithDeviceFlowCallback(…)`. */
  device: () => void
  /** `loginWithPKCEFlow()`: this page opens the authorization URL. */
  pkce: () => void
  /** `login({ useCachedSession: true })`: only an existing session. */
  cached: () => void
}

/** The signed-out buttons, one per sign-in flow of the facade. */
export function PassportSignIn(props: {
  actions: SignInActions
  disabled: boolean
}) {
  const { actions, disabled } = props
  const buttons: readonly [keyof SignInActions, string][] = [
    ['popup', 'Sign in with popup'],
    ['redirect', 'Sign in with redirect'],
    ['device', 'Device code'],
    ['pkce', 'PKCE'],
    ['cached', 'Cached session only'],
  ]
  return (
    <div className="row">
      {buttons.map(([name, label]) => (
        <button
          key={name}
          type="button"
          disabled={disabled}
          data-testid={`passport-login-${name}`}
          onClick={actions[name]}
        >
          {label}
        </button>
      ))}
    </div>
  )
}
