/** CRD validation as kube-apiserver performs it: pruning, defaulting, structural schema and CEL rules. */
export { validateAndDefault, invalidMessage, type ValidateOptions, type ValidationResult } from './validate.js';
export {
  eachDocumentResult,
  maxDocumentBytes,
  oversizedDocument,
  validateDocuments,
  type DocumentResult,
} from './documents.js';
export type { FieldError, FieldErrorType } from './errors.js';
export type { JsonSchemaProps, ValidationRule } from '../schema/json-schema-props.js';
