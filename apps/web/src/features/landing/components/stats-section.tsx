/** §1 marketing claims. */
const PLATFORM_STATS = [
  { value: '500+', label: 'Clínicas ativas' },
  { value: '50k+', label: 'Pacientes' },
  { value: '98%', label: 'Satisfação' },
] as const;

/** The row of headline numbers under the hero. */
export function StatsSection() {
  return (
    <section aria-labelledby="stats-title" className="border-y bg-muted">
      <h2 id="stats-title" className="sr-only">
        A Carteirinha em números
      </h2>
      <dl className="mx-auto grid max-w-6xl grid-cols-1 gap-8 px-4 py-12 text-center sm:grid-cols-3 sm:px-6">
        {PLATFORM_STATS.map((stat) => (
          <div key={stat.label} className="flex flex-col-reverse gap-1">
            <dt className="text-sm font-medium text-muted-foreground">{stat.label}</dt>
            <dd className="text-4xl font-extrabold tracking-tight text-primary-text">{stat.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
