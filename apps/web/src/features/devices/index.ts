/**
 * Public surface of the devices feature, for app/ (the router): adding a device, what can be done
 * with each of the user's devices (the overview lists them), and the self-service lost-device wizard.
 * The shared device queries are in lib/devices.
 */
export { DeviceActions } from './components/DeviceActions';
export { AddDevicePage } from './routes/AddDevicePage';
export { AddAuthenticatorPage } from './routes/AddAuthenticatorPage';
export { AddTokenPage } from './routes/AddTokenPage';
export { AddPasskeyPage } from './routes/AddPasskeyPage';
export { AddPortalAuthenticatorPage } from './routes/AddPortalAuthenticatorPage';
export { LostDevicePage } from './routes/LostDevicePage';
/** Loaded on demand: it carries the phone-number metadata. */
export const loadAddPhonePage = () => import('./routes/AddPhonePage');
