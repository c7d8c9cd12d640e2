import type { ThemeConfig } from 'antd';

/**
 * The portal's Ant Design theme, shared by the build (which renders the static stylesheet from it, see
 * static-css.ts) and the runtime (which must use exactly the same tokens and CSS-variable key so that
 * the class names it renders match the stylesheet).
 *
 * Colours are chosen for WCAG 2.2 AA on white: text and primary ≥ 4.5:1 (antd's defaults are not:
 * #1677ff is 4.1:1 and the secondary text rgba(0,0,0,.45) is 3.4:1), input borders ≥ 3:1.
 */

/** Class that carries the token CSS variables; every antd element gets it. */
export const ANTD_CSS_VAR_KEY = 'mfa-antd';

export const ANTD_THEME: ThemeConfig = {
  // One antd version on the page: no hash classes, plain `.ant-btn` selectors (smaller CSS, stable names).
  hashed: false,
  cssVar: { key: ANTD_CSS_VAR_KEY },
  token: {
    colorPrimary: '#0b5cad',
    colorInfo: '#0b5cad',
    colorLink: '#0b5cad',
    colorSuccess: '#1a7f37',
    colorWarning: '#9a6700',
    colorError: '#b42318',
    colorText: '#1f2328',
    colorTextSecondary: '#4b535c',
    colorTextTertiary: '#57606a',
    colorTextDescription: '#57606a',
    colorTextPlaceholder: '#6e7781',
    colorSuccessBg: '#eef8f1',
    colorSuccessBorder: '#8fc9a0',
    colorWarningBg: '#fff8e5',
    colorWarningBorder: '#e0b84f',
    colorErrorBg: '#fdf1f0',
    colorErrorBorder: '#eba59f',
    colorInfoBg: '#eef5fc',
    colorInfoBorder: '#93bde6',
    colorBorder: '#8c959f',
    colorBorderSecondary: '#d0d7de',
    fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
    fontSize: 16,
    borderRadius: 6,
    // Comfortable targets for touch and pointer (WCAG 2.2 target size is 24 px; these are 40 px).
    controlHeight: 40,
    // A busy button keeps its full contrast (the spinner and the "...ing" label say it is busy).
    opacityLoading: 1,
  },
};

/**
 * antd components (and static APIs) whose styles the static stylesheet contains. Every antd export the
 * application imports must be listed (a unit test checks the imports against this list).
 */
export const ANTD_STYLED_COMPONENTS = [
  'Alert',
  'App',
  'Button',
  'Checkbox',
  'Col',
  'Form',
  'Input',
  'InputNumber',
  'Modal',
  'Progress',
  'Radio',
  'Row',
  'Spin',
  'message',
  'notification',
] as const;
