/**
 * The code that runs inside the QuickJS sandbox before an owner's template or theme: React, the
 * server renderer and the @react-email components, bundled by esbuild (sandbox-runtime.ts) into one
 * script. It exposes the modules an email source may import through `globalThis.__modules` and the
 * renderer as `globalThis.__renderToStaticMarkup`; nothing of the host is reachable from here.
 *
 * `Tailwind` is a pass-through (Tailwind's compiler is too large to load for every render): sources
 * written for Stack Auth that wrap their body in it render, without the utility classes' styles.
 */
import {
  Body,
  Button,
  CodeInline,
  Column,
  Container,
  Font,
  Head,
  Heading,
  Hr,
  Html,
  Img,
  Link,
  Preview,
  Row,
  Section,
  Text,
} from '@react-email/components';
import * as React from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import { renderToStaticMarkup } from 'react-dom/server';

type Collected = { subject?: string; notificationCategory?: string };
const sandbox = globalThis as unknown as {
  __modules: Record<string, unknown>;
  __renderToStaticMarkup: typeof renderToStaticMarkup;
  __collected: Collected;
};

sandbox.__collected = {};
const Tailwind = ({ children }: { children?: React.ReactNode }) => children;
/** `<Subject value="..."/>` and `<NotificationCategory value="Marketing"/>` set the email's subject and category (Stack Auth's way). */
const Subject = ({ value }: { value: string }) => {
  sandbox.__collected.subject = value;
  return null;
};
const NotificationCategory = ({ value }: { value: string }) => {
  sandbox.__collected.notificationCategory = value;
  return null;
};
const emails = { Subject, NotificationCategory };

sandbox.__modules = {
  react: React,
  'react/jsx-runtime': jsxRuntime,
  '@react-email/components': {
    Body,
    Button,
    CodeInline,
    Column,
    Container,
    Font,
    Head,
    Heading,
    Hr,
    Html,
    Img,
    Link,
    Preview,
    Row,
    Section,
    Tailwind,
    Text,
  },
  '@gatehouse/emails': emails,
  '@stackframe/emails': emails,
};
sandbox.__renderToStaticMarkup = renderToStaticMarkup;
