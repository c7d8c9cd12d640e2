/** Public surface of the bypass-codes feature. */
export { BypassCodesPage } from './routes/BypassCodesPage';
