/** Public surface of the help feature. */
export { HelpPage } from './routes/HelpPage';
