/** Public surface of the overview feature: the home screen. */
export { OverviewPage } from './routes/OverviewPage';
