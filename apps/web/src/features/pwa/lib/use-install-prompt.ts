import { useEffect, useState } from 'react';

/** Chromium's `beforeinstallprompt` event (not in the DOM typings: other engines have no install prompt). */
type BeforeInstallPromptEvent = Event & {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
};

function isInstallPrompt(event: Event): event is BeforeInstallPromptEvent {
  return 'prompt' in event && typeof event.prompt === 'function' && 'userChoice' in event;
}

/** Whether the page runs as the installed app (standalone window, or iOS's home-screen mode). */
function runsInstalled(): boolean {
  const iosStandalone = 'standalone' in navigator && navigator.standalone === true;
  return window.matchMedia('(display-mode: standalone)').matches || iosStandalone;
}

/**
 * The browser's own install prompt, where there is one (Chromium on Android and desktop): `install` shows it and
 * answers what the person chose. `installed` is true when the page runs as the app or the browser just installed it.
 */
export function useInstallPrompt() {
  const [prompt, setPrompt] = useState<BeforeInstallPromptEvent | null>(null);
  const [installed, setInstalled] = useState(runsInstalled);

  useEffect(() => {
    const onPrompt = (event: Event) => {
      if (!isInstallPrompt(event)) return;
      // Kept for our button instead of the browser's mini-infobar.
      event.preventDefault();
      setPrompt(event);
    };
    const onInstalled = () => {
      setInstalled(true);
      setPrompt(null);
    };
    window.addEventListener('beforeinstallprompt', onPrompt);
    window.addEventListener('appinstalled', onInstalled);
    return () => {
      window.removeEventListener('beforeinstallprompt', onPrompt);
      window.removeEventListener('appinstalled', onInstalled);
    };
  }, []);

  const install = async (): Promise<'accepted' | 'dismissed'> => {
    if (!prompt) return 'dismissed';
    await prompt.prompt();
    const { outcome } = await prompt.userChoice;
    setPrompt(null);
    if (outcome === 'accepted') setInstalled(true);
    return outcome;
  };

  return { canPrompt: prompt !== null, installed, install };
}
