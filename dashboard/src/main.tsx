import { createGatehouseQueryClient, GatehouseProvider, type Language, type Theme } from '@gatehouse/react';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { initialLanguage, LanguageContext, rememberLanguage } from './i18n/dashboard-i18n.ts';
import { BASE } from './routes.ts';
import { RootQueryClientContext, ThemeContext } from './shell-context.ts';
import './styles.css';

declare global {
  interface Window {
    GATEHOUSE_CONFIG: {
      projectId: string;
      publishableClientKey: string;
      /** Set when the platform runs Stripe mode with a publishable key: the payments page's embedded components. */
      stripe?: { publishableKey: string; connectJsUrl: string };
    };
  }
}

const { projectId, publishableClientKey } = window.GATEHOUSE_CONFIG;
const themeKey = 'gatehouse-dashboard-theme';
const rootQueryClient = createGatehouseQueryClient();

/** Owners are users of the `internal` project: they sign up and in with its handler pages under /dashboard/handler. */
function Root() {
  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem(themeKey) as Theme | null) ?? 'system');
  const chooseTheme = (next: Theme) => {
    localStorage.setItem(themeKey, next);
    setTheme(next);
  };
  const [language, setLanguage] = useState<Language>(initialLanguage);
  const chooseLanguage = (next: Language) => {
    rememberLanguage(next);
    setLanguage(next);
  };
  return (
    <GatehouseProvider
      projectId={projectId}
      publishableClientKey={publishableClientKey}
      queryClient={rootQueryClient}
      // Not the cookies: the apps on this origin (where impersonation opens) share the access-token cookie.
      tokenStore="localStorage"
      theme={theme}
      // The dashboard's language for its own words and for the handler pages and user menu it embeds (the provider
      // puts `lang` and `dir` on <html>): the owner's choice, else the browser's, else English.
      lang={language}
      urls={{ handlerPath: `${BASE}/handler`, home: `${BASE}/projects`, afterSignOut: `${BASE}/handler/sign-in` }}
    >
      <LanguageContext.Provider value={{ language, setLanguage: chooseLanguage }}>
        <ThemeContext.Provider value={{ theme, setTheme: chooseTheme }}>
          <RootQueryClientContext.Provider value={rootQueryClient}>
            <App />
          </RootQueryClientContext.Provider>
        </ThemeContext.Provider>
      </LanguageContext.Provider>
    </GatehouseProvider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
