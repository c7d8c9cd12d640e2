/** Public surface of the activity feature. */
export { ActivityPage } from './routes/ActivityPage';
