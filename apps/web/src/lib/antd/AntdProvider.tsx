import type { ReactNode } from 'react';
import { App, ConfigProvider } from 'antd';
import { StyleProvider } from '@ant-design/cssinjs';
import { NOTIFICATION_DURATION_SECONDS, TOAST_DURATION_SECONDS } from '@mfa-portal/shared';
import 'virtual:antd-static.css';
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
 */
export function AntdProvider({ children }: { children: ReactNode }) {
  return (
    <StyleProvider container={detachedStyleContainer}>
      <ConfigProvider theme={{ ...ANTD_THEME, zeroRuntime: true }} getPopupContainer={getOverlayContainer}>
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
