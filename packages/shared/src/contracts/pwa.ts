import { z } from 'zod';

/** The icon sizes the web app manifest names (Chromium's installability asks for 192 and 512 px). */
export const APP_ICON_SIZES = ['192', '512'] as const;
export type AppIconSize = (typeof APP_ICON_SIZES)[number];
export const appIconParamsSchema = z.object({ size: z.enum(APP_ICON_SIZES) });

const manifestIconSchema = z.object({ src: z.string(), sizes: z.string(), type: z.string(), purpose: z.string() });

/** GET /api/app/manifest.webmanifest: the installable app of this host, the clinic's or the platform's (issue 29). */
export const webAppManifestSchema = z.object({
  id: z.string(),
  name: z.string(),
  short_name: z.string(),
  description: z.string(),
  lang: z.string(),
  start_url: z.string(),
  scope: z.string(),
  display: z.literal('standalone'),
  background_color: z.string(),
  theme_color: z.string(),
  icons: z.array(manifestIconSchema),
});
export type WebAppManifest = z.infer<typeof webAppManifestSchema>;
