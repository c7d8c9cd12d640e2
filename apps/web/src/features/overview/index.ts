/** Public surface of the overview feature: the home screen and the self-service lost-device wizard. */
export { OverviewPage } from './routes/OverviewPage';
export { LostDevicePage } from './routes/LostDevicePage';
