import { boletoBarcodeOf } from '@carteirinha/shared/boleto';
import { messages } from '@carteirinha/shared/messages';
import JsBarcode from 'jsbarcode';
import { useEffect, useRef } from 'react';

/**
 * The boleto's barcode (Interleaved 2 of 5, 44 digits) drawn from its linha digitável, as a bank prints it under the
 * slip: a cashier's reader or a bank app's camera reads it. Drawn as SVG so it prints sharp.
 */
export function BoletoBarcode({ digitableLine }: { digitableLine: string }) {
  const barcode = boletoBarcodeOf(digitableLine);
  const svgRef = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (!barcode || !svgRef.current) return;
    const svg = svgRef.current;
    JsBarcode(svg, barcode, { format: 'ITF', width: 2, height: 80, margin: 0, displayValue: false, background: 'transparent' });
    // JsBarcode sizes the SVG in pixels (some 800 px for 44 digits): a viewBox lets it scale to a phone's width instead.
    const width = svg.getAttribute('width');
    const height = svg.getAttribute('height');
    if (width && height) svg.setAttribute('viewBox', `0 0 ${Number.parseFloat(width)} ${Number.parseFloat(height)}`);
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    svg.setAttribute('preserveAspectRatio', 'none');
  }, [barcode]);
  if (!barcode) return null;
  return <svg ref={svgRef} role="img" aria-label={messages.subscriptionPage.barcodeLabel} data-testid="boleto-barcode" data-barcode={barcode} className="h-16 w-full max-w-xl" />;
}
