import { messages } from '@carteirinha/shared/messages';

const m = messages.landing.stats;

/** The row of headline numbers under the hero. */
export function StatsSection() {
  return (
    <section aria-labelledby="stats-title" className="border-y bg-muted">
      <h2 id="stats-title" className="sr-only">
        {m.title}
      </h2>
      <dl className="mx-auto grid max-w-6xl grid-cols-1 gap-8 px-4 py-12 text-center sm:grid-cols-3 sm:px-6">
        {m.items.map((stat) => (
          <div key={stat.label} className="flex flex-col-reverse gap-1">
            <dt className="text-sm font-medium text-muted-foreground">{stat.label}</dt>
            <dd className="text-4xl font-extrabold tracking-tight text-primary-text">{stat.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
