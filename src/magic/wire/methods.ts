/**
 * JSON-RPC method names of the iframe protocol, as the published SDK sends
 * them, with their test-mode variants. A method's name appears here once.
 *
 * Each name is its own export so that the client's modules (which import
 * this file as a namespace) keep only the names they use, under minified
 * identifiers; {@link methods} gathers them for the emulator.
 */

export const loginWithSms = 'magic_auth_login_with_sms'
export const loginWithEmailOtp = 'magic_auth_login_with_email_otp'
export const loginWithMagicLink = 'magic_auth_login_with_magic_link'
export const loginWithCredential = 'magic_auth_login_with_credential'
export const loginWithOidc = 'magic_auth_login_with_oidc'
export const setAuthorizationToken = 'magic_auth_set_authorization_token'
export const getIdToken = 'magic_auth_get_id_token'
export const generateIdToken = 'magic_auth_generate_id_token'
export const getMetadata = 'magic_auth_get_metadata'
export const isLoggedIn = 'magic_is_logged_in'
export const logout = 'magic_auth_logout'
export const updateEmail = 'magic_auth_update_email'
export const settings = 'magic_auth_settings'
export const recoverAccount = 'magic_auth_recover_account'
export const revealKey = 'magic_reveal_key'
export const enableMfa = 'magic_auth_enable_mfa_flow'
export const disableMfa = 'magic_auth_disable_mfa_flow'
export const intermediaryEvent = 'magic_intermediary_event'
export const requestAccounts = 'eth_requestAccounts'
export const getInfo = 'magic_get_info'
export const showUi = 'magic_wallet'
export const showAddress = 'magic_show_address'
export const showBalances = 'magic_show_balances'
export const showSendTokensUi = 'magic_show_send_tokens_ui'
export const showOnRamp = 'magic_show_fiat_onramp'
export const showNfts = 'magic_show_nfts'
export const nftPurchase = 'magic_nft_purchase'
export const nftCheckout = 'magic_nft_checkout'
export const nftTransfer = 'magic_nft_transfer'
export const requestUserInfo = 'mc_request_user_info'
export const login = 'mc_login'
export const disconnect = 'mc_disconnect'
export const sendGaslessTransaction = 'eth_sendGaslessTransaction'
export const getMultichainPublicAddress = 'magic_get_multichain_public_address'
export const sign7702Authorization = 'magic_wallet_sign_7702_authorization'
export const send7702Transaction = 'eth_send7702Transaction'

/** Every method name, by its key. */
export const methods = {
  loginWithSms,
  loginWithEmailOtp,
  loginWithMagicLink,
  loginWithCredential,
  loginWithOidc,
  setAuthorizationToken,
  getIdToken,
  generateIdToken,
  getMetadata,
  isLoggedIn,
  logout,
  updateEmail,
  settings,
  recoverAccount,
  revealKey,
  enableMfa,
  disableMfa,
  intermediaryEvent,
  requestAccounts,
  getInfo,
  showUi,
  showAddress,
  showBalances,
  showSendTokensUi,
  showOnRamp,
  showNfts,
  nftPurchase,
  nftCheckout,
  nftTransfer,
  requestUserInfo,
  login,
  disconnect,
  sendGaslessTransaction,
  getMultichainPublicAddress,
  sign7702Authorization,
  send7702Transaction,
} as const

export type Method = (typeof methods)[keyof typeof methods]

/**
 * The test-mode names that do not follow the rule: the published SDK sends
 * `<name>_testing_mode` for every method but these two.
 */
export const testModeMethods: Partial<Record<Method, string>> = {
  [loginWithMagicLink]: 'magic_login_with_magic_link_testing_mode',
  [isLoggedIn]: 'magic_auth_is_logged_in_testing_mode',
}

/**
 * The name a method goes out under: its test-mode variant when `testMode`
 * is on (`<name>_testing_mode` where the table has none).
 */
export function wireMethod(method: string, testMode: boolean): string {
  if (!testMode) return method
  return testModeMethods[method as Method] ?? `${method}_testing_mode`
}

/** In test mode `rpcProvider` requests go out as `testMode/eth/<method>`. */
export function testModeRpcMethod(method: string): string {
  return `testMode/eth/${method}`
}

/** Reverses the test-mode renaming; `undefined` when `name` is not one. */
export function fromTestMode(name: string): string | undefined {
  if (name.startsWith('testMode/eth/'))
    return name.slice('testMode/eth/'.length)
  for (const [method, variant] of Object.entries(testModeMethods))
    if (variant === name) return method
  if (name.endsWith('_testing_mode'))
    return name.slice(0, -'_testing_mode'.length)
  return undefined
}
