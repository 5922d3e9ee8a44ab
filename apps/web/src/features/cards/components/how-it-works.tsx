import { messages } from '@carteirinha/shared/messages';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

const s = messages.cardScreens;

/** The how-it-works list beside Validar QR Code. */
export function HowItWorks() {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>{s.howItWorksTitle}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ol className="list-decimal space-y-2 pl-5 text-sm">
          {s.howItWorks.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}
