/** Public surface of the bypass-codes feature. */
export { BypassCodesPage } from './routes/BypassCodesPage';
export { useCreateBypassCodes } from './api/create-bypass-codes';
