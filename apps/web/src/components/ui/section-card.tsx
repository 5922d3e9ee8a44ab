import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from './card';

/**
 * A titled part of a page (a form's section, a block of facts): a card that is a region named by its h2, so a screen
 * reader lists it among the page's landmarks.
 */
export function SectionCard({ id, title, description, className, children }: { id: string; title: string; description?: string; className?: string; children: ReactNode }) {
  return (
    <Card role="region" aria-labelledby={id}>
      <CardHeader>
        <CardTitle asChild className="text-lg">
          <h2 id={id}>{title}</h2>
        </CardTitle>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent className={className ?? 'grid gap-4'}>{children}</CardContent>
    </Card>
  );
}
