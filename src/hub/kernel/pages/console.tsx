import type { ComponentChildren } from 'preact'
import type { Language } from '../language/language.js'
import { Layout, type PageContext } from './layout.js'

/** The administrator's console (docs/administration.md): its pages live at and below this path. */
export const CONSOLE_PATH = '/admin'

/** A section of the console a feature adds: its page's path and its name in the navigation. */
export interface ConsoleSection {
  path: string
  label: (language: Language) => string
}

export interface ConsoleLayoutProps {
  context: PageContext
  title: string
  /** Every feature's sections, in the order the features are listed. */
  sections: readonly ConsoleSection[]
  /** What the last change did, said once after its redirect (a `role="status"` line). */
  notice?: string | undefined
  children: ComponentChildren
}

/**
 * The console's pages: the hub's layout with the sections' navigation above the page's content.
 * The section whose path the page is at or below is marked current.
 */
export function ConsoleLayout({ context, title, sections, notice, children }: ConsoleLayoutProps) {
  const path = context.currentPath.split('?')[0] ?? ''
  const current = [...sections].sort((a, b) => b.path.length - a.path.length).find((section) => path === section.path || path.startsWith(`${section.path}/`))
  return (
    <Layout context={context} title={title}>
      <nav aria-label={context.t('console.navigation')} class="console-navigation">
        <ul class="nav-list">
          {sections.map((section) => (
            <li>
              <a href={section.path} aria-current={section === current ? 'page' : undefined}>
                {section.label(context.language)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {notice !== undefined && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {children}
    </Layout>
  )
}
