/**
 * The multi-rollup API's namespace (`mr`): every class, request type, model
 * and enumeration generated from its spec, plus the two enumerations the
 * published namespace has that the spec no longer declares.
 */
export {
  Severity,
  TransactionEvaluationStatus as ValidationStatus,
} from '../wire/enumerations.js'
export * from './index.generated.js'
