// The paper chooser's "Look up" (sync/templates/sync/lookup_form.html) posts its own form only.
// Before it goes, this copies what the editor typed into the "New paper" form below it as
// `paper-<field>` inputs, so the panel the lookup answers with shows it again
// (sync/lookup_views.py). It listens in the capture phase to run before Wagtail's modal script
// serializes the form.
document.addEventListener(
  'submit',
  (event) => {
    const lookup = event.target.closest('form[data-paper-lookup]');
    if (!lookup) return;
    lookup.querySelectorAll('input[data-paper-typed]').forEach((input) => input.remove());
    const panel = lookup.closest('[role="tabpanel"]');
    const paperForm = panel && panel.querySelector('form[data-paper-form]');
    if (!paperForm) return;
    for (const [name, value] of new FormData(paperForm)) {
      if (name === 'csrfmiddlewaretoken' || typeof value !== 'string') continue;
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = `paper-${name}`;
      input.value = value;
      input.dataset.paperTyped = '';
      lookup.append(input);
    }
  },
  true,
);
