/**
 * The legacy exchange API's namespace (`imx`): every class, request type,
 * model and enumeration generated from its spec.
 */
export * from './index.generated.js'
