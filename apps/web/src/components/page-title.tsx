/** The browser tab's title for a page (React 19 hoists <title> into <head>). */
export function PageTitle({ children }: { children: string }) {
  return <title>{`${children} · Loop`}</title>;
}
