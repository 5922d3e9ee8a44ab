import { messages } from '@carteirinha/shared/messages';
import { BrandLogo } from './brand-logo';

const m = messages.landing.footer;

/** Page footer with the product mark and the copyright line (§2: copyright 2025). */
export function LandingFooter() {
  return (
    <footer className="border-t bg-muted">
      <div className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 py-10 text-center sm:px-6 md:flex-row md:justify-between md:text-left">
        <div>
          <BrandLogo />
          <p className="mt-2 text-sm text-muted-foreground">{m.tagline}</p>
        </div>
        <p className="text-sm text-muted-foreground">{m.copyright}</p>
      </div>
    </footer>
  );
}
