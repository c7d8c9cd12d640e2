import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { authenticationTypesOf, PORTAL_AUTHENTICATOR_APP, type Device } from '@mfa-portal/shared';

type Labelled = Pick<Device, 'name' | 'kind' | 'capabilities' | 'app'>;

/** A phone activated in the portal's own authenticator app (push with number matching, passcodes). */
export const isPortalAuthenticator = (device: Pick<Device, 'app'>): boolean => device.app === PORTAL_AUTHENTICATOR_APP;

export interface DeviceLabels {
  /** How the device is named on screen: its name, or "Portal Authenticator on Pixel 8" for a phone in the portal's app. */
  label(device: Labelled): string;
  /** What kind of device it is ("Authenticator app" stays a third-party app that only gives passcodes). */
  kind(device: Labelled): string;
  /** What it can be used for: "Push, Passcode", passkey sign-in, or nothing. */
  types(device: Labelled): string;
}

/**
 * The one place device labels are worded, so the device list, the helpdesk's pages, step-up and the push
 * panels all name a device the same way. The texts live in the `main` namespace, which every screen loads.
 */
export function useDeviceLabels(): DeviceLabels {
  const { t } = useTranslation('main');
  return useMemo(
    () => ({
      label: (device) => (isPortalAuthenticator(device) ? t('devices.portal_authenticator_on', { name: device.name }) : device.name),
      kind: (device) => (isPortalAuthenticator(device) ? t('devices.kind_portal_authenticator') : t(`devices.kind.${device.kind}`)),
      types: (device) => {
        const types = [
          ...authenticationTypesOf(device.capabilities).map((type) => t(`devices.authentication_type.${type}`)),
          ...(device.capabilities.includes('webauthn') ? [t('devices.capability_webauthn')] : []),
        ];
        return types.length ? types.join(', ') : t('devices.capability_none');
      },
    }),
    [t],
  );
}
