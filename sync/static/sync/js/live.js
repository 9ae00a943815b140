// A sync's screen follows the sync while it runs (sync/templates/sync/live.html): every few
// seconds it asks the screen's status URL, which answers {"running": bool, "html": "..."},
// and puts the new HTML in place of the old. Once the sync has ended it stops asking; the
// last answer already shows the outcome. A failed request is tried again at the next tick.
(() => {
  const INTERVAL = 2000;

  function follow(region) {
    const url = region.dataset.syncLiveUrl;
    if (!url) return;
    const tick = async () => {
      let answer;
      try {
        const response = await fetch(url, {
          headers: { Accept: 'application/json' },
          credentials: 'same-origin',
        });
        const json = (response.headers.get('Content-Type') || '').includes('json');
        if (!response.ok || !json) return; // signed out or refused: nothing more to show
        answer = await response.json();
      } catch (error) {
        window.setTimeout(tick, INTERVAL);
        return;
      }
      region.innerHTML = answer.html;
      if (answer.running) {
        window.setTimeout(tick, INTERVAL);
      } else {
        delete region.dataset.syncLiveUrl;
        region.dataset.syncLiveEnded = '';
      }
    };
    window.setTimeout(tick, INTERVAL);
  }

  const start = () => document.querySelectorAll('[data-sync-live]').forEach(follow);
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start); // the admin loads it in <head>
  } else {
    start();
  }
})();
