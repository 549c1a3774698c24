/**
 * The multi-rollup API's namespace (`mr`): every class, request type, model
 * and enumeration generated from its spec.
 */
export * from './index.generated.js'
