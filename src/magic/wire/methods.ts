/**
 * JSON-RPC method names of the iframe protocol (seed 000 §7), with their
 * test-mode variants. A method's name appears here once.
 */

export const methods = {
  loginWithSms: 'magic_auth_login_with_sms',
  loginWithEmailOtp: 'magic_auth_login_with_email_otp',
  loginWithMagicLink: 'magic_auth_login_with_magic_link',
  loginWithCredential: 'magic_auth_login_with_credential',
  loginWithOidc: 'magic_auth_login_with_oidc',
  setAuthorizationToken: 'magic_auth_set_authorization_token',
  getIdToken: 'magic_auth_get_id_token',
  generateIdToken: 'magic_auth_generate_id_token',
  getMetadata: 'magic_auth_get_metadata',
  isLoggedIn: 'magic_is_logged_in',
  logout: 'magic_auth_logout',
  updateEmail: 'magic_auth_update_email',
  settings: 'magic_auth_settings',
  recoverAccount: 'magic_auth_recover_account',
  revealKey: 'magic_reveal_key',
  enableMfa: 'magic_auth_enable_mfa_flow',
  disableMfa: 'magic_auth_disable_mfa_flow',
  intermediaryEvent: 'magic_intermediary_event',
  requestAccounts: 'eth_requestAccounts',
  getInfo: 'magic_get_info',
  showUi: 'magic_wallet',
  showAddress: 'magic_show_address',
  showBalances: 'magic_show_balances',
  showSendTokensUi: 'magic_show_send_tokens_ui',
  showOnRamp: 'magic_show_fiat_onramp',
  showNfts: 'magic_show_nfts',
  nftPurchase: 'magic_nft_purchase',
  nftCheckout: 'magic_nft_checkout',
  nftTransfer: 'magic_nft_transfer',
  requestUserInfo: 'mc_request_user_info',
  login: 'mc_login',
  disconnect: 'mc_disconnect',
  sendGaslessTransaction: 'eth_sendGaslessTransaction',
  getMultichainPublicAddress: 'magic_get_multichain_public_address',
  sign7702Authorization: 'magic_wallet_sign_7702_authorization',
  send7702Transaction: 'eth_send7702Transaction',
} as const

export type Method = (typeof methods)[keyof typeof methods]

/**
 * Test-mode names, as the published SDK sends them when `testMode` is on.
 * Most follow `<name>_testing_mode`; the magic-link and logged-in ones do not.
 */
export const testModeMethods: Partial<Record<Method, string>> = {
  [methods.loginWithSms]: 'magic_auth_login_with_sms_testing_mode',
  [methods.loginWithEmailOtp]: 'magic_auth_login_with_email_otp_testing_mode',
  [methods.loginWithMagicLink]: 'magic_login_with_magic_link_testing_mode',
  [methods.loginWithCredential]:
    'magic_auth_login_with_credential_testing_mode',
  [methods.getIdToken]: 'magic_auth_get_id_token_testing_mode',
  [methods.generateIdToken]: 'magic_auth_generate_id_token_testing_mode',
  [methods.getMetadata]: 'magic_auth_get_metadata_testing_mode',
  [methods.isLoggedIn]: 'magic_auth_is_logged_in_testing_mode',
  [methods.logout]: 'magic_auth_logout_testing_mode',
  [methods.updateEmail]: 'magic_auth_update_email_testing_mode',
  [methods.settings]: 'magic_auth_settings_testing_mode',
  [methods.recoverAccount]: 'magic_auth_recover_account_testing_mode',
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
