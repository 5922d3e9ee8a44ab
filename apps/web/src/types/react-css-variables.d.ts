import 'react';

// Lets `style` set CSS custom properties (`--sidebar-width`) without a cast.
declare module 'react' {
  interface CSSProperties {
    [variable: `--${string}`]: string | number | undefined;
  }
}
