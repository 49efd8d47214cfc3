import type { DefaultTheme } from 'vitepress';

/**
 * The site's navigation: every page is listed here once (the link checker fails on a page that is not).
 * To add a page, write `docs/<section>/<name>.md` and add one line to its section below.
 */
export const sidebar: DefaultTheme.SidebarItem[] = [
  {
    text: 'Start here',
    items: [
      { text: 'What Gatehouse is', link: '/' },
      { text: 'Quick start', link: '/guide/quick-start' },
      { text: 'Installing from npm', link: '/guide/installing' },
      { text: 'Features in detail', link: '/features' },
    ],
  },
  {
    text: 'Guides',
    items: [
      { text: 'Sign-in for a React app', link: '/guide/react' },
      { text: 'Languages', link: '/guide/languages' },
      { text: 'Node and server SDK', link: '/guide/server-sdk' },
      { text: 'Verify access tokens (jose)', link: '/guide/verify-tokens' },
      { text: 'Stack SDK drop-in', link: '/guide/stack-sdk' },
      { text: 'Clients from your own generator', link: '/guide/generated-clients' },
      { text: 'Emails', link: '/guide/emails' },
      { text: 'Payments', link: '/guide/payments' },
      { text: 'Webhooks', link: '/guide/webhooks' },
      { text: 'SCIM and the audit log', link: '/guide/scim-and-audit-log' },
      { text: 'Data vault', link: '/guide/data-vault' },
      { text: 'Teams and permissions', link: '/guide/teams-permissions' },
      { text: 'Sign-up protection', link: '/guide/sign-up-protection' },
      { text: 'Your own OpenID provider', link: '/guide/own-openid-provider' },
      { text: 'Enterprise SSO and domains', link: '/guide/enterprise-sso' },
      { text: 'Self-serve SSO setup', link: '/guide/sso-self-serve-setup' },
      { text: 'Enterprise set-up in the dashboard', link: '/guide/enterprise-dashboard' },
      { text: 'CLI login', link: '/guide/cli-login' },
      { text: 'Identity provider (OAuth / OIDC)', link: '/guide/identity-provider' },
      { text: 'Custom claims', link: '/guide/custom-claims' },
      { text: 'Production deployment', link: '/guide/production' },
      { text: 'Upgrading', link: '/guide/upgrading' },
    ],
  },
  {
    text: 'Reference',
    items: [
      { text: 'Configuration', link: '/reference/configuration' },
      { text: 'Error catalogue', link: '/reference/errors' },
      { text: 'HTTP API', link: '/reference/api' },
      { text: 'SDK API', link: '/reference/sdk' },
    ],
  },
  {
    text: 'Protocol',
    items: [
      { text: 'Overview and conventions', link: '/protocol/overview' },
      { text: 'Endpoints', link: '/protocol/endpoints' },
      { text: 'Entities', link: '/protocol/entities' },
    ],
  },
  {
    text: 'Inside Gatehouse',
    items: [
      { text: 'Architecture', link: '/architecture/' },
      { text: 'Adding a feature', link: '/architecture/adding-a-feature' },
      { text: 'Performance', link: '/performance' },
    ],
  },
];
