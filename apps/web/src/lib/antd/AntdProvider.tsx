import { useMemo, type ReactNode } from 'react';
import { App, ConfigProvider } from 'antd';
import { StyleProvider } from '@ant-design/cssinjs';
import { NOTIFICATION_DURATION_SECONDS, TOAST_DURATION_SECONDS } from '@mfa-portal/shared';
import 'virtual:antd-static.css';
import { REDUCED_MOTION_QUERY, useMediaQuery } from '../ui/use-media-query';
import { ANTD_THEME } from './theme';

/**
 * Where antd's run-time CSS-in-JS would write its <style> elements: an element that is never attached
 * to the document. In zero-runtime mode antd still writes its design tokens as CSS variables at run
 * time; the CSP (style-src 'self') would refuse those inline styles and log a violation. The same
 * variables are in the static stylesheet, so these writes are simply dropped.
 */
const detachedStyleContainer: HTMLElement | undefined = typeof document === 'undefined' ? undefined : document.createElement('div');

/**
 * Where dialogs, toasts and pop-ups are rendered: a container of their own rather than <body>, because
 * antd locks page scrolling behind a dialog with an inline <style> only when it renders into <body>.
 */
let overlayContainer: HTMLElement | undefined;
export function getOverlayContainer(): HTMLElement {
  if (!overlayContainer || !overlayContainer.isConnected) {
    overlayContainer = document.createElement('div');
    overlayContainer.className = 'overlay-root';
    document.body.append(overlayContainer);
  }
  return overlayContainer;
}

/**
 * Ant Design for the main application: the portal's theme in zero-runtime mode (styles come from the
 * static stylesheet built from the same theme), toasts for 3 s and notifications for 4.5 s (the portal's
 * message times), and antd's App context so `App.useApp()` gives message/notification/modal with the theme.
 *
 * When the person's system asks for reduced motion, antd's own motion is off: dialogs, drawers, toasts
 * and menus appear and go without zooming or sliding, and buttons make no click ripple. The class names
 * do not depend on the motion token, so the static stylesheet still matches; the CSS transitions it
 * holds are shortened by the same media query in the layout's stylesheet.
 */
export function AntdProvider({ children }: { children: ReactNode }) {
  const reduceMotion = useMediaQuery(REDUCED_MOTION_QUERY);
  const theme = useMemo(
    () => ({ ...ANTD_THEME, zeroRuntime: true, token: { ...ANTD_THEME.token, motion: !reduceMotion } }),
    [reduceMotion],
  );
  const wave = useMemo(() => ({ disabled: reduceMotion }), [reduceMotion]);
  return (
    <StyleProvider container={detachedStyleContainer}>
      <ConfigProvider theme={theme} wave={wave} getPopupContainer={getOverlayContainer}>
        <App
          component={false}
          message={{ duration: TOAST_DURATION_SECONDS, getContainer: getOverlayContainer }}
          notification={{ duration: NOTIFICATION_DURATION_SECONDS, getContainer: getOverlayContainer }}
        >
          {children}
        </App>
      </ConfigProvider>
    </StyleProvider>
  );
}
