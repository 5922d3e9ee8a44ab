import { BrandLogo } from './brand-logo';

/** Page footer with the product mark and the copyright line (§2: copyright 2025). */
export function LandingFooter() {
  return (
    <footer className="border-t bg-muted">
      <div className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 py-10 text-center sm:px-6 md:flex-row md:justify-between md:text-left">
        <div>
          <BrandLogo />
          <p className="mt-2 text-sm text-muted-foreground">
            Cartões de benefícios em saúde, com a marca da sua clínica.
          </p>
        </div>
        <p className="text-sm text-muted-foreground">© 2025 Carteirinha. Todos os direitos reservados.</p>
      </div>
    </footer>
  );
}
