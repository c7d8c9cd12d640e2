/** Public surface of the devices feature (used by the main application's composition in features/overview). */
export { useDevices } from './api/get-devices';
export { useDeleteDevice } from './api/delete-device';
export { useTestDevice } from './api/test-device';
export { DeviceActions } from './components/DeviceActions';
export { AddDevicePage } from './routes/AddDevicePage';
export { AddAuthenticatorPage } from './routes/AddAuthenticatorPage';
export { AddTokenPage } from './routes/AddTokenPage';
/** Loaded on demand: it carries the phone-number metadata. */
export const loadAddPhonePage = () => import('./routes/AddPhonePage');
