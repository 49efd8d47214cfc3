import DefaultTheme from 'vitepress/theme';
import './accessibility.css';

/** VitePress's default theme, with the contrast and labelling fixes axe asks for (docs/test/site-browser.test.ts). */
export default DefaultTheme;
